import pytest
from django.core.management import call_command

from leagues.models import Club
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
