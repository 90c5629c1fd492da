#!/usr/bin/env python3
"""The 40-table night (bench/load_night.py) as a benchmark of `make bench`: 160 phones, a hand
every 90 s per table compressed 90 times, a burst of 40 at once, every row counted; its figures
(p50/p95 of the submits, in and outside the burst, counts) land in bench/RESULTS.md. The night
measures its own server time; the `/healthz` baseline of the same server is in submit_bench."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_night import main

HANDS = "4" if os.environ.get("BENCH_QUICK") == "1" else "10"

if __name__ == "__main__":
    sys.exit(main(["--tables", "40", "--hands", HANDS, "--speedup", "90", "--time-limit", "300"]))
