import pytest
from django.core.management import call_command

from leagues.clubs.models import Club
from scorecards.models import Game

pytestmark = pytest.mark.django_db


def test_demo_club_builds_once_and_is_safe_to_rerun(capsys) -> None:
    call_command("demo_club")
    call_command("demo_club")
    out = capsys.readouterr().out
    assert "already there" in out
    assert "password 'kaiser-demo'" in out
    club = Club.objects.get(slug="demo")
    assert club.players.count() == 12
    games = Game.objects.filter(club=club)
    assert games.filter(status="finished").count() == 3
    assert games.filter(status="in_progress").count() == 1


def test_demo_club_prints_the_address_make_run_serves(capsys) -> None:
    call_command("demo_club", base_url="http://127.0.0.1:8101")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8101/clubs/demo/" in out
    assert ":8000" not in out


def test_make_run_passes_host_and_port_to_the_demo_club() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    planned = subprocess.run(
        ["make", "-n", "run", "HOST=127.0.0.1", "PORT=8101", f"PYTHON={sys.executable}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "demo_club --base-url http://127.0.0.1:8101" in planned
    assert "runserver 127.0.0.1:8101" in planned
