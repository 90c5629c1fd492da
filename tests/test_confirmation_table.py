"""Confirmation at a real table: the ✓ is offered exactly to the people the server lets confirm
(the other side from the one that entered the hand, either side when nobody seated entered
it), on the hand's own row, as a form that works without JavaScript; a game whose every hand
is confirmed counts; turning confirmation on leaves the games already finished counting and
the settings page says what will happen before saving.

The table: Ann (seat 0) & Eve (seat 2) against Cat (seat 1) & Dan (seat 3). Dave's account
plays Ann, Bob's plays Cat; Erin is a member who is not seated, Alice the owner (not seated),
Charlie an outsider."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Membership, Season
from leagues.clubs.roles import Role
from leagues.clubs.services import club_settings_update
from leagues.standings import rebuild
from leagues.standings.derived import counted_games_qs
from leagues.standings.models import PlayerStanding
from scorecards import sheet_cache
from scorecards.models import Game, Hand
from tests.conftest import client_for
from tests.game_viewers import confirming_table
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
ANN, CAT, EVE, DAN = range(4)  # seats; Ann & Eve are side 0, Cat & Dan side 1


def hand_data(bidder: int, **extra: str) -> dict[str, str]:
    """`bidder` bids 8 and the bidding side takes 6 tricks and the five of hearts, the other
    side 2 tricks and the three of spades (+11 and -1): a game to 52 lasts five such hands
    by one side, and eight or more when the sides take turns."""
    side = bidder % 2
    return {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": str(bidder),
        "bid": "8",
        "kind": "trump",
        "tricks_bidder": "6",
        "five_hearts": str(side),
        "three_spades": str(1 - side),
        **extra,
    }


def _user(name: str):
    return get_user_model().objects.create_user(name, password="correct-horse-battery")


@pytest.fixture
def table(club, alice, bob):
    """A 4-seat game of a club that turned confirmation on through its settings, with every
    identity of the table: {name: Client or None}, and the game."""
    game, token, dave = confirming_table(club, alice, bob)
    erin = _user("erin")
    Membership.objects.create(club=club, user=erin, role=Role.MEMBER)

    def phone(seat: int | None) -> Client:
        client = Client()
        client.get(reverse("game_table_join", args=[token]))
        if seat is not None:
            claimed = client.post(reverse("game_seat_claim", args=[game.pk]), {"seat": seat})
            assert claimed.status_code == 303
        return client

    who = {
        "owner (not seated)": client_for(alice),
        "member seated on side 0 (Ann)": client_for(dave),
        "member seated on side 1 (Cat)": client_for(bob),
        "member not seated": client_for(erin),
        "outsider": client_for(_user("charlie")),
        "anonymous": Client(),
        # Ann's phone claims her seat with the first hand it enters (below).
        "entering phone (Ann, side 0)": phone(None),
        "partner's phone (Eve, side 0)": phone(EVE),
        "other side's phone (Dan, side 1)": phone(DAN),
        "phone with no claim": phone(None),
    }
    return game, who


ROW = re.compile(r'<tr class="[^"]*" id="hand-(\d+)">(.*?)</tr>', re.S)
CONFIRM_FORM = re.compile(
    r'<form method="post" action="([^"]+)" hx-post="[^"]+" [^>]*class="confirm">(.*?)</form>', re.S
)


def offered(client: Client, game: Game) -> set[int] | None:
    """The hands the sheet offers this viewer a ✓ for (None: the sheet is not theirs to see).
    Each ✓ is a real form on its hand's own row, posting to that hand's confirmation, with a
    submit button (no JavaScript needed)."""
    response = client.get(reverse("game_sheet", args=[game.pk]))
    if response.status_code != 200:
        return None
    page = response.content.decode()
    found = set()
    for number, row in ROW.findall(page):
        for action, form in CONFIRM_FORM.findall(row):
            assert action == reverse("hand_confirm", args=[game.pk, int(number)])
            assert '<button type="submit"' in form and "csrfmiddlewaretoken" in form
            found.add(int(number))
    # No ✓ anywhere but on a hand's row.
    assert page.count('class="confirm"') == len(found)
    return found


class _Undo(Exception):
    pass


def accepted(client: Client, game: Game, number: int) -> bool:
    """Whether the server takes this viewer's confirmation of hand `number` (a plain post, as
    without JavaScript), tried and then rolled back so every viewer meets the same sheet."""
    url = reverse("hand_confirm", args=[game.pk, number])
    try:
        with transaction.atomic():
            response = client.post(url)
            confirmed = Hand.objects.get(game=game, number=number).confirmed_at is not None
            raise _Undo(response.status_code, confirmed)
    except _Undo as undo:
        status, confirmed = undo.args
    if confirmed:
        assert status == 303, status
        return True
    assert status in (403, 404), status  # refused, the sheet saying why, or not theirs at all
    return False


def enter(client: Client, game: Game, bidder: int, **extra: str) -> None:
    response = client.post(reverse("hand_submit", args=[game.pk]), hand_data(bidder, **extra))
    # On a refusal, say what the sheet said (its text without the markup).
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert response.status_code == 303, text[-800:]


def unconfirmed(game: Game) -> set[int]:
    return set(game.hands.filter(confirmed_at__isnull=True).values_list("number", flat=True))


# --- Case 2: who is offered the ✓, and whose confirmation the server takes --------------------


def test_the_entering_phone_gets_no_tick_and_the_other_side_confirms_every_hand(table) -> None:
    game, who = table
    entering = who["entering phone (Ann, side 0)"]
    # Ann's phone enters six hands; the bidders alternate between the sides (the ✓ used to
    # follow the bidder's opponents, while the server checked the side that entered).
    enter(entering, game, ANN, entered_as=str(ANN))
    for number in range(2, 7):
        enter(entering, game, (ANN, CAT, EVE, DAN)[number % 4])
    assert set(game.hands.values_list("entered_seat", flat=True)) == {ANN}
    everything = {1, 2, 3, 4, 5, 6}
    assert unconfirmed(game) == everything

    assert offered(entering, game) == set()
    assert not any(accepted(entering, game, n) for n in everything)
    refused = entering.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert refused.status_code == 403 and refused.json()["status"] == "forbidden"
    assert refused.json()["message"] == (
        "Your side entered this hand: a player of the other side confirms it."
    )
    page = entering.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="confirm-hint"' not in page
    for name in ("other side's phone (Dan, side 1)", "member seated on side 1 (Cat)"):
        assert offered(who[name], game) == everything, name
        assert all(accepted(who[name], game, n) for n in everything), name

    # Dan's phone confirms them all, as a phone without JavaScript would (303 to the sheet).
    dan = who["other side's phone (Dan, side 1)"]
    page = dan.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "you confirm as Dan." in page
    for number in sorted(everything):
        response = dan.post(reverse("hand_confirm", args=[game.pk, number]))
        assert response.status_code == 303 and response["Location"].endswith(
            reverse("game_sheet", args=[game.pk])
        )
    assert unconfirmed(game) == set()
    assert set(game.hands.values_list("confirmed_by_name", flat=True)) == {"Dan"}
    assert offered(dan, game) == set()
    page = dan.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "not confirmed yet" not in page and page.count('class="ok"') == 6


def test_the_sheet_offers_exactly_the_ticks_the_server_accepts_for_every_identity(table) -> None:
    game, who = table
    # Hand 1 from Ann's phone (side 0 entered it), hand 2 from Bob's account, seated as Cat
    # (side 1 entered it), hand 3 from the owner's account, not seated (nobody seated did).
    enter(who["entering phone (Ann, side 0)"], game, ANN, entered_as=str(ANN))
    enter(who["member seated on side 1 (Cat)"], game, CAT)
    enter(who["owner (not seated)"], game, EVE)
    assert list(game.hands.order_by("number").values_list("entered_seat", flat=True)) == [
        ANN,
        CAT,
        None,
    ]
    expected = {
        "owner (not seated)": set(),
        "member seated on side 0 (Ann)": {2, 3},
        "member seated on side 1 (Cat)": {1, 3},
        "member not seated": set(),
        "outsider": None,
        "anonymous": None,
        "entering phone (Ann, side 0)": {2, 3},
        "partner's phone (Eve, side 0)": {2, 3},
        "other side's phone (Dan, side 1)": {1, 3},
        "phone with no claim": set(),
    }
    for name, client in who.items():
        shown = offered(client, game)
        assert shown == expected[name], name
        taken = {n for n in (1, 2, 3) if accepted(client, game, n)}
        assert taken == (shown or set()), name
    # The phone with no seat is asked who holds it; the seated are not.
    page = who["phone with no claim"].get(reverse("game_sheet", args=[game.pk])).content
    assert b'id="seat-claim"' in page
    page = who["member seated on side 1 (Cat)"].get(reverse("game_sheet", args=[game.pk])).content
    assert b'id="seat-claim"' not in page
    assert unconfirmed(game) == {1, 2, 3}


def test_a_confirmed_hand_offers_no_more_ticks_and_a_second_confirmation_changes_nothing(
    table,
) -> None:
    game, who = table
    enter(who["entering phone (Ann, side 0)"], game, ANN, entered_as=str(ANN))
    bob = who["member seated on side 1 (Cat)"]
    assert bob.post(reverse("hand_confirm", args=[game.pk, 1])).status_code == 303
    hand = Hand.objects.get(game=game, number=1)
    assert hand.confirmed_by_name == "Cat"
    dan = who["other side's phone (Dan, side 1)"]
    assert offered(dan, game) == set() and offered(bob, game) == set()
    again = dan.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert again.status_code == 200 and again.json()["by"] == "Cat"
    assert Hand.objects.get(game=game, number=1).confirmed_at == hand.confirmed_at


def test_the_sheet_of_a_phone_that_may_confirm_costs_few_queries(
    table, django_assert_max_num_queries
) -> None:
    game, who = table
    entering = who["entering phone (Ann, side 0)"]
    enter(entering, game, ANN, entered_as=str(ANN))
    dan = who["other side's phone (Dan, side 1)"]
    dan.get(reverse("game_sheet", args=[game.pk]))
    counts = []
    for hands in (1, 8):
        while game.hands.count() < hands:
            enter(entering, game, (ANN, CAT)[game.hands.count() % 2])
        # Each sheet drawn anew (none kept by this process): the hands read each time.
        sheet_cache.forget_all()
        with django_assert_max_num_queries(6) as queries:  # 6 measured
            assert offered(dan, game) == set(range(1, hands + 1))
        counts.append(len(queries))
    assert counts[0] == counts[1]  # one ✓ or eight: the same reads


# --- A game whose every hand is confirmed counts -----------------------------------------------


def test_a_fully_confirmed_game_counts_in_the_season_standings(
    table, as_bob, django_capture_on_commit_callbacks
) -> None:
    game, who = table
    season = Season.objects.create(
        club=game.club, name="2026-27", starts_on=datetime.date(2026, 9, 1)
    )
    Game.objects.filter(pk=game.pk).update(season=season)
    entering = who["entering phone (Ann, side 0)"]
    with django_capture_on_commit_callbacks(execute=True):
        enter(entering, game, ANN, entered_as=str(ANN))
        while not Game.objects.get(pk=game.pk).is_finished:
            assert game.hands.count() < 20
            enter(entering, game, ANN)
    game.refresh_from_db()
    assert game.is_finished and game.winner == 0
    assert not counted_games_qs(game.club, season).exists()
    assert Game.objects.filter(pk=game.pk).awaiting_confirmation().exists()
    assert not PlayerStanding.objects.filter(season=season, games__gt=0).exists()
    dan = who["other side's phone (Dan, side 1)"]
    numbers = sorted(unconfirmed(game))
    with django_capture_on_commit_callbacks(execute=True):
        for number in numbers:
            assert dan.post(reverse("hand_confirm", args=[game.pk, number])).status_code == 303
            # Until the last one, the game waits.
            counted = Game.objects.filter(pk=game.pk).counted().exists()
            assert counted == (number == numbers[-1])
    assert list(counted_games_qs(game.club, season)) == [game]
    # The last confirmation queued the rebuild (eager here): the standings count the game.
    standings = {row.player.name: row for row in PlayerStanding.objects.filter(season=season)}
    assert {name: row.games for name, row in standings.items()} == {
        "Ann": 1,
        "Cat": 1,
        "Eve": 1,
        "Dan": 1,
    }
    assert standings["Ann"].wins == 1 and standings["Cat"].wins == 0
    page = as_bob.get(reverse("standings", args=[game.club.slug])).content.decode()
    assert "Ann" in page and "Dan" in page


# --- Turning confirmation on and off -------------------------------------------------------------


@pytest.fixture
def five_finished(club, players):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 1, 1))
    ann, cat, bob, dan = players
    for n in range(5):
        play(club, season, [ann, cat, bob, dan], GAME_1 if n % 2 == 0 else GAME_2)
    assert Game.objects.filter(club=club, status="finished").count() == 5
    rebuild.standings_rebuild(season_id=season.pk)
    return season


def _games_counted(season) -> dict[str, int]:
    return {
        row.player.name: row.games
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }


def test_turning_confirmation_on_keeps_the_finished_games_counting(
    club, players, five_finished, as_alice, django_capture_on_commit_callbacks
) -> None:
    season = five_finished
    before = _games_counted(season)
    assert before == {"Ann": 5, "Cat": 5, "Bob": 5, "Dan": 5}
    assert counted_games_qs(club, season).count() == 5
    # A game in progress when confirmation is turned on.
    ann, cat, bob, dan = players
    playing = play(club, season, [ann, cat, bob, dan], GAME_1[:3])
    url = reverse("club_settings", args=[club.slug])
    data = {"name": club.name, "hands_need_confirmation": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        assert as_alice.post(url, data).status_code == 302
    club.refresh_from_db()
    assert club.hands_need_confirmation and club.confirmation_since is not None
    assert counted_games_qs(club, season).count() == 5
    assert not Game.objects.filter(club=club, status="finished").awaiting_confirmation().exists()
    assert _games_counted(season) == before  # rebuilt, and the same
    # The game in progress finishes after the switch: it waits for its confirmations.
    for hand in GAME_1[3:]:
        from scorecards.services import hand_record

        hand_record(game=playing, hand=hand)
    playing.refresh_from_db()
    assert playing.is_finished
    assert counted_games_qs(club, season).count() == 5
    assert Game.objects.filter(pk=playing.pk).awaiting_confirmation().exists()
    playing.hands.update(confirmed_at=timezone.now(), confirmed_by_name="Cat")
    assert counted_games_qs(club, season).count() == 6


def test_saving_the_settings_again_keeps_since_when_and_turning_off_clears_it(club) -> None:
    def save(on: bool) -> None:
        club_settings_update(
            club=club, name=club.name, standings_public=False, hands_need_confirmation=on
        )
        club.refresh_from_db()

    save(True)
    since = club.confirmation_since
    assert since is not None and timezone.now() - since < datetime.timedelta(minutes=1)
    save(True)
    assert club.confirmation_since == since  # still on: games finished since still wait
    save(False)
    assert club.confirmation_since is None and not club.hands_need_confirmation


def test_with_confirmation_off_every_finished_game_counts_again(club, five_finished) -> None:
    season = five_finished
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    # Games finished after the switch (here: the five moved after it) wait for confirmation...
    Game.objects.filter(club=club).update(finished_at=timezone.now() + datetime.timedelta(hours=1))
    assert counted_games_qs(club, season).count() == 0
    # ...until the club turns it off.
    club.refresh_from_db()
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=False
    )
    assert counted_games_qs(club, season).count() == 5


def test_the_settings_page_says_what_turning_confirmation_on_will_do(
    club, players, five_finished, as_alice, django_assert_max_num_queries
) -> None:
    ann, cat, bob, dan = players
    play(club, five_finished, [ann, cat, bob, dan], GAME_1[:2])  # one game in progress
    url = reverse("club_settings", args=[club.slug])
    with django_assert_max_num_queries(6):  # 5 measured
        page = as_alice.get(url).content.decode()
    assert "Turning this on: games already finished keep counting." in page
    assert "1 game is in progress now." in page
    assert (
        "Games in progress and new games count in the standings once a player of the other "
        "side has confirmed every hand." in page
    )
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    page = as_alice.get(url).content.decode()
    assert "Hands need confirming since" in page
    assert "Turning this off: every finished game counts, confirmed or not." in page


@pytest.mark.parametrize(
    ("who", "status"),
    [("as_alice", 200), ("as_bob", 403), ("as_charlie", 404), ("client", 302)],
)
def test_only_the_owner_sees_the_settings_page(request, club, who, status) -> None:
    client = request.getfixturevalue(who)
    response = client.get(reverse("club_settings", args=[club.slug]))
    assert response.status_code == status
    if status == 200:
        assert b"Turning this on" in response.content


def test_a_game_finished_before_confirmation_was_turned_on_asks_nothing_on_its_sheet(
    club, players, five_finished, as_bob
) -> None:
    game = Game.objects.filter(club=club).first()
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "unconfirmed" not in page and "not confirmed yet" not in page
    assert 'class="confirm"' not in page and 'id="seat-claim"' not in page
    # A game started after the switch asks it.
    ann, cat, bob, dan = players
    later = play(club, five_finished, [ann, cat, bob, dan], GAME_1[:1])
    page = as_bob.get(reverse("game_sheet", args=[later.pk])).content.decode()
    assert "not confirmed yet" in page
