"""At the table: Lost Heir's sold and taken-over contracts and blank cards, the table habits a
hand or a game records, and the money pot (sheet, season balances, import and export)."""

from __future__ import annotations

import datetime
import json
import uuid

import pytest
from django.urls import reverse

from leagues.clubs.models import Season
from leagues.standings import rebuild
from leagues.standings.models import PlayerStanding
from scorecards.importing import game_import
from scorecards.models import Game
from scorecards.rules import rules_build
from scorecards.selectors import game_record
from scorecards.services import game_start

pytestmark = pytest.mark.django_db


def post(client, game, **fields):
    data = {"idempotency_key": str(uuid.uuid4()), **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("hand_submit", args=[game.pk]), data)


@pytest.fixture
def lost_heir(club, players, alice) -> Game:
    # Dan (seat 3) deals first.
    return game_start(
        seats=players,
        rules=rules_build({"preset": "lost-heir"}),
        club=club,
        first_dealer=3,
        created_by=alice,
    )


def test_lost_heir_sold_taken_over_and_a_blank(lost_heir, as_alice) -> None:
    page = as_alice.get(reverse("game_sheet", args=[lost_heir.pk])).content.decode()
    assert "The Lost Heir taken by" in page and "The Wrong Boy taken by" in page
    assert 'name="sold" value="took_over"' in page and "cancelled by a blank" in page
    # Dan deals and accepts Ann's 5: Ann's side 6 tricks + the Lost Heir = 11; Dan's side
    # 2 tricks - 3 = -1, plus the 5 he sold for.
    post(
        as_alice,
        lost_heir,
        sold="accepted",
        bidder=0,
        bid=5,
        tricks_bidder=6,
        five_hearts=0,
        three_spades=1,
    )
    # Ann deals and takes Cat's 6 over: her side takes 3 - 3 = 0, set, and scores nothing.
    post(
        as_alice,
        lost_heir,
        sold="took_over",
        bidder=1,
        bid=6,
        tricks_bidder=3,
        five_hearts=1,
        three_spades=0,
    )
    # Cat deals and accepts Bob's 4; a blank cancels the Lost Heir.
    post(
        as_alice,
        lost_heir,
        sold="accepted",
        bidder=2,
        bid=4,
        tricks_bidder=4,
        five_hearts="nobody",
        three_spades=1,
    )
    lost_heir.refresh_from_db()
    assert lost_heir.scores == [15, 19]
    hands = game_record(lost_heir)["hands"]
    assert hands[1]["bidder"] == 0  # the dealer took it over: the dealer is the bidder
    assert hands[2]["five_hearts"] is None and "five_hearts" in hands[2]


def test_the_dealer_cannot_accept_their_own_bid(lost_heir, as_alice) -> None:
    response = post(
        as_alice,
        lost_heir,
        sold="accepted",
        bidder=3,
        bid=5,
        tricks_bidder=6,
        five_hearts=0,
        three_spades=1,
    )
    assert response.status_code == 422 and "took it over" in response.content.decode()
    assert not lost_heir.hands.exists()


def test_standard_rules_offer_neither_sold_nor_blank(club, players, as_alice, alice) -> None:
    game = game_start(seats=players, rules=rules_build(), club=club, created_by=alice)
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'name="sold"' not in page and "cancelled by a blank" not in page
    assert "5 of hearts taken by" in page


@pytest.fixture
def game(club, players, alice) -> Game:
    return game_start(
        seats=players,
        rules=rules_build(),
        club=club,
        created_by=alice,
        habits={"passing": "3-2-1", "pot": {"per_set": 150}},
    )


def test_a_hand_keeps_its_table_habits(game, as_alice) -> None:
    post(as_alice, game, thrown_in=1, misdeal="four-tens")
    post(
        as_alice,
        game,
        bidder=0,
        bid=7,
        kind="no",
        tricks_bidder=3,
        five_hearts=0,
        three_spades=1,
        passing="across",
        kitty="set-aside",
        announced="low",
    )
    hands = game_record(game)["hands"]
    assert hands[0] == {"thrown_in": True, "misdeal": "four-tens"}
    assert (hands[1]["passing"], hands[1]["kitty"], hands[1]["announced"]) == (
        "across",
        "set-aside",
        "low",
    )
    page = as_alice.get(reverse("hand_detail", args=[game.pk, 2])).content.decode()
    assert 'value="across"' in page
    assert "Cards passed: 2 cards across · Kitty: set aside unseen · Announced low" in page


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"kitty": "eaten"}, "kitty"),
        ({"announced": "sideways"}, "announced"),
        ({"passing": "9-9"}, "passing"),
    ],
)
def test_a_bad_habit_is_refused_on_its_field(game, as_alice, fields, field) -> None:
    response = post(
        as_alice, game, bidder=0, bid=7, tricks_bidder=6, five_hearts=0, three_spades=1, **fields
    )
    assert response.status_code == 422
    assert f'id="err-{field}"' in response.content.decode()
    assert not game.hands.exists()


def test_the_pot_is_fed_by_set_bids_and_collected_by_the_winners(game, as_alice) -> None:
    # Ann bids 8 and is set (3 tricks): 1.50 in the pot from Ann.
    post(as_alice, game, bidder=0, bid=8, tricks_bidder=3, five_hearts=1, three_spades=0)
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Pot: 1.50 (1.50 a set bid)" in page and "fed by Ann 1.50" in page
    for _ in range(8):  # Cat's side makes 12 each time until it wins
        game.refresh_from_db()
        if game.is_finished:
            break
        post(as_alice, game, bidder=1, bid=7, tricks_bidder=8, five_hearts=1, three_spades=1)
    game.refresh_from_db()
    assert game.is_finished and game.winner == 1
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "collected by Cat 0.75, Dan 0.75" in page


