"""The standings page's content kept in the cache (leagues/standings/page_content.py): what a
viewer is shown from the cache is what a fresh draw shows, for every identity, and each kind of
change shows on the next load without anything being cleared."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Club, Season
from leagues.clubs.player_services import player_rename
from leagues.seasons import season_close, season_update
from leagues.standings import rebuild
from leagues.standings.models import PlayerStanding, StandingsSnapshot
from tests.conftest import client_for
from tests.leagues_helpers import GAME_1, night_held, play

pytestmark = pytest.mark.django_db

IDENTITIES = ["alice", "bob", "charlie", "ex_member", None]


@pytest.fixture
def season(club, players) -> Season:
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    play(club, season, [ann, cat, bob, dan], GAME_1)
    rebuild.standings_rebuild(season_id=season.pk)
    return season


def _public(club: Club) -> None:
    club.standings_public = True
    club.save(update_fields=["standings_public"])


def _page(user, club: Club, query: str = "", **headers: str) -> tuple[int, str]:
    answer = client_for(user).get(reverse("standings", args=[club.slug]) + query, headers=headers)
    return answer.status_code, answer.content.decode()


def _without_tokens(html: str) -> str:
    # Each answer masks the CSRF secret anew: compare the pages around it.
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', r"\1", html)


@pytest.mark.parametrize("who", IDENTITIES)
@pytest.mark.parametrize("public", [False, True])
def test_from_the_cache_is_what_a_fresh_draw_shows(users, club, season, who, public) -> None:
    if public:
        _public(club)
    # "updated 3 h ago" reads the same from one request to the next ("4 s ago" would not).
    StandingsSnapshot.objects.filter(season=season).update(
        computed_at=timezone.now() - datetime.timedelta(hours=3)
    )
    for query in ("", "?sort=-games", f"?season={season.pk}&min_games=1"):
        cache.clear()
        fresh = _page(users[who], club, query)
        again = _page(users[who], club, query)  # from the cache
        assert again[0] == fresh[0]
        assert _without_tokens(again[1]) == _without_tokens(fresh[1])
    expected = 200 if who in ("alice", "bob") or public else (302 if who is None else 404)
    assert fresh[0] == expected


def test_every_change_shows_on_the_next_load(alice, bob, club, season, players) -> None:
    ann, cat, bob_player, dan = players
    _status, page = _page(alice, club)
    assert "Ann" in page and "2026" in page

    player_rename(player=ann, name="Annabelle", by=alice, action="players_manage")
    assert "Annabelle" in _page(alice, club)[1]

    play(club, season, [ann, cat, bob_player, dan], GAME_1)
    rebuild.standings_rebuild(season_id=season.pk)
    assert PlayerStanding.objects.get(season=season, player=ann).games == 2
    assert re.search(r"2 games counted", _page(alice, club)[1])

    season_update(
        season=season,
        by=alice,
        name="Hiver 2026",
        starts_on=season.starts_on,
        ends_on=None,
        min_nights=3,
    )
    page = _page(alice, club)[1]
    assert "Hiver 2026" in page and "Not yet ranked: fewer than 3 nights" in page

    season.refresh_from_db()
    season_close(season=season, by=alice)
    assert "closed-mark" in _page(alice, club)[1]

    Season.objects.create(club=club, name="2027", starts_on=datetime.date(2027, 9, 1))
    assert "2027" in _page(alice, club, f"?season={season.pk}")[1]


def test_the_owner_s_sharing_box_stays_the_owner_s(alice, bob, club, season) -> None:
    _public(club)
    owner = _page(alice, club)[1]
    member = _page(bob, club)[1]  # the same rows, the same query, another role
    assert 'id="share-page"' in owner
    assert 'id="share"' not in member
    club.standings_public = False
    club.save(update_fields=["standings_public"])
    assert 'id="share-page"' not in _page(alice, club)[1]  # "turn on public standings" instead


def test_each_language_and_the_table_alone(alice, club, season) -> None:
    english = _page(alice, club)[1]
    client = client_for(alice)
    client.cookies["django_language"] = "fr"
    french = client.get(reverse("standings", args=[club.slug])).content.decode()
    assert "Attendance" in english and "Présence" in french
    status, table = _page(
        alice, club, "?sort=-games", **{"HX-Request": "true", "HX-Target": "standings-table"}
    )
    assert status == 200
    assert table.lstrip().startswith('<div id="standings-table">')
    assert "<html" not in table


def test_the_second_load_draws_nothing(alice, club, season, monkeypatch) -> None:
    """What the cache is for: the same content for the same rows is drawn once."""
    from leagues.standings import views

    drawn: list[int] = []
    draw = views._standings_tables

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(1)
        return draw(*args, **kwargs)

    monkeypatch.setattr(views, "_standings_tables", counted)
    StandingsSnapshot.objects.filter(season=season).update(
        computed_at=timezone.now() - datetime.timedelta(hours=3)
    )
    cache.clear()
    first, second = _page(alice, club), _page(alice, club)
    assert len(drawn) == 1 and first[0] == second[0] == 200
    player_rename(
        player=season.club.players.get(name="Dan"), name="Daniel", by=alice, action="players_manage"
    )
    assert "Daniel" in _page(alice, club)[1]
    assert len(drawn) == 2


def test_a_night_held_shows_in_the_attendance_on_the_next_load(alice, club, season) -> None:
    names = ("Ann", "Bob", "Cat", "Dan")
    night_held(club, season, names, datetime.date(2026, 10, 2))
    rebuild.standings_rebuild(season_id=season.pk)
    assert "1 club night so far this season" in _page(alice, club)[1]
    night_held(club, season, names, datetime.date(2026, 10, 9))
    rebuild.standings_rebuild(season_id=season.pk)
    assert "2 club nights so far this season" in _page(alice, club)[1]


@pytest.mark.parametrize("sort", [".", "a.b", "player.name,-games", "-.", "games.,"])
def test_a_sort_with_a_dot_is_an_unknown_column(alice, club, season, sort, recwarn) -> None:
    """No column's name holds a dot: such a sort is ignored as any unknown column is (the
    known columns beside it still sort), never read as an accessor path."""
    unknown = ",".join(a if "." not in a else "nosuch" for a in sort.split(","))
    pages = []
    for query in (sort, unknown):
        cache.clear()
        status, page = _page(alice, club, f"?sort={query}")
        assert status == 200
        pages.append(re.sub(r'name="next" value="[^"]*"', "", _without_tokens(page)))
    assert pages[0] == pages[1]
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]
