"""The French catalogue is complete, compiled, and covers every string in the code."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ["kaiser_league", "leagues", "scorecards", "templates", "manage.py"]


def po_entries(path: Path) -> list[dict[str, object]]:
    """Entries of a .po file as {"msgid", "msgid_plural", "msgstr": [..], "fuzzy"} dicts."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, object] = {"msgstr": [], "fuzzy": False}
        current = None
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fields["fuzzy"] = True
            elif line.startswith("#~"):
                fields["obsolete"] = True
            elif match := re.match(
                r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line
            ):
                current = match.group(1)
                value = match.group(2)
                if current.startswith("msgstr"):
                    fields["msgstr"].append(value)  # type: ignore[union-attr]
                else:
                    fields[current] = value
            elif line.startswith('"') and current:
                if current.startswith("msgstr"):
                    fields["msgstr"][-1] += line[1:-1]  # type: ignore[index]
                else:
                    fields[current] = str(fields[current]) + line[1:-1]
        if "msgid" in fields and fields["msgid"] and not fields.get("obsolete"):
            entries.append(fields)
    return entries


def untranslated(path: Path) -> list[str]:
    return [
        str(e["msgid"])
        for e in po_entries(path)
        if e["fuzzy"] or not all(e["msgstr"])  # type: ignore[arg-type]
    ]


def test_every_french_string_is_translated() -> None:
    assert untranslated(PO) == []


def test_compiled_catalogue_matches_the_po_file() -> None:
    with MO.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    stale = []
    for entry in po_entries(PO):
        msgid = str(entry["msgid"]).encode().decode("unicode_escape").encode("latin-1").decode()
        if "msgid_plural" in entry or "msgctxt" in entry:
            continue
        want = str(entry["msgstr"][0]).encode().decode("unicode_escape")  # type: ignore[index]
        want = want.encode("latin-1").decode()
        if catalogue.gettext(msgid) != want:
            stale.append(msgid)
    assert stale == [], "run `make messages`: the .mo file is older than the .po file"


def test_catalogue_covers_every_string_in_the_code(tmp_path: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        target = tmp_path / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    missing = untranslated(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po")
    assert missing == [], "new strings without a French translation: run `make messages`"