def test_french_shows_the_pot_with_a_decimal_comma(game, as_alice) -> None:
    post(as_alice, game, bidder=0, bid=8, tricks_bidder=3, five_hearts=1, three_spades=0)
    page = as_alice.get(
        reverse("game_sheet", args=[game.pk]), headers={"Accept-Language": "fr"}
    ).content.decode()
    assert "Cagnotte\u00a0: 1,50" in page


def test_import_then_export_keeps_every_habit_and_the_pot(club) -> None:
    record = {
        "format": "kaiser-game/1",
        "rules": {"preset": "standard", "min_bid": 6, "cover_three": True},
        "seats": ["Ann", "Cat", "Bob", "Dan"],
        "first_dealer": 0,
        "passing": "rotation",
        "kitty": "bidder",
        "pot": {"per_set": 25},
        "hands": [
            {"thrown_in": True, "misdeal": "no-face"},
            {
                "bidder": 1,
                "bid": 7,
                "tricks": [2, 6],
                "five_hearts": 1,
                "three_spades": 0,
                "passing": "left",
                "kitty": "bidder",
                "announced": "high",
            },
        ],
    }
    exported = game_record(game_import(club=club, record=record))
    assert exported == record
    again = game_record(game_import(club=club, record=json.loads(json.dumps(exported))))
    assert again == exported


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pot": {"per_set": -1}}, "pot"),
        ({"pot": {"per_set": True}}, "pot"),
        ({"kitty": "eaten"}, "kitty"),
        ({"passing": "sideways"}, "passing"),
    ],
)
def test_import_refuses_a_bad_habit_naming_it(club, change, field) -> None:
    from scorecards.rules import KaiserError

    record = {"seats": ["A", "B", "C", "D"], "hands": [], **change}
    with pytest.raises(KaiserError) as error:
        game_import(club=club, record=record)
    assert error.value.field == field
    assert not Game.objects.exists()


def test_a_misdeal_reason_only_on_a_thrown_in_hand(club) -> None:
    from scorecards.rules import KaiserError

    record = {
        "seats": ["A", "B", "C", "D"],
        "hands": [
            {
                "bidder": 0,
                "bid": 7,
                "tricks": [7, 1],
                "five_hearts": 0,
                "three_spades": 1,
                "misdeal": "no-ace",
            }
        ],
    }
    with pytest.raises(KaiserError) as error:
        game_import(club=club, record=record)
    assert error.value.field == "misdeal" and not Game.objects.exists()


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 302)]
)
def test_season_pot_page(
    request, club, players, alice, who, status, django_assert_max_num_queries
) -> None:
    season = Season.objects.create(club=club, name="Winter", starts_on=datetime.date(2020, 1, 1))
    for _ in range(2):
        record = {
            "rules": {"preset": "standard", "target": 10},
            "pot": {"per_set": 200},
            "seats": ["Ann", "Cat", "Bob", "Dan"],
            "hands": [
                {"bidder": 0, "bid": 9, "tricks": [3, 5], "five_hearts": 1, "three_spades": 0},
                {"bidder": 1, "bid": 7, "tricks": [1, 7], "five_hearts": 1, "three_spades": 1},
            ],
        }
        game_import(club=club, record=record, season=season)
    # Both games count (finished, nothing to confirm): the balances are stored with the
    # standings when they are rebuilt, and the page reads them from there.
    rebuild.standings_rebuild(season_id=season.pk)
    stored = PlayerStanding.objects.filter(season=season).values_list("player__name", "pot_balance")
    assert dict(stored) == {"Cat": 200, "Dan": 200, "Bob": 0, "Ann": -400}
    client = request.getfixturevalue(who)
    with django_assert_max_num_queries(9):
        response = client.get(reverse("season_pot", args=[club.slug, season.pk]))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Ann" in page and "-4.00" in page and "+2.00" in page
        names = [name for name in ("Cat", "Dan", "Bob", "Ann") if f"<td>{name}</td>" in page]
        assert names == ["Cat", "Dan", "Bob", "Ann"]
        assert page.index("<td>Cat</td>") < page.index("<td>Dan</td>") < page.index("<td>Ann</td>")


def test_the_club_sets_the_pot_of_its_new_games(club, players, as_alice) -> None:
    url = reverse("club_settings", args=[club.slug])
    as_alice.post(url, {"name": club.name, "pot_per_set": "0.50"})
    club.refresh_from_db()
    assert club.pot_per_set == 50
    new = reverse("club_game_new", args=[club.slug])
    assert 'name="pot_per_set" value="0.50"' in as_alice.get(new).content.decode()
    seats = {"seat_0": "Ann", "seat_1": "Cat", "seat_2": "Bob", "seat_3": "Dan"}
    as_alice.post(
        new, {**seats, "pot_per_set": "0.50", "passing": "partner", "kitty": "none", "start": "1"}
    )
    game = Game.objects.get()
    assert (game.pot_per_set, game.passing, game.kitty) == (50, "partner", "none")
    response = as_alice.post(new, {**seats, "pot_per_set": "-1", "start": "1"})
    assert response.status_code == 422 and Game.objects.count() == 1
