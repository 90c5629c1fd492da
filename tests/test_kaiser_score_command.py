"""manage.py kaiser_score: the command agrees with every scored example (the repository's copy) and
refuses cleanly."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.examples import example_cases

ROOT = Path(__file__).resolve().parents[1]
HAND_KEYS = ("number", "dealer", "thrown_in", "made", "delta", "scores", "target",
             "bidder", "side", "bid", "kind", "tricks", "points")  # fmt: skip
TOP_KEYS = ("sides", "scores", "target", "finished", "winner", "reason", "next_dealer")


def run_command(tmp_path: Path, record) -> tuple[str, str | None]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    try:
        call_command("kaiser_score", str(path), stdout=out)
    except CommandError as exc:
        return out.getvalue(), str(exc)
    return out.getvalue(), None


@pytest.mark.parametrize(
    ("name", "case"), example_cases(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_example_through_command(tmp_path: Path, name: str, case: dict) -> None:
    out, error = run_command(tmp_path, case["record"])
    expect = case["expect"]
    if "error" in expect:
        prefix = expect["error"]
        assert error is not None, f"{name}: accepted a record it should refuse"
        assert out == ""
        pattern = re.escape(prefix) + (r"(?!\d)" if prefix[-1].isdigit() else "")
        assert re.search(pattern, error, re.I), error
        return
    assert error is None, error
    got = json.loads(out)
    assert got["format"] == "kaiser-result/1"
    for key in TOP_KEYS:
        assert got[key] == expect[key], key
    assert len(got["hands"]) == len(expect["hands"])
    for want, have in zip(expect["hands"], got["hands"], strict=True):
        for key in HAND_KEYS:
            if key in want:
                assert have[key] == want[key], (want["number"], key)


def test_reads_standard_input_in_a_real_process() -> None:
    record = {
        "seats": ["Ann", "Cat", "Bob", "Dan"],
        "hands": [{"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}],
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "kaiser_score", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["scores"] == [11, -1]
    assert result["next_dealer"] == 1


def test_refusal_exits_non_zero_with_empty_stdout() -> None:
    record = {
        "seats": ["Ann", "Cat", "Bob", "Dan"],
        "hands": [{"bidder": 0, "bid": 8, "tricks": [6, 3], "five_hearts": 0, "three_spades": 1}],
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "kaiser_score", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert "hand 1" in proc.stderr
    assert "tricks" in proc.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ("[1, 2]", "record")],
    ids=["broken-json", "not-an-object"],
)
def test_bad_documents_are_refused(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=message):
        call_command("kaiser_score", str(path), stdout=io.StringIO())


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"nope\.json"):
        call_command("kaiser_score", str(tmp_path / "nope.json"), stdout=io.StringIO())
