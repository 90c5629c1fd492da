"""A player's page: every game, filtered by season, partner, opponent and result (GET, no
JavaScript); the record with each partner and against each opponent; bids made and set by
kind and the biggest hand (the engine's results of the counted games); each season's pot
balance and nights; the rating history with each game explained; a merged player's old
address; the same number of queries whatever the number of games."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leagues.clubs.models import Membership, Player, PlayerMerge, Role, Season
from leagues.standings import rebuild
from leagues.standings.models import PlayerStanding
from scorecards.rules import NO_TRUMP_KINDS, game_score
from scorecards.selectors import games_seats_and_inputs
from tests.conftest import PASSWORD, client_for
from tests.leagues_helpers import GAME_1, play, two_games
from tests.player_page_queries import PLAYER_PAGE_QUERIES, PLAYER_PAGE_QUERIES_FILTERED

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


@pytest.fixture
def played(club, season, by_name):
    """GAME_1: Ann & Bob beat Cat & Dan 63-2; GAME_2: Ann & Cat lose -54-14 to Bob & Dan."""
    games = two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    return games


def _url(club, player, **query):
    url = reverse("player_detail", args=[club.slug, player.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _outcomes(page: str) -> list[str]:
    return re.findall(r'<tr class="outcome-(\w+)">', page)


def _table(page: str, css: str) -> list[list[str]]:
    body = re.search(rf'<table class="{css}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body, css
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)
    ]


@pytest.fixture
def ex_member(club):
    user = get_user_model().objects.create_user("eve", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.MEMBER).delete()
    return user


@pytest.mark.parametrize(
    ("who", "public", "status", "games"),
    [
        ("alice", False, 200, True),
        ("bob", False, 200, True),
        ("charlie", False, 404, False),
        ("ex_member", False, 404, False),
        (None, False, 302, False),
        (None, True, 200, False),
        ("charlie", True, 200, False),
    ],
)
def test_who_sees_the_page_and_its_games(
    request, played, club, by_name, who, public, status, games, django_assert_max_num_queries
):
    club.standings_public = public
    club.save()
    client = client_for(request.getfixturevalue(who) if who else None)
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        response = client.get(_url(club, by_name["Ann"]))
    assert response.status_code == status
    if status != 200:
        return
    page = response.content.decode()
    assert "<polyline" in page and 'class="player-seasons"' in page
    # Games, partners and opponents are the members'.
    assert (_outcomes(page) == ["lost", "won"]) is games
    assert ('class="records"' in page) is games and ('class="player-bids"' in page) is games
    # The pot is money: the members' only, as on the season's pot page.
    assert ("Pot balance" in page) is games


@pytest.mark.parametrize(
    ("query", "outcomes"),
    [
        ({}, ["lost", "won"]),
        ({"result": "won"}, ["won"]),
        ({"result": "lost"}, ["lost"]),
        ({"result": "drawn"}, []),
        ({"partner": "Cat"}, ["lost"]),
        ({"partner": "Bob"}, ["won"]),
        ({"opponent": "Bob"}, ["lost"]),
        ({"opponent": "Dan"}, ["lost", "won"]),
        ({"partner": "Bob", "opponent": "Cat"}, ["won"]),
        ({"season": "this"}, ["lost", "won"]),
        ({"season": "other"}, []),
        # Refused values filter nothing (and never fail).
        ({"partner": "٣"}, ["lost", "won"]),
        ({"result": "maybe"}, ["lost", "won"]),
        ({"opponent": "9" * 40}, ["lost", "won"]),
    ],
)
def test_filters(
    played, club, season, by_name, as_bob, query, outcomes, django_assert_max_num_queries
):
    other = Season.objects.create(club=club, name="2027", starts_on=datetime.date(2027, 9, 1))
    values = {
        key: by_name[value].pk
        if value in by_name
        else {"this": season.pk, "other": other.pk}.get(value, value)
        for key, value in query.items()
    }
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES_FILTERED):
        page = as_bob.get(_url(club, by_name["Ann"], **values)).content.decode()
    assert _outcomes(page) == outcomes
    # The form works without JavaScript: a GET form that keeps the choice made.
    assert re.search(r'<form method="get"', page)
    for key, value in values.items():
        if key in ("partner", "opponent") and isinstance(value, int):
            assert re.search(rf'<option value="{value}" selected>', page)


def test_records_with_partners_and_against_opponents(played, club, by_name, as_alice):
    page = as_alice.get(_url(club, by_name["Ann"])).content.decode()
    partners, opponents = (
        {row[0]: row[1:] for row in _table(table, "records")}
        for table in re.findall(r'<table class="records">.*?</table>', page, re.S)
    )
    # Partner: games, won, lost, drawn.
    assert partners == {"Bob": ["1", "1", "0", "0"], "Cat": ["1", "0", "1", "0"]}
    assert opponents == {
        "Dan": ["2", "1", "1", "0"],
        "Bob": ["1", "0", "1", "0"],
        "Cat": ["1", "1", "0", "0"],
    }


def test_bids_by_kind_and_the_biggest_hand_are_the_engines(played, club, by_name, as_alice):
    """Counted here, hand by hand, from the engine's score of each game's stored hands."""
    ann = by_name["Ann"]
    expected = {"Trump": [0, 0], "No-trump": [0, 0], "Kaiser": [0, 0]}
    biggest = None
    seats, hands = games_seats_and_inputs([g.pk for g in played])
    for game in played:
        seat = next(s for s, p in seats[game.pk].items() if p == ann.pk)
        score = game_score(game.rules_value, hands[game.pk], game.first_dealer)
        side = score.rules.side_of(seat)
        for hand in score.hands:
            if hand.thrown_in:
                continue
            if hand.bidder == seat:
                kind = "No-trump" if hand.kind in NO_TRUMP_KINDS else "Trump"
                expected[kind][0 if hand.made else 1] += 1
            biggest = max(biggest or hand.delta[side], hand.delta[side])
    page = as_alice.get(_url(club, ann)).content.decode()
    rows = {row[0]: [int(row[1]), int(row[2])] for row in _table(page, "player-bids")}
    assert rows == expected and sum(map(sum, expected.values())) > 0
    assert f"Biggest hand: +{biggest} on hand" in page


def test_pot_balance_and_nights_are_the_stored_standings(played, club, season, by_name, as_bob):
    ann = by_name["Ann"]
    PlayerStanding.objects.filter(player=ann).update(pot_balance=-250, nights=3)
    page = as_bob.get(_url(club, ann)).content.decode()
    [row] = _table(page, "player-seasons")
    assert row[0] == "2026" and row[3] == "3" and row[4] == "-2.50"


def test_each_game_explained_in_words_for_the_player_themself(played, club, by_name, bob):
    ann = by_name["Ann"]
    ann.user = bob
    ann.save()
    page = client_for(bob).get(_url(club, ann)).content.decode()
    explained = re.findall(r'<td class="explained"[^>]*>(.*?)</td>', page, re.S)
    assert re.match(
        r"You and Cat were expected to take \d+% of the points against Bob and Dan; "
        r"you took 0%: [+\u2212\u00b1]\d+\.\d",
        explained[0],
    )
    assert re.match(
        r"You and Bob were expected to take 50% of the points against Cat and Dan; "
        r"you took 97%: \+\d+\.\d",
        explained[1],
    )
    assert "provisional" in page
    other = client_for(None)
    club.standings_public = True
    club.save()
    assert 'class="explained"' not in other.get(_url(club, ann)).content.decode()


def test_a_merged_players_old_address_leads_to_the_player_kept(
    played, club, by_name, as_bob, as_charlie
):
    ann = by_name["Ann"]
    gone = Player.objects.create(club=club, name="Anne")
    old = gone.pk
    gone.delete()
    PlayerMerge.objects.create(club=club, kept=ann, merged_name="Anne", merged_player_id=old)
    url = reverse("player_detail", args=[club.slug, old])
    response = as_bob.get(url)
    assert response.status_code == 302 and response["Location"] == _url(club, ann)
    assert as_charlie.get(url).status_code == 404
    assert as_bob.get(reverse("player_detail", args=[club.slug, old + 100])).status_code == 404


def test_queries_do_not_grow_with_games(
    played, club, season, by_name, as_bob, django_assert_max_num_queries
):
    for _ in range(6):
        two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    query = {"partner": by_name["Cat"].pk, "opponent": by_name["Dan"].pk, "season": season.pk}
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        page = as_bob.get(_url(club, by_name["Ann"])).content.decode()
    assert len(_outcomes(page)) == 14
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES_FILTERED):
        page = as_bob.get(_url(club, by_name["Ann"], **query)).content.decode()
    assert len(_outcomes(page)) == 7


def test_a_guest_opponent_is_named_in_the_explanation(club, season, by_name, as_alice):
    ann, bob, dan = (by_name[n] for n in ("Ann", "Bob", "Dan"))
    play(club, season, [ann, "Guest", bob, dan], GAME_1)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    page = as_alice.get(_url(club, ann)).content.decode()
    assert re.search(
        r'<td class="explained" colspan="5">Ann and Bob were expected to take 50% of the points '
        r"against Guest and Dan, and took 97%: \+\d",
        page,
    )


def test_the_ratings_page_says_when_a_rating_stops_being_provisional(played, club, as_bob):
    page = as_bob.get(reverse("ratings", args=[club.slug])).content.decode()
    assert "A rating is provisional until 10 games." in page
