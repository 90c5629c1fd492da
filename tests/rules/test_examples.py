"""Every scored example (the repository's copy, lost-heir/ included) through `record_score`,
compared the way the upstream check_examples.py compares them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorecards.rules import KaiserError, record_score
from tests.examples import EXAMPLES_DIR, example_files, upstream_examples

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


def test_the_copy_is_in_step_with_upstream() -> None:
    """Where the upstream examples are beside the project (CI), the copy holds exactly the same
    records and expectations; a clone without them runs the copy, which must be whole."""
    own = {path.relative_to(EXAMPLES_DIR): path for path in example_files()}
    assert (EXAMPLES_DIR / "README.md").is_file()
    assert any(name.parts[0] == "lost-heir" for name in own)
    upstream = upstream_examples()
    if upstream is None:
        assert len(own) >= 33
        return
    theirs = {path.relative_to(upstream): path for path in sorted(upstream.rglob("*.json"))}
    assert sorted(own) == sorted(theirs), "copy upstream's examples into tests/data/examples"
    for name, path in theirs.items():
        mine = json.loads(own[name].read_text(encoding="utf-8"))
        assert mine == json.loads(path.read_text(encoding="utf-8")), f"{name} differs upstream"


def test_upstream_is_found_through_the_setting(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "examples").mkdir()
    monkeypatch.setenv("KAISER_UPSTREAM", str(tmp_path))
    assert upstream_examples() == tmp_path / "examples"
    monkeypatch.setenv("KAISER_UPSTREAM", str(tmp_path / "nowhere"))
    assert upstream_examples() is None
