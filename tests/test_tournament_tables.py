"""Tournament tables on the table score sheet: the console and the table cards link each table to
its sheet, hands entered there (by a phone holding the table link) show on the console, the
director corrects a hand through the sheet's correction form (same version history), and a night
that wants hands confirmed puts the confirm buttons on its tables' sheets. Owner (alice, a
director), member (bob), outsider (charlie), anonymous, and a phone at the table."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.models import Hand, HandVersion
from scorecards.rules import HandInput
from scorecards.selectors import game_needs_confirmation, seat_names
from scorecards.services import game_start, hand_confirm, hand_record, seat_claim

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
WHO = ["as_alice", "as_bob", "as_charlie", "client"]


def _night(club, *, confirm: bool = False, hands: int = 2) -> tuple:
    night = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        rounds=2,
        hands_per_round=hands,
        extra_hand_on_tie=False,
        hands_need_confirmation=confirm,
    )
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    return night, round_draw(tournament=night)


def _phone(game) -> Client:
    """A phone at the table: no account, it opened the table link printed on the card."""
    client = Client()
    client.get(reverse("game_table_join", args=[game.table_token]))
    return client


def _sheet_hand(**changes) -> dict[str, str]:
    """Seat 0 bids 7, the bidding side takes 7 tricks and both cards (as the sheet posts it)."""
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
    }
    return data | {key: str(value) for key, value in changes.items()}


HAND = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


def _console(client: Client, night) -> str:
    return client.get(reverse("tournament_console", args=[night.pk]), headers=HTMX).content.decode()


def test_console_and_cards_link_each_table_to_its_sheet(as_alice, club) -> None:
    night, made = _night(club)
    console = as_alice.get(reverse("tournament_console", args=[night.pk])).content.decode()
    cards = as_alice.get(reverse("tournament_cards", args=[night.pk, 1])).content.decode()
    for table in made.tables:
        sheet = reverse("game_sheet", args=[table.game_id])
        director = reverse("tournament_table", args=[night.pk, table.pk])
        for page in (console, cards):
            assert f'href="{sheet}"' in page and f'href="{director}"' in page
        # The card's QR code and printed link open the sheet with the table's token.
        assert reverse("game_table_join", args=[table.game.table_token]) in cards


def test_a_phone_opens_the_printed_link_and_enters_hands_the_console_shows(as_alice, club):
    night, made = _night(club)
    game = made.tables[0].game
    phone = _phone(game)
    assert phone.get(reverse("game_sheet", args=[game.pk])).status_code == 200
    assert 'class="state-playing"' in _console(as_alice, night)
    assert "0 / 2" in _console(as_alice, night)
    url = reverse("hand_submit", args=[game.pk])
    assert phone.post(url, _sheet_hand(entered_as=0)).status_code == 303
    assert "1 / 2" in _console(as_alice, night)
    assert phone.post(url, _sheet_hand(bidder=2)).status_code == 303
    console = _console(as_alice, night)
    assert "2 / 2" in console and 'class="state-done"' in console
    assert Hand.objects.get(game=game, number=1).entered_by_name == seat_names(game)[0]
    # The table's other game is untouched: one table done, one playing.
    assert "1 table still playing." in console


@pytest.mark.parametrize(("who", "status"), list(zip(WHO, [200, 403, 404, 302], strict=True)))
def test_director_table_page_corrects_through_the_sheet(request, club, who, status) -> None:
    night, made = _night(club)
    table = made.tables[0]
    game = table.game
    hand_record(game=game, hand=HAND)
    client = request.getfixturevalue(who)
    page = client.get(reverse("tournament_table", args=[night.pk, table.pk]))
    assert page.status_code == status
    if status != 200:
        return
    body = page.content.decode()
    # No hand-entry form of its own: hands are entered on the sheet; each hand opens the
    # sheet's correction form and history.
    assert 'id="hand-form"' not in body
    assert f'href="{reverse("game_sheet", args=[game.pk])}"' in body
    assert f'href="{reverse("hand_detail", args=[game.pk, 1])}"' in body


@pytest.mark.parametrize(("who", "status"), list(zip(WHO, [303, 403, 404, 404], strict=True)))
def test_director_correction_keeps_the_sheets_version_history(request, club, who, status):
    _, made = _night(club)
    game = made.tables[0].game
    hand_record(game=game, hand=HAND)
    client = request.getfixturevalue(who)
    url = reverse("hand_detail", args=[game.pk, 1])
    response = client.post(url, _sheet_hand(tricks_bidder=8))
    assert response.status_code == status
    actions = list(HandVersion.objects.filter(game=game).values_list("action", flat=True))
    if status == 303:
        assert Hand.objects.get(game=game).tricks == [8, 0]
        assert actions == ["enter", "correct"]
        assert "corrected" in client.get(url).content.decode()
    else:
        assert Hand.objects.get(game=game).tricks == [7, 1]
        assert actions == ["enter"]


def test_the_table_page_no_longer_takes_hands(as_alice, club) -> None:
    night, made = _night(club)
    url = f"{reverse('tournament_table', args=[night.pk, made.tables[0].pk])}hands/"
    assert as_alice.post(url, _sheet_hand()).status_code == 404
    assert not Hand.objects.exists()


def test_confirmation_night_puts_confirm_buttons_on_the_sheet(as_alice, club) -> None:
    assert not club.hands_need_confirmation  # the night asks it, not the club
    night, made = _night(club, confirm=True, hands=1)
    game = made.tables[0].game
    bidder_phone, other_phone = _phone(game), _phone(game)
    submit = reverse("hand_submit", args=[game.pk])
    assert bidder_phone.post(submit, _sheet_hand(entered_as=0)).status_code == 303
    sheet = other_phone.get(reverse("game_sheet", args=[game.pk])).content.decode()
    # No ✓ until the phone says who holds it: it is asked to.
    assert 'class="confirm"' not in sheet and 'id="seat-claim"' in sheet
    assert "unconfirmed" in sheet
    console = _console(as_alice, night)
    assert 'class="state-waiting"' in console and "1 hand waits for confirmation" in console
    # The bidder's own side may not confirm; a player of the other side does.
    confirm = reverse("hand_confirm", args=[game.pk, 1])
    claim = reverse("game_seat_claim", args=[game.pk])
    partner_phone = _phone(game)
    assert partner_phone.post(claim, {"seat": "2"}).status_code == 303
    assert partner_phone.post(confirm, {"seat": "1"}).status_code == 403
    assert bidder_phone.post(confirm, {"seat": "1"}).status_code == 403
    assert other_phone.post(claim, {"seat": "1"}).status_code == 303
    assert other_phone.post(confirm).status_code == 303
    assert Hand.objects.get(game=game).confirmed_by_name == seat_names(game)[1]
    console = _console(as_alice, night)
    assert 'class="state-waiting"' not in console and 'class="state-done"' in console


# Members who are not seated at the table cannot confirm (403); outsiders do not see it (404).
@pytest.mark.parametrize(("who", "status"), list(zip(WHO, [403, 403, 404, 404], strict=True)))
def test_confirm_on_a_tournament_sheet_access(request, club, who, status) -> None:
    _, made = _night(club, confirm=True, hands=1)
    game = made.tables[0].game
    hand_record(game=game, hand=HAND)
    response = request.getfixturevalue(who).post(
        reverse("hand_confirm", args=[game.pk, 1]), {"seat": "1"}
    )
    assert response.status_code == status
    assert (Hand.objects.get(game=game).confirmed_at is not None) == (status == 303)


def test_game_needs_confirmation(club, players, standard_rules, alice) -> None:
    _plain, made = _night(club)
    _confirming, drawn = _night(club, confirm=True)
    assert not game_needs_confirmation(made.tables[0].game)  # read without the annotation
    assert game_needs_confirmation(drawn.tables[0].game)
    quick = game_start(seats=["Mom", "Dad", "Lea", "Max"], rules=standard_rules)
    assert not game_needs_confirmation(quick)
    club_game = game_start(seats=players, rules=standard_rules, club=club)
    assert not game_needs_confirmation(club_game)
    club.hands_need_confirmation = True
    club.save()
    club_game.refresh_from_db()
    assert game_needs_confirmation(club_game)


def test_plain_night_sheet_has_no_confirm_buttons(as_bob, club) -> None:
    _, made = _night(club)
    game = made.tables[0].game
    hand_record(game=game, hand=HAND)
    sheet = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'class="confirm"' not in sheet


def test_tournament_sheet_costs_what_a_club_sheet_costs(
    as_bob, club, players, standard_rules, django_assert_max_num_queries
) -> None:
    # Both games ask each hand to be confirmed (the sheet shows their seat claims then): the
    # table's place in its round is what is compared.
    type(club).objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    club_game = game_start(seats=players, rules=standard_rules, club=club)
    hand_record(game=club_game, hand=HAND)
    with CaptureQueriesContext(connection) as plain:
        as_bob.get(reverse("game_sheet", args=[club_game.pk]))
    _, made = _night(club, confirm=True)
    game = made.tables[0].game
    for _ in range(2):
        hand_record(game=game, hand=HAND)
    seat_claim(game=game, seat=1, phone="p1")
    hand_confirm(game=game, number=1, phone="p1")
    with django_assert_max_num_queries(len(plain.captured_queries)):
        assert as_bob.get(reverse("game_sheet", args=[game.pk])).status_code == 200


def test_console_queries_do_not_grow_as_hands_arrive(
    as_alice, club, django_assert_max_num_queries
) -> None:
    night, made = _night(club, confirm=True, hands=10)
    with CaptureQueriesContext(connection) as empty:
        _console(as_alice, night)
    for table in made.tables:
        for _ in range(5):
            hand_record(game=table.game, hand=HAND)
    with django_assert_max_num_queries(len(empty.captured_queries)):
        assert "5 / 10" in _console(as_alice, night)
