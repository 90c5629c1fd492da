"""The figures the speed work is judged by, each beside its baseline and its goal.

`bench/run_all.py` collects every `RESULT` line of the benchmarks and, from them, writes this
table at the top of bench/RESULTS.md: the measured value, the baseline of the same run (the
`/healthz` p50 beside which the figure was taken, or the floor view's: the least a signed-in
page or form post does, see bench/floor), the ratio, the goal and a verdict. A figure
whose benchmark ran but did not print it is MISSING (the run fails), so a figure cannot drop
out unnoticed; a PostgreSQL figure without BENCH_DATABASE_URL is NOT MEASURED, never a pass.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

PASS, FAIL = "PASS", "FAIL"
MISSING = "MISSING"
NOT_MEASURED = "NOT MEASURED (BENCH_DATABASE_URL is not set)"
NOT_RUN = "not run"
# The figure's yardstick when it has none of its own (in-process work, no server in between).
RUN_BASELINE = "submit.sqlite.single.baseline_healthz.p50"


@dataclass(frozen=True)
class Figure:
    """One figure of the table.

    `key` is the RESULT name; `{n}` in it stands for the size of the season in hands (the
    largest one measured is taken). `goal` is "ratio" (at most `limit` times the baseline),
    "at_most" or "at_least" (`limit` in the figure's own unit). `size` is the size the goal is
    about: a smaller run (BENCH_QUICK) gets no verdict. `size_key` names the RESULT giving the
    size when `{n}` does not."""

    label: str
    bench: str
    key: str
    goal: str
    limit: float
    unit: str
    baseline: str = RUN_BASELINE
    postgres: bool = False
    size: int = 0
    size_key: str = ""

    def baseline_key(self, size: int | None) -> str:
        """The baseline's RESULT name, for a season of `size` hands when it names one."""
        return self.baseline.replace("{n}", str(size or 0))

    def yardstick(self) -> str:
        """The baseline's name: the floor view it was measured beside, the raw read of the
        season's hands, or /healthz."""
        if self.baseline.endswith(".raw_read"):
            return "raw read"
        if ".floor_post." in self.baseline:
            return "floor POST"
        if ".floor_get." in self.baseline:
            return "floor GET"
        return "/healthz"

    def goal_text(self) -> str:
        if self.goal == "ratio":
            return f"<= {self.limit:g}x {self.yardstick()}"
        sign = "<=" if self.goal == "at_most" else ">="
        return f"{sign} {self.limit:,g} {self.unit}"

    def baseline_text(self) -> str:
        """What the baseline is, in a few words."""
        what = "40 x /healthz at once, p95" if "burst40" in self.baseline else "/healthz p50"
        if self.yardstick() == "raw read":
            return "raw read of every hand, best of five, in-process"
        if self.yardstick() != "/healthz":
            what = f"{self.yardstick()} p50"
        if self.baseline.startswith("standings."):
            what += ", in-process"
        elif self.baseline == RUN_BASELINE and self.bench != "submit":
            what += " of the submit bench"
        return what


def _season_figures(vendor: str, label: str) -> tuple[Figure, ...]:
    """A season's figures on one database. Beside the rebuilds: the background thread's work
    when a game finishes (its season's standings by that game alone, and the club's ratings
    with it), whatever the season's size; and the rebuild from nothing beside a raw read of
    every hand of the season, in the same process: once it has run (best of five in turns),
    and the process's first (which also pays one-off costs)."""
    season = f"standings.{vendor}.{{n}}_hands"

    def figure(text: str, name: str, limit: float, unit: str, baseline: str = "") -> Figure:
        return Figure(
            f"{text}{label}",
            "standings",
            f"{season}.{name}",
            "at_most",
            limit,
            unit,
            baseline=baseline or f"standings.{vendor}.baseline_healthz.p50",
            postgres=vendor == "postgresql",
            size=SEASON,
        )

    raw_read = f"{season}.raw_read"
    return (
        figure(
            "standings rebuild, 200,000 hands, after a game finished (summaries kept)",
            "standings_rebuild_one_changed",
            1.5,
            "s",
        ),
        figure(
            "standings rebuild, 200,000 hands, from nothing (every game summarised)",
            "standings_rebuild_first",
            1.5,
            "s",
        ),
        figure("ratings rebuild, 200,000 hands", "ratings_rebuild_first", 3, "s"),
        figure(
            "a finished game updates ratings, season of 200,000 hands",
            "ratings_one_game",
            0.05,
            "s",
        ),
        figure(
            "one finished game updates standings and ratings, season of 200,000 hands",
            "one_game_update",
            50,
            "ms",
        ),
        figure(
            "standings rebuild from nothing, 200,000 hands, beside a raw read of them",
            "rebuild_from_nothing_ratio",
            3,
            "x raw read",
            raw_read,
        ),
        figure(
            "standings rebuild from nothing, 200,000 hands, the process's first, beside a raw read",
            "rebuild_from_nothing_first_ratio",
            3,
            "x raw read",
            raw_read,
        ),
    )


SEASON = 200_000
FIGURES: tuple[Figure, ...] = (
    Figure(
        "hand submit, JSON, p50",
        "submit",
        "submit.sqlite.single.hand.p50",
        "ratio",
        2,
        "ms",
        baseline="submit.sqlite.single.baseline_healthz.p50",
    ),
    Figure(
        "hand submit as the phone really sends it (htmx, the sheet fragment back), p50",
        "submit",
        "submit.sqlite.single.htmx.p50",
        "ratio",
        3,
        "ms",
        baseline="submit.sqlite.single.baseline_healthz.p50",
    ),
    Figure(
        "sheet page, 66 hands, p50",
        "http",
        "http.sqlite.single.game_sheet.p50",
        "ratio",
        5,
        "ms",
        baseline="http.sqlite.single.baseline_healthz.p50",
        size=66,
        size_key="http.sqlite.game_sheet.hands",
    ),
    Figure(
        "standings page, p50",
        "http",
        "http.sqlite.single.standings_page.p50",
        "ratio",
        5,
        "ms",
        baseline="http.sqlite.single.baseline_healthz.p50",
    ),
    # The same figures beside the floor views (bench/floor): a signed-in form post with one
    # INSERT, a signed-in page with one SELECT, through the same server in the same run. Each is
    # the ratio the bench prints (`ratio_floor_p50`), so that each row has a figure of its own.
    Figure(
        "hand submit, JSON, p50, beside the floor POST",
        "submit",
        "submit.sqlite.single.hand.ratio_floor_p50",
        "at_most",
        1.5,
        "x floor POST",
        baseline="submit.sqlite.single.floor_post.p50",
    ),
    Figure(
        "hand submit as the phone really sends it (htmx), p50, beside the floor POST",
        "submit",
        "submit.sqlite.single.htmx.ratio_floor_p50",
        "at_most",
        2,
        "x floor POST",
        baseline="submit.sqlite.single.floor_post.p50",
    ),
    Figure(
        "sheet page, 66 hands, p50, beside the floor GET",
        "http",
        "http.sqlite.single.game_sheet.ratio_floor_p50",
        "at_most",
        2,
        "x floor GET",
        baseline="http.sqlite.single.floor_get.p50",
        size=66,
        size_key="http.sqlite.game_sheet.hands",
    ),
    Figure(
        "standings page, p50, beside the floor GET",
        "http",
        "http.sqlite.single.standings_page.ratio_floor_p50",
        "at_most",
        2,
        "x floor GET",
        baseline="http.sqlite.single.floor_get.p50",
    ),
    Figure(
        "projector, 40 players (standings panel, a round played), p50, beside the floor GET",
        "http",
        "http.sqlite.single.projector_standings.ratio_floor_p50",
        "at_most",
        2,
        "x floor GET",
        baseline="http.sqlite.single.floor_get.p50",
    ),
    Figure(
        "burst of 40 simultaneous submits, p95, SQLite",
        "submit",
        "submit.sqlite.burst40.hand.p95",
        "at_most",
        150,
        "ms",
        baseline="submit.sqlite.burst40.baseline_healthz.p95",
    ),
    Figure(
        "burst of 40 simultaneous submits, p95, PostgreSQL",
        "submit",
        "submit.postgresql.burst40.hand.p95",
        "at_most",
        150,
        "ms",
        baseline="submit.postgresql.burst40.baseline_healthz.p95",
        postgres=True,
    ),
    # Open-loop steps of hand submits: the highest rate held at p95 < 200 ms, over the cores
    # gunicorn's processes used at that rate (their CPU seconds per wall second).
    Figure(
        "hand submits sustained at p95 < 200 ms, per core of the web processes, PostgreSQL",
        "capacity",
        "capacity.postgresql.per_core",
        "at_least",
        20,
        "hands/s per core",
        baseline="capacity.postgresql.baseline_healthz.p50",
        postgres=True,
    ),
    Figure(
        "rules engine, game_score",
        "engine",
        "engine.game_score.hands_per_s",
        "at_least",
        250_000,
        "hands/s",
    ),
    *_season_figures("sqlite", ""),
    *_season_figures("postgresql", ", PostgreSQL"),
    Figure(
        "sheet poll while nothing changed (answered from the shared cache), p50",
        "poll",
        "poll.sqlite.single.unchanged.p50",
        "ratio",
        2,
        "ms",
        baseline="poll.sqlite.single.baseline_healthz.p50",
    ),
)

TIME_UNITS = {"s": 1000.0, "ms": 1.0, "us": 0.001, "µs": 0.001}


@dataclass(frozen=True)
class Row:
    figure: Figure
    value: float | None
    unit: str
    baseline: float | None
    baseline_unit: str
    size: int | None
    verdict: str

    @property
    def ratio(self) -> float | None:
        """The figure over its baseline, when both are times; a ratio the bench printed itself
        (unit "x …") as it is."""
        if self.value is not None and self.unit.startswith("x "):
            return self.value
        if self.value is None or not self.baseline:
            return None
        if self.unit not in TIME_UNITS or self.baseline_unit not in TIME_UNITS:
            return None
        return self.value * TIME_UNITS[self.unit] / (self.baseline * TIME_UNITS[self.baseline_unit])


def _lookup(figure: Figure, results: Mapping[str, tuple[float, str]]) -> tuple:
    """(value, unit, size) of `figure` in `results`; value None when absent."""
    if "{n}" not in figure.key:
        value, unit = results.get(figure.key, (None, ""))
        size = results.get(figure.size_key, (None, ""))[0] if figure.size_key else None
        return value, unit, None if size is None else int(size)
    pattern = re.compile(re.escape(figure.key).replace(re.escape("{n}"), r"(\d+)") + "$")
    found = [(int(m[1]), name) for name in results if (m := pattern.match(name))]
    if not found:
        return None, "", None
    size, name = max(found)
    value, unit = results[name]
    return value, unit, size


def judge(
    results: Mapping[str, tuple[float, str]], benches_run: set[str], postgres_set: bool
) -> list[Row]:
    """One row per figure of FIGURES, in order, with its verdict."""
    rows = []
    for figure in FIGURES:
        value, unit, size = _lookup(figure, results)
        baseline, baseline_unit = results.get(figure.baseline_key(size), (None, ""))
        row = Row(figure, value, unit, baseline, baseline_unit, size, "")
        if figure.bench not in benches_run:
            verdict = NOT_RUN
        elif value is None:
            verdict = NOT_MEASURED if figure.postgres and not postgres_set else MISSING
        elif figure.size and size != figure.size:
            verdict = f"no verdict: {size or 0:,} measured, the goal is for {figure.size:,}"
        elif figure.goal == "ratio":
            ratio = row.ratio
            verdict = MISSING if ratio is None else (PASS if ratio <= figure.limit else FAIL)
        elif figure.goal == "at_most":
            verdict = PASS if value <= figure.limit else FAIL
        else:
            verdict = PASS if value >= figure.limit else FAIL
        rows.append(Row(figure, value, unit, baseline, baseline_unit, size, verdict))
    return rows


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if math.isinf(value):
        return "never"
    return f"{value:,.4g} {unit}".strip() if abs(value) < 10_000 else f"{value:,.0f} {unit}"


def summary(rows: list[Row]) -> list[str]:
    """The table as Markdown lines."""
    out = [
        "| figure | measured | baseline (same run) | ratio | goal | verdict |",
        "|---|---:|---:|---:|---|---|",
    ]
    for row in rows:
        figure = row.figure
        base = f"{_number(row.baseline, row.baseline_unit)} ({figure.baseline_text()})"
        ratio = f"{row.ratio:,.1f}x" if row.ratio is not None else "—"
        verdict = row.verdict if row.verdict not in (PASS, FAIL) else f"**{row.verdict}**"
        out.append(
            f"| {figure.label} | {_number(row.value, row.unit)} | {base} | {ratio} | "
            f"{figure.goal_text()} | {verdict} |"
        )
    return out


def failed(rows: list[Row]) -> list[Row]:
    """Rows whose benchmark ran but did not print them (a broken or silently shrunk bench)."""
    return [row for row in rows if row.verdict == MISSING]
