"""The rules engine is plain Python: importing and using it loads no Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import sys
import scorecards.rules as r
r.record_score({"seats": ["A", "B", "C", "D"], "hands": [
    {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}]})
loaded = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(",".join(loaded))
"""


def test_engine_imports_no_django() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == ""
