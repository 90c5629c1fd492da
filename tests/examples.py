"""The scored examples in ../shared/examples, for tests that run all of them."""

from __future__ import annotations

import json
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "shared" / "examples"


def example_cases() -> list[tuple[str, dict]]:
    files = sorted(EXAMPLES_DIR.glob("*.json"))
    assert files, f"no examples found in {EXAMPLES_DIR}"
    return [(path.stem, json.loads(path.read_text())) for path in files]


def valid_examples() -> list[tuple[str, dict]]:
    return [(name, case) for name, case in example_cases() if "error" not in case["expect"]]
