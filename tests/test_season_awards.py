"""A season's awards and records: worked out by hand for the two games of
tests/leagues_helpers.py, checked against a count of the demo season's games and hands done
here, and offered to exactly who may see the club's standings."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues.clubs.models import Season
from leagues.demo import demo_club_create
from leagues.standings.award_views import season_played_games
from leagues.standings.awards import season_awards
from scorecards.models import Game
from scorecards.rules import HandInput, rules_build
from scorecards.selectors import games_where
from tests.conftest import client_for
from tests.leagues_helpers import play, two_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


def _awards(season) -> dict[str, tuple]:
    return {
        award.key: (award.names, award.value, award.game_id, award.hand)
        for award in season_awards(season_played_games(season))
    }


def test_the_awards_of_two_games_worked_out_by_hand(club, season, by_name) -> None:
    # GAME_1: Ann & Bob win (63 - 2); they were 3 - 12 after hand 3, 9 behind: the comeback.
    # GAME_2: Bob & Dan win (Ann & Cat fell to -54); the one no-trump made is Ann's 7 no, hand 3.
    first, second = two_games(club, season, by_name)
    awards = _awards(season)
    assert awards["most_wins"] == (("Bob",), "2", second.pk, None)
    assert awards["highest_no_trump"] == (("Ann",), "7", second.pk, 3)
    assert awards["longest_streak"] == (("Bob",), "2", second.pk, None)
    assert awards["best_comeback"] == (("Ann & Bob",), "-9", first.pk, 3)
    assert "best_partnership" not in awards  # no two partners played 3 games together
    assert "kaiser_made" not in awards


def test_a_kaiser_made_is_listed_with_its_game_and_hand(club, season, by_name) -> None:
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    rules = rules_build({"preset": "standard", "kaiser_bid": "team"})
    kaiser = HandInput(
        bidder=1, kind="kaiser", bid=12, tricks=(1, 7), five_hearts=1, three_spades=0
    )
    game = play(club, season, [ann, bob, cat, dan], [kaiser], rules=rules)
    assert _awards(season)["kaiser_made"] == (("Bob",), "12", game.pk, 1)


def test_the_demo_seasons_awards_agree_with_a_count_done_here() -> None:
    club, _ = demo_club_create()
    season = club.seasons.get()
    games = list(games_where(season=season).counted().prefetch_related("seats__player", "hands"))
    assert games
    # Wins counted from the stored winners, names from the seats.
    wins: dict[str, int] = {}
    for game in games:
        for seat in game.seats.all():
            if game.winner is not None and seat.seat % 2 == game.winner:
                name = seat.player.name if seat.player else seat.name
                wins[name] = wins.get(name, 0) + 1
    # The highest no-trump bid made: the stored hands' bids, "made" read off the points the
    # bidding side took (tricks, +5 for the five of hearts, -3 for the three of spades).
    made_no_trump = [
        hand.bid
        for game in games
        for hand in game.hands.all()
        if not hand.thrown_in
        and hand.kind == "no"
        and hand.tricks[hand.bidder % 2]
        + (5 if hand.five_hearts == hand.bidder % 2 else 0)
        - (3 if hand.three_spades == hand.bidder % 2 else 0)
        >= hand.bid
    ]
    awards = {a.key: a for a in season_awards(season_played_games(season))}
    best = max(wins.values())
    assert awards["most_wins"].value == str(best)
    assert set(awards["most_wins"].names) == {n for n, c in wins.items() if c == best}
    if made_no_trump:
        assert awards["highest_no_trump"].value == str(max(made_no_trump))
    else:
        assert "highest_no_trump" not in awards
    counted = {game.pk for game in games}
    assert all(a.game_id is None or a.game_id in counted for a in awards.values())


def test_the_awards_page_is_for_who_sees_the_standings(
    club, season, by_name, alice, bob, charlie
) -> None:
    two_games(club, season, by_name)
    url = reverse("season_awards", args=[club.slug, season.pk])
    season_page = reverse("season_detail", args=[club.slug, season.pk])
    assert url in client_for(bob).get(season_page).content.decode()
    page = client_for(bob).get(url)
    assert page.status_code == 200 and "Most wins" in page.content.decode()
    assert client_for(charlie).get(url).status_code == 404
    assert (
        client_for(alice).get(reverse("season_awards", args=[club.slug, 999999])).status_code == 404
    )
    club.standings_public = True
    club.save(update_fields=["standings_public"])
    public = client_for(None).get(url)
    assert public.status_code == 200
    assert reverse("game_sheet", args=[Game.objects.first().pk]) not in public.content.decode()


def test_the_awards_page_reads_a_fixed_number_of_queries(
    club, season, by_name, bob, django_assert_max_num_queries
) -> None:
    two_games(club, season, by_name)
    two_games(club, season, by_name)
    as_bob = client_for(bob)
    url = reverse("season_awards", args=[club.slug, season.pk])
    with django_assert_max_num_queries(9):
        assert as_bob.get(url).status_code == 200
