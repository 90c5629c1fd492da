"""A tournament night that wants its hands confirmed: its games count for the season only once
every hand is confirmed, even where the club itself does not ask for confirmation."""

from __future__ import annotations

import datetime
import random

import pytest

from leagues.clubs.models import Season
from leagues.demo import demo_game_play
from leagues.standings import rebuild as services
from leagues.standings.derived import counted_games_qs
from leagues.standings.models import PlayerStanding
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.models import Game
from scorecards.services import hand_confirm, seat_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_table(club):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    night = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        hands_need_confirmation=True,
        round_end="target",  # the table plays its game to the end
        season=season,
    )
    for i in range(4):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    game = round_draw(tournament=night).tables[0].game
    demo_game_play(game, random.Random(7))
    game.refresh_from_db()
    assert game.is_finished and not club.hands_need_confirmation
    return season, game


def test_unconfirmed_tournament_game_does_not_count_until_confirmed(
    club, finished_table, django_capture_on_commit_callbacks
):
    season, game = finished_table
    assert not Game.objects.filter(pk=game.pk).counted().exists()
    assert Game.objects.filter(pk=game.pk).awaiting_confirmation().exists()
    assert list(counted_games_qs(club, season)) == []
    services.standings_rebuild(season_id=season.pk)
    assert not PlayerStanding.objects.filter(season=season).exists()

    with django_capture_on_commit_callbacks(execute=True):
        # A phone of each side claimed its seat; the side that did not bid confirms.
        seat_claim(game=game, seat=0, phone="north")
        seat_claim(game=game, seat=1, phone="east")
        for hand in game.hands.all():
            phone = "north" if hand.bidder is not None and hand.bidder % 2 else "east"
            hand_confirm(game=game, number=hand.number, phone=phone)
    game.refresh_from_db()
    assert Game.objects.filter(pk=game.pk).counted().exists()
    assert not Game.objects.filter(pk=game.pk).awaiting_confirmation().exists()
    assert list(counted_games_qs(club, season)) == [game]
    # The last confirmation of a finished game queued the rebuild (eager here).
    assert PlayerStanding.objects.filter(season=season).count() == 4


def test_ordinary_games_of_the_club_still_count_without_confirmation(
    club, players, standard_rules, finished_table
):
    from scorecards.services import game_start

    season, _tournament_game = finished_table
    game = game_start(seats=players, rules=standard_rules, club=club, season=season)
    demo_game_play(game, random.Random(3))
    game.refresh_from_db()
    assert list(counted_games_qs(club, season)) == [game]
