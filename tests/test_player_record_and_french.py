"""A player's page lists each game from the player's seat (partner, opponents, the side's score,
won / lost / abandoned); club tables and exports in French use French numbers; names sort by
the Unicode collation in lists, tables and exports; a signed-out visitor meets the login page
and nobody meets Django's debug pages."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild as services
from leagues.standings import selectors
from leagues.standings.models import PlayerRating
from scorecards.models import Game, GameStatus
from tests.conftest import client_for
from tests.leagues_helpers import two_games
from tests.player_page_queries import PLAYER_PAGE_QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def played(club, season, players):
    games = two_games(club, season, {p.name: p for p in players})
    services.standings_rebuild(season_id=season.pk)
    services.ratings_rebuild(club_id=club.pk)
    return games


def _ann(players):
    return next(p for p in players if p.name == "Ann")


@pytest.mark.parametrize(
    ("who", "status"), [("alice", 200), ("bob", 200), ("charlie", 404), (None, 302)]
)
def test_player_page_lists_games_from_the_players_seat(
    request, played, club, players, who, status, django_assert_max_num_queries
):
    user = request.getfixturevalue(who) if who else None
    url = reverse("player_detail", args=[club.slug, _ann(players).pk])
    client = client_for(user)
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        response = client.get(url)
    assert response.status_code == status
    if status != 200:
        return
    rows = re.findall(r'<tr class="outcome-(\w+)">(.*?)</tr>', response.content.decode(), re.S)
    # Latest first. GAME_2: Ann & Cat lost -54 to 14 against Bob & Dan; GAME_1: Ann & Bob won
    # 63 to 2 against Cat & Dan.
    assert [outcome for outcome, _html in rows] == ["lost", "won"]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", html, re.S) for _outcome, html in rows]
    assert cells[0][1] == "Cat" and cells[0][2] == "Bob &amp; Dan"
    assert re.sub(r"<[^>]+>", "", cells[0][3]) == "-54 – 14"
    assert cells[1][1] == "Bob" and cells[1][2] == "Cat &amp; Dan"
    assert re.sub(r"<[^>]+>", "", cells[1][3]) == "63 – 2"
    assert ">lost<" in rows[0][1] and ">won<" in rows[1][1]


def test_player_page_queries_do_not_grow_with_games(
    played, club, season, players, as_bob, django_assert_max_num_queries
):
    url = reverse("player_detail", args=[club.slug, _ann(players).pk])
    as_bob.get(url)
    for _ in range(5):
        two_games(club, season, {p.name: p for p in players})
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        assert as_bob.get(url).status_code == 200


def test_an_abandoned_game_reads_abandoned_not_lost(played) -> None:
    first, _second = played
    first.status = GameStatus.ABANDONED
    assert selectors.game_outcome(first, 0) == selectors.ABANDONED
    assert selectors.game_outcome(first, 1) == selectors.ABANDONED
    assert selectors.game_outcome(Game(status="in_progress"), 0) == selectors.PLAYING


def _french(user):
    client = client_for(user)
    client.cookies["django_language"] = "fr"
    return client


def test_french_tables_and_csv_use_the_decimal_comma(played, club, bob) -> None:
    PlayerRating.objects.filter(club=club).update(ordinal=6.8, mu=30.45, sigma=7.0)
    client = _french(bob)
    page = client.get(reverse("ratings", args=[club.slug])).content.decode()
    assert "6,8" in page and "30,45" in page and "6.8" not in page and "30.45" not in page
    assert "Télécharger\u00a0:" in page
    exported = client.get(reverse("ratings", args=[club.slug]), {"_export": "csv"})
    text = exported.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][1] == "6,8" and rows[1][3] == "30,45"
    standings = client.get(reverse("standings", args=[club.slug])).content.decode()
    assert "100,0" in standings and not re.search(r">\s*\d+\.\d+\s*<", standings)
    assert "Chutes" in standings
    # English keeps the decimal point, on the page and in the export.
    english = client_for(bob).get(reverse("ratings", args=[club.slug]), {"_export": "csv"})
    assert list(csv.reader(io.StringIO(english.content.decode("utf-8-sig"))))[1][1] == "6.8"


def test_names_sort_with_their_letter_in_lists_tables_and_exports(club, season, as_bob) -> None:
    from leagues.standings.models import PlayerStanding

    names = ["Zoé", "Élise", "anne", "Bruno"]
    made = [Player.objects.create(club=club, name=n) for n in names]
    # All tied: the tie keeps name order.
    PlayerStanding.objects.bulk_create(PlayerStanding(season=season, player=p) for p in made)
    want = ["anne", "Bruno", "Élise", "Zoé"]
    page = as_bob.get(reverse("club_players", args=[club.slug])).content.decode()
    assert [n for n in re.findall(r">(Zoé|Élise|anne|Bruno)<", page)] == want
    url = reverse("standings", args=[club.slug])
    page = as_bob.get(url).content.decode()
    assert re.findall(r">(Zoé|Élise|anne|Bruno)</a></td>", page) == want
    page = as_bob.get(url, {"sort": "-player"}).content.decode()
    assert re.findall(r">(Zoé|Élise|anne|Bruno)</a></td>", page) == want[::-1]
    exported = as_bob.get(url, {"_export": "csv"}).content.decode("utf-8-sig")
    assert [row[0] for row in csv.reader(io.StringIO(exported))][1:] == want


def test_signed_out_visitor_is_sent_to_the_login_page(club) -> None:
    url = reverse("club_detail", args=[club.slug])
    response = client_for(None).get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
    # The same for a club that does not exist: a visitor learns nothing from the answer.
    missing = client_for(None).get(reverse("club_detail", args=["no-such-club"]))
    assert missing["Location"].startswith(reverse("login"))


def test_not_found_is_our_page_not_the_debug_listing(as_charlie, club, settings) -> None:
    settings.DEBUG = False
    response = as_charlie.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and "Back to your clubs" in page
    assert "URLconf" not in page and "urlpatterns" not in page
    response = as_charlie.get(reverse("club_detail", args=[club.slug]))
    assert response.status_code == 404 and "URLconf" not in response.content.decode()


def test_french_player_page_keeps_the_charts_coordinates_numeric(played, club, players, bob):
    """The rating chart's zero line is SVG, not prose: no decimal comma in its coordinates."""
    from leagues.standings.models import RatingPoint

    ann = _ann(players)
    RatingPoint.objects.filter(player=ann).delete()
    for seq, (game, ordinal) in enumerate(zip(played, (-3.3, 4.7), strict=True)):
        RatingPoint.objects.create(
            player=ann, game=game, seq=seq, mu=25 + ordinal, sigma=8.3, ordinal=ordinal
        )
    page = _french(bob).get(reverse("player_detail", args=[club.slug, ann.pk])).content.decode()
    line = re.search(r'<line class="zero"[^>]*>', page).group(0)
    assert re.search(r'y1="\d+(\.\d+)?"', line), line
    assert "de -3,3 à 4,7" in page  # the prose around it is French
