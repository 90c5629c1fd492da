"""docs/rules.md and docs/game-record.md say what the engine does: every setting with its range
and default, every preset, every table habit, and the record example scores as shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorecards.rules import (
    ANNOUNCED,
    KITTY,
    MISDEALS,
    PASSING,
    presets_catalogue,
    record_score,
    settings_catalogue,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
RECORD = (DOCS / "game-record.md").read_text(encoding="utf-8")


def words(value: object) -> str:
    return {None: "none", True: "on", False: "off"}.get(value, str(value))  # type: ignore[arg-type]


@pytest.mark.parametrize("setting", settings_catalogue(), ids=lambda s: s.key)
def test_every_setting_has_its_row(setting) -> None:
    row = next((line for line in RULES.splitlines() if line.startswith(f"| `{setting.key}` |")), "")
    assert row, f"docs/rules.md has no row for {setting.key}"
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[2].split(" (")[0] == words(setting.default)
    if setting.minimum is not None:
        assert cells[3].startswith(f"{setting.minimum} to {setting.maximum}")


@pytest.mark.parametrize("preset", presets_catalogue(), ids=lambda p: p.key)
def test_every_preset_has_its_row(preset) -> None:
    assert f"| `{preset.key}` | {preset.name} |" in RULES


@pytest.mark.parametrize("value", [*MISDEALS, *PASSING, *KITTY, *ANNOUNCED])
def test_every_habit_value_is_defined(value: str) -> None:
    assert f"`{value}`" in RECORD


def test_the_record_example_scores_as_shown() -> None:
    blocks = re.findall(r"```json\n(.*?)```", RECORD, re.S)
    record, result = (json.loads(block) for block in blocks)
    record["hands"] = record["hands"][:1]
    assert record_score(record) == result
