"""`make bench` (bench/run_all.py): finds every *_bench.py, collects its RESULT lines, reports a
failing or hanging benchmark, and writes RESULTS.md."""

from __future__ import annotations

from bench import goals
from bench.run_all import BENCH_DIR, main, parse_results


def test_parse_results_reads_only_result_lines() -> None:
    output = "warming up\nRESULT http.sheet.p50=12.5 ms\nRESULT rows=40\nRESULT bad line\n"
    assert parse_results(output) == [("http.sheet.p50", "12.5", "ms"), ("rows", "40", "")]


def test_runs_every_bench_and_writes_results(tmp_path, capsys) -> None:
    (tmp_path / "fast_bench.py").write_text(
        "print('RESULT engine.baseline=1.5 us')\nprint('RESULT engine.score=3 us')\n"
    )
    (tmp_path / "broken_bench.py").write_text("print('RESULT half=1 s')\nraise SystemExit(3)\n")
    (tmp_path / "slow_bench.py").write_text("import time\ntime.sleep(30)\n")
    (tmp_path / "helper.py").write_text("raise SystemExit('not a benchmark: never run')\n")
    target = tmp_path / "RESULTS.md"
    status = main(["--dir", str(tmp_path), "--output", str(target), "--timeout", "3"])
    assert status == 1
    text = target.read_text()
    assert "| engine.score | 3 | us |" in text
    assert "## fast_bench.py\n\nok" in text
    assert "## broken_bench.py\n\nFAILED (exit 3)" in text
    assert "| half | 1 | s |" in text
    assert "FAILED (exit 124)" in text and "TIMEOUT" in text
    assert "helper.py" not in text
    assert "| cpu |" in text and "| commit |" in text


def test_only_selects_benchmarks(tmp_path) -> None:
    (tmp_path / "a_bench.py").write_text("print('RESULT a=1 x')\n")
    (tmp_path / "b_bench.py").write_text("raise SystemExit(1)\n")
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target), "--only", "a"]) == 0
    assert "b_bench" not in target.read_text()


# The rows of the speed goals' table, as the issue words them: each must stay in `make bench`.
GOALS_TABLE = (
    "hand submit, JSON, p50",
    "hand submit as the phone really sends it (htmx, the sheet fragment back), p50",
    "sheet page, 66 hands, p50",
    "standings page, p50",
    "burst of 40 simultaneous submits, p95, SQLite",
    "burst of 40 simultaneous submits, p95, PostgreSQL",
    "standings rebuild, 200,000 hands, after a game finished (summaries kept)",
    "standings rebuild, 200,000 hands, from nothing (every game summarised)",
    "ratings rebuild, 200,000 hands",
    "a finished game updates ratings, season of 200,000 hands",
    "rules engine, game_score",
    "projector, 40 players (standings panel, a round played), p50, beside the floor GET",
    "hand submits sustained at p95 < 200 ms, per core of the web processes, PostgreSQL",
    "one finished game updates standings and ratings, season of 200,000 hands",
    "one finished game updates standings and ratings, season of 200,000 hands, PostgreSQL",
    "standings rebuild from nothing, 200,000 hands, beside a raw read of them",
    "standings rebuild from nothing, 200,000 hands, beside a raw read of them, PostgreSQL",
    "standings rebuild from nothing, 200,000 hands, the process's first, beside a raw read",
    "standings rebuild from nothing, 200,000 hands, the process's first, beside a raw read,"
    " PostgreSQL",
)


def _fake_benches(tmp_path, values: dict[str, str], leave_out: str = "") -> None:
    """One fake bench per benchmark the goals name, printing `values` (name -> "value unit")
    for its figures and baselines, except `leave_out`."""
    lines: dict[str, list[str]] = {figure.bench: [] for figure in goals.FIGURES}
    for name, value in values.items():
        if name != leave_out:
            lines[name.split(".")[0]].append(f"print('RESULT {name}={value}')")
    for bench, prints in lines.items():
        (tmp_path / f"{bench}_bench.py").write_text("\n".join(prints) + "\n")


def _all_figures(scale: float) -> dict[str, str]:
    """Every figure of the table at `scale` times its goal (below 1 meets the time goals),
    with baselines of 1 ms and full-size seasons."""
    values = {}
    for figure in goals.FIGURES:
        key = figure.key.replace("{n}", str(goals.SEASON))
        value = figure.limit / scale if figure.goal == "at_least" else figure.limit * scale
        values[key] = f"{value} {figure.unit}"
        values[figure.baseline_key(goals.SEASON)] = "1 ms"
        if figure.size_key:
            values[figure.size_key] = f"{figure.size} hands"
    return values


def test_the_runner_lists_every_figure_of_the_goals_table(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://bench@127.0.0.1/none")
    _fake_benches(tmp_path, _all_figures(0.5))
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target), "--strict"]) == 0
    table = target.read_text().split("## Goals", 1)[1]
    for label in GOALS_TABLE:
        row = next(line for line in table.splitlines() if line.startswith(f"| {label} |"))
        assert row.endswith("| **PASS** |"), row
    assert "| hand submit, JSON, p50 | 1 ms | 1 ms (/healthz p50) | 1.0x | <= 2x /healthz |" in (
        table
    )


def test_missed_goals_fail_with_strict_and_show_their_ratio(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://bench@127.0.0.1/none")
    _fake_benches(tmp_path, _all_figures(3))
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target)]) == 0
    assert main(["--dir", str(tmp_path), "--output", str(target), "--strict"]) == 1
    table = target.read_text().split("## Goals", 1)[1]
    assert "| sheet page, 66 hands, p50 | 15 ms | 1 ms (/healthz p50) | 15.0x |" in table
    assert table.count("**FAIL**") == len(goals.FIGURES)


def test_a_figure_that_drops_out_fails_the_run(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://bench@127.0.0.1/none")
    _fake_benches(tmp_path, _all_figures(0.5), leave_out="submit.sqlite.single.htmx.p50")
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target)]) == 1
    row = next(
        line for line in target.read_text().splitlines() if line.startswith(f"| {GOALS_TABLE[1]}")
    )
    assert "MISSING" in row and "PASS" not in row


def test_postgresql_not_configured_is_said_not_passed(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("BENCH_DATABASE_URL", raising=False)
    values = {k: v for k, v in _all_figures(0.5).items() if ".postgresql." not in k}
    _fake_benches(tmp_path, values)
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target)]) == 0
    row = next(line for line in target.read_text().splitlines() if "p95, PostgreSQL |" in line)
    assert "NOT MEASURED (BENCH_DATABASE_URL is not set)" in row and "PASS" not in row


def test_a_small_season_gets_no_verdict(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://bench@127.0.0.1/none")
    values = {
        key.replace(f"{goals.SEASON}_hands", "9600_hands"): value
        for key, value in _all_figures(0.5).items()
    }
    _fake_benches(tmp_path, values)
    target = tmp_path / "RESULTS.md"
    assert main(["--dir", str(tmp_path), "--output", str(target), "--strict"]) == 0
    row = next(
        line for line in target.read_text().splitlines() if line.startswith(f"| {GOALS_TABLE[6]}")
    )
    assert "no verdict: 9,600 measured, the goal is for 200,000" in row


def test_every_goal_names_a_benchmark_that_exists() -> None:
    assert {figure.label for figure in goals.FIGURES} >= set(GOALS_TABLE)
    for figure in goals.FIGURES:
        assert (BENCH_DIR / f"{figure.bench}_bench.py").is_file(), figure


def test_no_bench_module_grows_past_400_lines() -> None:
    for path in BENCH_DIR.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 400, path.name
