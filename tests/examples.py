"""The scored examples the tests run: the repository's own copy in tests/data/examples (with its
lost-heir/ folder), kept in step with the upstream examples by tests/rules/test_examples.py."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent / "data" / "examples"


def example_files() -> list[Path]:
    """Every example file, lost-heir/ included, in a stable order."""
    return sorted(EXAMPLES_DIR.rglob("*.json"))


def example_cases() -> list[tuple[str, dict]]:
    files = example_files()
    assert files, f"no examples found in {EXAMPLES_DIR}"
    return [(path.stem, json.loads(path.read_text(encoding="utf-8"))) for path in files]


def valid_examples() -> list[tuple[str, dict]]:
    return [(name, case) for name, case in example_cases() if "error" not in case["expect"]]


def upstream_examples() -> Path | None:
    """The upstream examples folder when it is beside the project: `KAISER_UPSTREAM` if set,
    else `[tool.kaiser-league] upstream` of pyproject.toml, relative to the project root."""
    root = Path(__file__).resolve().parents[1]
    upstream = os.environ.get("KAISER_UPSTREAM")
    if upstream is None:
        config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
        upstream = config["tool"]["kaiser-league"]["upstream"]
    folder = (root / upstream / "examples").resolve()
    return folder if folder.is_dir() else None
