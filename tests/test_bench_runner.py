"""`make bench` (bench/run_all.py): finds every *_bench.py, collects its RESULT lines, reports a
failing or hanging benchmark, and writes RESULTS.md."""

from __future__ import annotations

from bench.run_all import main, parse_results


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
