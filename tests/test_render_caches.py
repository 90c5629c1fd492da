"""The sheet's rows and the standings tables, drawn anew or kept under a key of everything they
are drawn from: what a viewer sees follows a rename, a correction, a confirmation, the
language, the viewer, the sort."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.standings.rebuild import standings_rebuild
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_confirm, hand_correct, hand_record
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0)
SET = HandInput(bidder=1, bid=9, tricks=(6, 2), five_hearts=0, three_spades=1)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def game(club, players, standard_rules, alice):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(game=game, hand=MADE)
    hand_record(game=game, hand=SET)
    return game


def _row(html: str, number: int) -> str:
    match = re.search(rf'<tr [^>]*id="hand-{number}">.*?</tr>', html, re.S)
    assert match, f"no row {number}"
    return match.group(0)


def sheet(client, game, **headers) -> str:
    response = client.get(reverse("game_sheet", args=[game.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_a_kept_row_is_the_row_a_fresh_render_draws(as_bob, game) -> None:
    first = sheet(as_bob, game)
    assert cache.get_many([]) == {}
    again = sheet(as_bob, game)
    assert _row(first, 1) == _row(again, 1) and _row(first, 2) == _row(again, 2)
    cache.clear()
    assert _row(sheet(as_bob, game), 2) == _row(again, 2)


def test_a_seat_renamed_shows_on_the_kept_rows(as_bob, game) -> None:
    """The sheet keeps the names as they were at the table; an admin's edit of a seat shows."""
    assert "Ann" in _row(sheet(as_bob, game), 1)
    seat = game.seats.get(seat=0)
    seat.name = "Annabelle"
    seat.save()
    assert "Annabelle" in _row(sheet(as_bob, game), 1)


def test_a_correction_redraws_its_row(as_alice, game, alice) -> None:
    before = _row(sheet(as_alice, game), 2)
    assert "corrected" not in before
    hand_correct(
        game=game,
        number=2,
        hand=HandInput(bidder=1, bid=9, tricks=(3, 5), five_hearts=1, three_spades=1),
        by=alice,
    )
    after = _row(sheet(as_alice, game), 2)
    assert "corrected" in after and after != before


def test_each_language_keeps_its_own_rows(as_bob, club, players, standard_rules, alice) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(game=game, hand=HandInput(thrown_in=True))
    assert "thrown in" in _row(sheet(as_bob, game), 1)
    french = _row(sheet(as_bob, game, **{"Accept-Language": "fr"}), 1)
    assert "thrown in" not in french
    assert "thrown in" in _row(sheet(as_bob, game), 1)


def test_a_row_waiting_for_confirmation_is_drawn_for_each_viewer(
    as_bob, as_alice, game, club, bob, players
) -> None:
    """The confirm form carries the viewer's CSRF token and seat: never kept; once confirmed,
    the row shows who confirmed it to everyone."""
    club.hands_need_confirmation = True
    club.save()
    players[1].user = bob  # Bob plays Cat's seat (seat 1, the other side of hand 1's bidder)
    players[1].save()
    bobs = _row(sheet(as_bob, game), 1)
    alices = _row(sheet(as_alice, game), 1)
    assert "unconfirmed" in bobs and "unconfirmed" in alices
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', bobs)
    assert token and token.group(1) not in alices
    hand_confirm(game=game, number=1, by=bob)
    confirmed = _row(sheet(as_alice, game), 1)
    assert "unconfirmed" not in confirmed and "csrfmiddlewaretoken" not in confirmed
    assert confirmed == _row(sheet(as_bob, game), 1)


# --- the standings table ------------------------------------------------------------------------


@pytest.fixture
def season_played(club, players, standard_rules, alice):
    from leagues.clubs.services import season_create

    season = season_create(club=club, name="Fall", starts_on=datetime.date(2026, 9, 1))
    game = game_start(
        seats=players, rules=standard_rules, club=club, season=season, created_by=alice
    )
    for _ in range(6):
        hand_record(
            game=game,
            hand=HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0),
        )
    standings_rebuild(season_id=season.pk)
    return season


def _standings(client, club, **params) -> str:
    response = client.get(reverse("standings", args=[club.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def _table(html: str) -> str:
    return re.search(r"<table.*?</table>", html, re.S).group(0)


def test_the_standings_table_shows_a_renamed_player(as_bob, club, players, season_played) -> None:
    assert "Ann" in _table(_standings(as_bob, club))
    players[0].name = "Annabelle"
    players[0].save()
    assert "Annabelle" in _table(_standings(as_bob, club))


def test_the_standings_table_follows_sort_and_language(as_bob, club, season_played) -> None:
    by_name = _table(_standings(as_bob, club, sort="player"))
    by_name_desc = _table(_standings(as_bob, club, sort="-player"))
    assert by_name != by_name_desc
    assert by_name.index("Ann") < by_name.index("Dan")
    assert by_name_desc.index("Dan") < by_name_desc.index("Ann")
    english = _table(_standings(as_bob, club))
    assert english == _table(_standings(as_bob, club))
    response = as_bob.get(reverse("standings", args=[club.slug]), headers={"Accept-Language": "fr"})
    assert _table(response.content.decode()) != english


def test_the_standings_page_reads_its_rows_hit_or_miss(as_bob, club, season_played) -> None:
    """A kept content is found by the rows read now (their values are its key): a hit reads
    them too, and draws nothing (the miss reads them again as rows for django-tables2)."""
    from django.db import connection

    with CaptureQueriesContext(connection) as miss:
        first = _standings(as_bob, club)
    with CaptureQueriesContext(connection) as hit:
        again = _standings(as_bob, club)
    standings = [q for q in hit.captured_queries if "leagues_playerstanding" in q["sql"]]
    assert len(standings) == 1
    assert len(hit) == len(miss) - 1
    assert _table(first) == _table(again)


def test_an_outsider_gets_no_kept_table(as_bob, club, charlie, season_played) -> None:
    _standings(as_bob, club)
    response = client_for(charlie).get(reverse("standings", args=[club.slug]))
    assert response.status_code == 404
