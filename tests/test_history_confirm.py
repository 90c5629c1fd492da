"""The history page offers on each hand the ✓ the sheet offers the same viewer: a member seated
on the other side, or a table phone holding a seat of it, confirms an early hand the sheet no
longer shows, with a plain post that comes back to the page it was on. The side that entered
the hand, an outsider, a member seated nowhere and anyone on an abandoned game get no ✓, and
their post is refused."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.huge_game_bench import huge_record
from leagues.clubs.models import Club, Membership, Player
from leagues.clubs.roles import Role
from scorecards.history_views import HISTORY_PAGE
from scorecards.importing import game_import
from scorecards.models import Game, Hand
from scorecards.services import game_abandon
from scorecards.sheet import SHEET_ROWS
from tests.conftest import PASSWORD, client_for
from tests.game_viewers import table_phone

pytestmark = pytest.mark.django_db

HANDS = 60  # hand 1 is not on the sheet, which shows the last SHEET_ROWS


def member(club: Club, name: str, seat_name: str | None = None):
    """A member of `club`, the player of the seat named `seat_name` when given."""
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    if seat_name is not None:
        Player.objects.filter(club=club, name=seat_name).update(user=user)
    return user


@pytest.fixture
def game(club, alice) -> Game:
    """A game of HANDS hands in a club that asks each hand to be confirmed, every hand entered
    by Ann's player (seat 0) on her phone."""
    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    club.refresh_from_db()
    game = game_import(club=club, record=huge_record(HANDS), created_by=alice)
    ann = member(club, "ann", "Ann")
    Hand.objects.filter(game=game).update(
        entered_by=ann, entered_seat=0, entered_phone="ann-phone", confirmed_at=None
    )
    return game


def history(client: Client, game: Game, page: int = 1) -> str:
    answer = client.get(reverse("game_history", args=[game.pk]), {"page": page})
    assert answer.status_code == 200
    return answer.content.decode()


def confirm_form(html: str, number: int) -> tuple[str, dict[str, str]] | None:
    """The ✓ form on hand `number`'s row: its action and its fields; None when it has none."""
    row = re.search(rf'<tr [^>]*id="hand-{number}">.*?</tr>', html, re.S)
    assert row, f"no row {number}"
    form = re.search(r'<form method="post" action="([^"]+)"([^>]*)>(.*?)</form>', row.group(0))
    if form is None:
        return None
    # A plain post: the history page has no #sheet for an htmx answer to replace.
    assert "hx-" not in form.group(2)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(3)))
    return form.group(1), fields


def seated_member(game: Game) -> Client:
    """Cat's player (seat 1, the other side from Ann), signed in."""
    return client_for(member(game.club, "cat", "Cat"))


def seated_phone(game: Game) -> Client:
    """A table phone that claimed Dan's seat (seat 3, the other side from Ann)."""
    phone = table_phone(game, game.created_by)
    assert phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "3"}).status_code == 303
    return phone


@pytest.mark.parametrize("confirmer", [seated_member, seated_phone])
def test_the_other_side_confirms_an_early_hand_from_the_history_page(game, confirmer) -> None:
    client = confirmer(game)
    sheet = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="hand-1"' not in sheet and f'id="hand-{HANDS - SHEET_ROWS + 1}"' in sheet
    html = history(client, game)
    found = confirm_form(html, 1)
    assert found is not None, "no ✓ on hand 1"
    action, fields = found
    assert action == reverse("hand_confirm", args=[game.pk, 1])
    assert fields["history_page"] == "1" and fields["csrfmiddlewaretoken"]
    answer = client.post(action, fields)
    assert answer.status_code == 303
    assert answer["Location"] == reverse("game_history", args=[game.pk]) + "?page=1#hand-1"
    assert Hand.objects.get(game=game, number=1).confirmed_at is not None
    # Back on the page: hand 1 confirmed (no ✓ to press), hand 2 still waiting for one.
    again = history(client, game)
    assert confirm_form(again, 1) is None and confirm_form(again, 2) is not None
    assert re.search(r'id="hand-1">.*?<span class="ok"', again, re.S)


def test_the_confirmation_comes_back_to_the_page_it_was_on(game) -> None:
    client = seated_member(game)
    number = HISTORY_PAGE + 5
    found = confirm_form(history(client, game, page=2), number)
    assert found is not None
    action, fields = found
    answer = client.post(action, fields)
    assert answer["Location"].endswith(f"?page=2#hand-{number}")
    assert Hand.objects.get(game=game, number=number).confirmed_at is not None


def test_the_sheet_and_the_history_page_offer_the_same_hands(game) -> None:
    """The hands both show: a ✓ on one is a ✓ on the other, for the same viewer."""
    client = seated_member(game)
    sheet = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    page = history(client, game, page=2)
    offered = []
    for number in range(max(HISTORY_PAGE, HANDS - SHEET_ROWS) + 1, HANDS + 1):
        on_sheet = re.search(rf'id="hand-{number}">(?:(?!</tr>).)*class="confirm"', sheet, re.S)
        assert bool(on_sheet) == (confirm_form(page, number) is not None), number
        offered.append(bool(on_sheet))
    assert offered and all(offered)


def entering_side(game: Game) -> Client:
    """Ann's player, who entered every hand (her partner's seat is her side)."""
    return client_for(Player.objects.get(club=game.club, name="Ann").user)


def partner_phone(game: Game) -> Client:
    """A table phone holding the seat of Ann's partner (seat 2): the side that entered."""
    phone = table_phone(game, game.created_by)
    assert phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "2"}).status_code == 303
    return phone


def seated_nowhere(game: Game) -> Client:
    return client_for(member(game.club, "erin"))


def abandoned(game: Game) -> Client:
    """Cat's player, once the game was abandoned."""
    client = seated_member(game)
    game_abandon(game=game, by=game.created_by, reason="rain")
    return client


@pytest.mark.parametrize(
    ("viewer", "refused"),
    [(entering_side, 403), (partner_phone, 403), (seated_nowhere, 403), (abandoned, 409)],
)
def test_no_check_mark_for_those_who_may_not_confirm(game, viewer, refused) -> None:
    client = viewer(game)
    html = history(client, game)
    assert 'class="confirm"' not in html and "history_page" not in html
    answer = client.post(reverse("hand_confirm", args=[game.pk, 1]), {"history_page": "1"})
    assert answer.status_code == refused
    assert not Hand.objects.filter(game=game, confirmed_at__isnull=False).exists()


def test_an_outsider_sees_no_history_and_confirms_nothing(game, charlie) -> None:
    client = client_for(charlie)
    assert client.get(reverse("game_history", args=[game.pk])).status_code == 404
    answer = client.post(reverse("hand_confirm", args=[game.pk, 1]), {"history_page": "1"})
    assert answer.status_code == 404
    assert not Hand.objects.filter(game=game, confirmed_at__isnull=False).exists()


def test_the_check_marks_cost_no_query_per_hand(game, club, alice) -> None:
    """Who confirms is read once a page, whatever the number of ✓ it offers."""
    short = game_import(club=club, record=huge_record(3), created_by=alice)
    client = seated_member(game)
    counts = []
    for shown in (short, game):
        with CaptureQueriesContext(connection) as queries:
            html = history(client, shown)
        assert confirm_form(html, 1) is not None
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 7, counts
