"""Every scored example (the repository's copy, lost-heir/ included) through `record_score`,
compared the way the upstream check_examples.py compares them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorecards.rules import KaiserError, record_score
from tests.examples import example_files

CASES = example_files()

# The keys check_examples.py compares.
HAND_KEYS = (
    "number",
    "dealer",
    "thrown_in",
    "made",
    "delta",
    "scores",
    "target",
    "bidder",
    "side",
    "bid",
    "kind",
    "tricks",
    "points",
)
TOP_KEYS = ("sides", "scores", "target", "finished", "winner", "reason", "next_dealer")


def names_prefix(message: str, prefix: str) -> bool:
    """As check_examples.py: `hand 7` names hand 7, not hand 70."""
    pattern = re.escape(prefix) + (r"(?!\d)" if prefix[-1].isdigit() else "")
    return re.search(pattern, message, re.IGNORECASE) is not None


def test_examples_are_there() -> None:
    assert len(CASES) >= 33
    assert any(case.parent.name == "lost-heir" for case in CASES)


@pytest.mark.parametrize("path", CASES, ids=[case.stem for case in CASES])
def test_example(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(KaiserError) as caught:
            record_score(case["record"])
        assert names_prefix(str(caught.value), expect["error"]), str(caught.value)
        return
    got = record_score(case["record"])
    json.dumps(got)  # the result is JSON as it stands
    for key in TOP_KEYS:
        assert got[key] == expect[key], key
    assert len(got["hands"]) == len(expect["hands"])
    for want, have in zip(expect["hands"], got["hands"], strict=True):
        for key in HAND_KEYS:
            if key in want:
                assert have.get(key) == want[key], f"hand {want['number']} {key}"


def test_prefix_matching_is_exact_about_numbers() -> None:
    assert names_prefix("hand 7: bid is missing", "hand 7")
    assert not names_prefix("hand 70: bid is missing", "hand 7")
    assert names_prefix("rules: min_bid must be a whole number", "rules")
