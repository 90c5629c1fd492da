"""The sheet's parts every viewer sees alike are kept by the web process between requests
(scorecards.sheet_cache), and the page never shows them stale: after each kind of write (a hand
entered, corrected, taken back or confirmed, a seat or a player renamed, the club's
confirmation turned on, the game row changed) and in each language, the next page is the one
drawn from nothing, with the write in it. What is a viewer's own stays theirs: the ✓ of the
hands they may confirm, the entry form, the table link and the seat board."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Membership, Player
from leagues.clubs.player_services import player_rename
from leagues.clubs.roles import PLAYERS_MANAGE
from leagues.clubs.services import club_settings_update
from scorecards import sheet_cache
from scorecards.models import Game, Hand
from scorecards.rules import HandInput, rules_build
from scorecards.services import (
    game_start,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
)
from tests.conftest import client_for
from tests.game_viewers import confirming_table

pytestmark = pytest.mark.django_db

ANN, CAT, EVE, DAN = range(4)  # seats; Ann & Eve are side 0, Cat & Dan side 1
MADE = HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0)
SET = HandInput(bidder=1, bid=9, tricks=(6, 2), five_hearts=0, three_spades=1)
NO_TRUMP = HandInput(bidder=2, bid=7, kind="no", tricks=(7, 1), five_hearts=0, three_spades=1)
ROW = re.compile(r'<tr class="([^"]*)" id="hand-(\d+)">(.*?)</tr>', re.S)
CONFIRM = re.compile(r'<form method="post" action="[^"]+/hands/(\d+)/confirm"')
CONFIRM_FORM = re.compile(r' <form method="post" action="[^"]+/confirm".*?</form>', re.S)
DEALER = re.compile(r"</td><td>([^<]+) <small")
# What differs between two drawings of the same page: the CSRF token (masked anew each time)
# and the entry form's idempotency key.
PER_REQUEST = [
    (re.compile(r"[A-Za-z0-9]{64}"), "TOKEN"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "KEY"),
]


@pytest.fixture(autouse=True)
def _no_sheet_kept() -> None:
    sheet_cache.forget_all()


@pytest.fixture
def table(club, alice, bob):
    """A 4-seat game of a club that asks each hand to be confirmed, two hands in (entered by
    the owner, seated nowhere), and the people around it: {name: Client}."""
    game, token, dave = confirming_table(club, alice, bob)
    hand_record(game=game, hand=MADE, entered_by=alice, entered_by_name="alice")
    hand_record(game=game, hand=SET, entered_by=alice, entered_by_name="alice")

    def phone(seat: int) -> Client:
        client = Client()
        client.get(reverse("game_table_join", args=[token]))
        claimed = client.post(reverse("game_seat_claim", args=[game.pk]), {"seat": seat})
        assert claimed.status_code == 303
        return client

    who = {
        "owner": client_for(alice),
        "member seated (Cat)": client_for(bob),
        "member seated (Ann)": client_for(dave),
        "outsider": client_for(get_user_model().objects.create_user("charlie")),
        "phone of Dan": phone(DAN),
    }
    return Game.objects.get(pk=game.pk), who


def page(client: Client, game: Game, **headers: str) -> str:
    response = client.get(reverse("game_sheet", args=[game.pk]), headers=headers)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def drawn_anew(client: Client, game: Game, **headers: str) -> str:
    """The page as a process that keeps no sheet draws it."""
    sheet_cache.forget_all()
    return page(client, game, **headers)


def same_page(html: str) -> str:
    for pattern, stand_in in PER_REQUEST:
        html = pattern.sub(stand_in, html)
    return html


def rows(html: str) -> dict[int, tuple[str, str]]:
    """{hand number: (its row's classes, its row's cells)}."""
    return {int(number): (css, cells) for css, number, cells in ROW.findall(html)}


def offered(html: str) -> set[int]:
    return {int(number) for number in CONFIRM.findall(html)}


def assert_shown_as_new(client: Client, game: Game, **headers: str) -> str:
    """The page served after a write, by a process that kept the sheet from before it, is the
    page drawn from nothing."""
    kept = page(client, game, **headers)
    assert sheet_cache.kept_count() >= 1
    assert same_page(kept) == same_page(drawn_anew(client, game, **headers))
    return kept


def test_a_page_drawn_again_reads_no_hand_and_is_the_same(table) -> None:
    game, who = table
    owner = who["owner"]
    first = page(owner, game)
    with CaptureQueriesContext(connection) as queries:
        again = page(owner, game)
    assert not [q for q in queries.captured_queries if "scorecards_hand" in q["sql"]]
    assert same_page(again) == same_page(first)
    assert sorted(rows(again)) == [1, 2]


def test_a_hand_entered_shows_on_the_next_page(table) -> None:
    game, who = table
    owner = who["owner"]
    page(owner, game)
    hand_record(game=game, hand=NO_TRUMP)
    html = assert_shown_as_new(owner, game)
    assert sorted(rows(html)) == [1, 2, 3]
    assert "no" in rows(html)[3][1]


def test_a_correction_shows_on_the_next_page(table) -> None:
    game, who = table
    owner = who["owner"]
    before = rows(page(owner, game))[1]
    hand_correct(game=game, number=1, hand=NO_TRUMP, by_name="alice")
    html = assert_shown_as_new(owner, game)
    assert rows(html)[1] != before
    assert 'class="badge corrected"' in rows(html)[1][1]


def test_a_hand_taken_back_leaves_the_next_page(table) -> None:
    game, who = table
    owner = who["owner"]
    assert 2 in rows(page(owner, game))
    hand_undo(game=game)
    html = assert_shown_as_new(owner, game)
    assert sorted(rows(html)) == [1]


def test_a_confirmation_shows_on_the_next_page_for_everyone(table) -> None:
    game, who = table
    dan, owner = who["phone of Dan"], who["owner"]
    assert offered(page(dan, game)) == {1, 2}
    assert "unconfirmed" in rows(page(owner, game))[1][0]
    confirm = dan.post(reverse("hand_confirm", args=[game.pk, 1]))
    assert confirm.status_code in (200, 303)
    assert Hand.objects.get(game=game, number=1).confirmed_by_name == "Dan"
    html = assert_shown_as_new(owner, game)
    assert "unconfirmed" not in rows(html)[1][0]
    assert 'class="ok" title="Dan"' in rows(html)[1][1]
    assert offered(assert_shown_as_new(dan, game)) == {2}


def test_a_confirmation_by_the_service_shows_too(table) -> None:
    game, who = table
    owner = who["owner"]
    page(owner, game)
    bob = get_user_model().objects.get(username="bob")
    hand_confirm(game=game, number=2, by=bob)
    html = assert_shown_as_new(owner, game)
    assert 'class="ok" title="Cat"' in rows(html)[2][1]


def test_a_seat_renamed_without_a_save_of_the_game_shows_at_once(table) -> None:
    game, who = table
    owner = who["owner"]
    page(owner, game)
    seat = game.seats.get(seat=CAT)
    seat.name = "Catherine <i>"
    seat.save()  # the game row is not saved: its version stays
    html = assert_shown_as_new(owner, game)
    assert "Catherine &lt;i&gt;" in rows(html)[2][1]  # Cat bid hand 2
    assert "Catherine <i>" not in html


def test_a_player_renamed_keeps_the_seats_names_as_drawn_anew(table, alice) -> None:
    game, who = table
    owner = who["owner"]
    before = page(owner, game)
    player = Player.objects.get(club=game.club, name="Dan")
    player_rename(player=player, name="Daniel", by=alice, action=PLAYERS_MANAGE)
    html = assert_shown_as_new(owner, game)
    # A seat keeps the name it was given at the table (leagues.clubs.player_services).
    assert same_page(html) == same_page(before)


def test_confirmation_turned_on_by_the_club_marks_the_rows_at_once(club, players, alice) -> None:
    owner = client_for(alice)
    game = game_start(seats=players, rules=rules_build({"preset": "standard"}), club=club)
    hand_record(game=game, hand=MADE)
    assert "unconfirmed" not in rows(page(owner, game))[1][0]
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    html = assert_shown_as_new(owner, game)
    assert "unconfirmed" in rows(html)[1][0]


def test_a_game_row_changed_without_its_version_shows_at_once(table) -> None:
    game, who = table
    owner = who["owner"]
    dealer = DEALER.search(rows(page(owner, game))[1][1])
    assert dealer and dealer[1] == "Ann"
    # As a write that does not save() the game would leave it: the same updated_at.
    Game.objects.filter(pk=game.pk).update(first_dealer=EVE)
    html = assert_shown_as_new(owner, game)
    dealer = DEALER.search(rows(html)[1][1])
    assert dealer and dealer[1] == "Eve"


def test_each_language_gets_its_own_rows(table) -> None:
    game, who = table
    owner = who["owner"]
    english = page(owner, game, **{"Accept-Language": "en"})
    assert "bids 1st" in english
    french = assert_shown_as_new(owner, game, **{"Accept-Language": "fr"})
    assert "annonce en 1er" in french and "bids 1st" not in french
    assert "bids 1st" in page(owner, game, **{"Accept-Language": "en"})


def test_the_poll_after_a_write_answers_the_new_rows(table) -> None:
    game, who = table
    dan = who["phone of Dan"]
    html = page(dan, game)
    seen = dict(re.findall(r'<input type="hidden" name="(\w)" value="([^"]*)">', html))
    hand_record(game=game, hand=NO_TRUMP)
    answer = dan.get(
        reverse("game_poll", args=[game.pk]),
        {"v": seen["v"], "n": seen["n"], "h": seen["h"]},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert sorted(rows(answer.content.decode())) == [3]


def test_each_viewer_gets_their_own_parts_of_one_kept_sheet(table) -> None:
    """One version, drawn once, seen by each in turn: the ✓ only for the other side's seats
    (the owner entered the hands from no seat, so either side confirms), the entry form to
    whoever may enter hands, the table link's buttons to its manager, the seat board's
    "this phone" to the phone holding the seat; the outsider sees nothing."""
    game, who = table
    seen = {name: client.get(reverse("game_sheet", args=[game.pk])) for name, client in who.items()}
    assert sheet_cache.kept_count() == 1
    assert seen["outsider"].status_code == 404
    html = {name: answer.content.decode() for name, answer in seen.items() if name != "outsider"}
    assert offered(html["owner"]) == set()
    assert offered(html["member seated (Cat)"]) == {1, 2}
    assert offered(html["member seated (Ann)"]) == {1, 2}
    assert offered(html["phone of Dan"]) == {1, 2}
    assert "✓ Cat" in html["member seated (Cat)"] and "✓ Cat" not in html["phone of Dan"]
    assert "✓ Dan" in html["phone of Dan"] and "✓ Dan" not in html["owner"]
    for name, text in html.items():
        assert 'id="hand-form"' in text, name
    assert 'name="action" value="revoke"' in html["owner"]
    assert 'name="action" value="revoke"' not in html["phone of Dan"]
    assert "(this phone)" in html["phone of Dan"]
    assert "(this phone)" not in html["owner"]
    # Every viewer's rows are the same rows but for their ✓.
    plain = {
        name: {n: CONFIRM_FORM.sub("", cells) for n, (_css, cells) in rows(text).items()}
        for name, text in html.items()
    }
    assert len({repr(sorted(shown.items())) for shown in plain.values()}) == 1


def test_a_member_who_left_the_club_no_longer_sees_a_kept_sheet(table) -> None:
    game, who = table
    bob = who["member seated (Cat)"]
    assert offered(page(bob, game)) == {1, 2}
    Membership.objects.filter(user__username="bob").delete()
    assert bob.get(reverse("game_sheet", args=[game.pk])).status_code == 404


def test_a_game_over_offers_no_entry_from_a_sheet_kept_before(table) -> None:
    game, who = table
    owner = who["owner"]
    assert 'id="hand-form"' in page(owner, game)
    Game.objects.filter(pk=game.pk).update(
        status="abandoned", abandon_reason="Fire alarm", finished_at=timezone.now()
    )
    html = page(owner, game)
    assert 'id="hand-form"' not in html and "Fire alarm" in html


def test_the_kept_sheets_are_bounded(club, players, alice, monkeypatch) -> None:
    monkeypatch.setattr(sheet_cache, "SIZE", 3)
    owner = client_for(alice)
    games = [
        game_start(seats=players, rules=rules_build({"preset": "standard"}), club=club)
        for _ in range(5)
    ]
    for game in games:
        hand_record(game=game, hand=MADE, idempotency_key=uuid.uuid4())
        page(owner, game)
        assert sheet_cache.kept_count() <= 3
    assert sheet_cache.kept_count() == 3


def test_each_viewer_of_a_kept_sheet_gets_a_form_of_their_own(table) -> None:
    """The blank entry form comes from the kept sheet, but its idempotency key is new for each
    page and the phone's seat is the viewer's: Dan's phone signs as Dan, the owner chooses."""
    game, who = table
    key = re.compile(r'name="idempotency_key" value="([^"]+)"')
    owner = page(who["owner"], game)
    again = page(who["owner"], game)
    dan = page(who["phone of Dan"], game)
    keys = {key.search(html)[1] for html in (owner, again, dan)}  # type: ignore[index]
    assert len(keys) == 3
    assert "This phone is held by <b>Dan</b>" in dan
    assert '<select name="entered_as">' in owner and '<select name="entered_as">' not in dan
    hand_record(game=game, hand=NO_TRUMP)
    html = page(who["owner"], game)
    assert 'name="number" value="4"' in html
    assert same_page(html) == same_page(drawn_anew(who["owner"], game))
