"""deploy/drill.py runs deploy/README.md's own commands in a fresh Debian root (as root, with
debootstrap: minutes, so not here). What is checked here is that it reads the README as a
volunteer does: every numbered install step, in order, each with the commands it shows."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("drill", ROOT / "deploy" / "drill.py")
assert spec and spec.loader
drill = importlib.util.module_from_spec(spec)
spec.loader.exec_module(drill)


def test_every_numbered_install_step_is_read_in_order_with_its_commands() -> None:
    steps = drill.readme_steps((ROOT / "deploy" / "README.md").read_text())
    numbers = [title.split(".")[0] for title, _ in steps]
    assert numbers == [str(n) for n in range(1, 11)] + ["backups"]
    scripts = dict((title.split(".")[0], script) for title, script in steps)
    assert "apt-get install -y" in scripts["1"] and "postgresql" in scripts["1"]
    assert "pip install --require-hashes -r requirements/prod.txt" in scripts["4"]
    assert scripts["7"] == "make release"
    assert "createsuperuser" in scripts["9"]
    assert scripts["backups"].startswith("install -d -m 0700 -o kaiser -g kaiser")


def test_the_stand_ins_are_only_what_a_chroot_cannot_be() -> None:
    script, notes = drill.adapt("2.", f"git clone {drill.CLONE_URL} /srv/kaiser-league")
    assert script == "git clone /src/kaiser-league /srv/kaiser-league" and notes
    untouched = "sudo -u postgres createdb --owner kaiser kaiser_league"
    assert drill.adapt("3.", untouched) == (untouched, "")


def test_step_five_edits_the_values_the_readme_names() -> None:
    edits = drill.env_edit("s3cret")
    assert "SECRET_KEY=s3cret" in edits and "localhost" in edits
    assert f"127.0.0.1:{drill.DB_PORT}" in edits and f"127.0.0.1:{drill.REDIS_PORT}" in edits
