"""A night called off: cancelled while none of its games has finished (tables still playing are
abandoned with the reason "Night cancelled", the night takes no more draws), or deleted while no
table has a hand. The page and its two buttons for owner (alice), director (diana), member
(bob), outsider (charlie), ex-member (erin) and a signed-out visitor, GET and POST, with query
counts; every button offered is accepted for who is shown it."""

from __future__ import annotations

import datetime
import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.clubs.models import Membership
from leagues.clubs.roles import Role
from leagues.demo import plausible_hand
from leagues.tournaments.lifecycle import night_fate, tournament_cancel, tournament_delete
from leagues.tournaments.models import RoundStatus, Tournament, TournamentStatus
from leagues.tournaments.services import (
    TournamentError,
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import Game, GameStatus
from scorecards.rules import HandInput
from scorecards.services import GameClosed, hand_record
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

HAND = HandInput(bidder=0, bid=7, kind="trump", tricks=(4, 4), five_hearts=0, three_spades=1)


@pytest.fixture
def diana(club):
    user = get_user_model().objects.create_user("diana", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    return user


@pytest.fixture
def erin(club, alice):
    """A member who was removed from the club."""
    from leagues.clubs.services import membership_remove

    user = get_user_model().objects.create_user("erin", password=PASSWORD)
    membership = Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    membership_remove(membership=membership, by=alice)
    return user


def _night(club, players=8, name="Friday"):
    night = tournament_create(
        club=club, name=name, date=datetime.date(2026, 11, 20), rounds=3, hands_per_round=4
    )
    for i in range(players):
        entry_register(tournament=night, player=f"P{i:02d}", checked_in=True)
    return night


def _clients(request, who: str):
    if who == "anonymous":
        return client_for(None)
    return client_for(request.getfixturevalue(who))


# Who may see the page and use its buttons: owner and director; a member is refused (403), an
# outsider and an ex-member see no such night (404), a signed-out visitor goes to log in.
WHO = [
    ("alice", 200),
    ("diana", 200),
    ("bob", 403),
    ("charlie", 404),
    ("erin", 404),
    ("anonymous", 302),
]


# --- The night as a director sees it -----------------------------------------------------------


def test_cancel_abandons_the_tables_still_playing_and_stops_the_night(club, alice) -> None:
    night = _night(club)
    made = round_draw(tournament=night, by=alice)
    hand_record(game=made.tables[0].game, hand=HAND)
    tournament_cancel(tournament=night, by=alice)
    night.refresh_from_db()
    assert night.status == TournamentStatus.CANCELLED
    assert night.round_set.get().status == RoundStatus.CLOSED
    for table in made.tables:
        table.game.refresh_from_db()
        assert table.game.status == GameStatus.ABANDONED
        assert table.game.abandon_reason == "Night cancelled"
    assert not Game.objects.counted().filter(club=club).exists()
    # No more draws, registrations or hands; the night never turns "finished".
    with pytest.raises(TournamentError, match="cancelled"):
        round_draw(tournament=night, by=alice)
    with pytest.raises(TournamentError, match="cancelled"):
        entry_register(tournament=night, player="Late", checked_in=True)
    with pytest.raises(TournamentError, match="cancelled"):
        tournament_finish(tournament=night)
    with pytest.raises(GameClosed):
        hand_record(game=made.tables[0].game, hand=HAND)
    # Cancelling again says so.
    with pytest.raises(TournamentError, match="cancelled already"):
        tournament_cancel(tournament=night, by=alice)


def test_a_night_with_a_finished_game_is_not_cancelled(club, alice) -> None:
    night = _night(club)
    made = round_draw(tournament=night, by=alice)
    hand_record(game=made.tables[0].game, hand=HAND)
    round_close(round=made.round)  # the table with a hand finishes by the round: it counts
    with pytest.raises(TournamentError, match=r"round 1, table 1.*End the night instead"):
        tournament_cancel(tournament=night, by=alice)
    night.refresh_from_db()
    assert night.status == TournamentStatus.RUNNING
    tournament_finish(tournament=night)
    with pytest.raises(TournamentError, match="over and its games count"):
        tournament_cancel(tournament=night, by=alice)


def test_delete_only_while_no_table_has_a_hand(club, alice) -> None:
    night = _night(club)
    made = round_draw(tournament=night, by=alice)
    game = made.tables[1].game
    hand_record(game=game, hand=HAND)
    with pytest.raises(TournamentError, match=r"round 1, table 2.*Cancel it instead"):
        tournament_delete(tournament=night, by=alice)
    tournament_cancel(tournament=night, by=alice)
    with pytest.raises(TournamentError, match=r"can no longer be deleted\.$"):
        tournament_delete(tournament=night, by=alice)
    assert Tournament.objects.filter(pk=night.pk).exists()

    empty = _night(club, name="Saturday")
    drawn = round_draw(tournament=empty, by=alice)
    ids = [table.game.pk for table in drawn.tables]
    assert tournament_delete(tournament=empty, by=alice) == 2
    assert not Tournament.objects.filter(pk=empty.pk).exists()
    assert not Game.objects.filter(pk__in=ids).exists()
    assert club.players.filter(name="P00").exists()  # the night's players stay in the club


def test_only_owners_and_directors_call_a_night_off(club, alice, bob, diana, erin) -> None:
    night = _night(club)
    round_draw(tournament=night, by=alice)
    for user in (bob, erin, None):
        with pytest.raises(TournamentError, match="owner or a director"):
            tournament_cancel(tournament=night, by=user)
        with pytest.raises(TournamentError, match="owner or a director"):
            tournament_delete(tournament=night, by=user)
    tournament_cancel(tournament=night, by=diana)
    tournament_delete(tournament=night, by=diana)
    assert not Tournament.objects.filter(pk=night.pk).exists()


# --- The page and its buttons, for each identity ----------------------------------------------


@pytest.mark.parametrize(("who", "status"), WHO)
def test_call_off_page_for_each_identity(request, club, alice, who, status) -> None:
    night = _night(club)
    round_draw(tournament=night, by=alice)
    response = _clients(request, who).get(reverse("tournament_call_off", args=[night.pk]))
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))
    detail = _clients(request, who).get(night.get_absolute_url())
    link = reverse("tournament_call_off", args=[night.pk])
    if status == 200:
        page = response.content.decode()
        assert 'id="cancel-night"' in page and 'id="delete-night"' in page
        assert link in detail.content.decode()
    elif detail.status_code == 200:
        assert link not in detail.content.decode()


@pytest.mark.parametrize(("who", "status"), WHO)
def test_cancel_post_for_each_identity(request, club, alice, who, status) -> None:
    night = _night(club)
    made = round_draw(tournament=night, by=alice)
    hand_record(game=made.tables[0].game, hand=HAND)
    client = _clients(request, who)
    response = client.post(reverse("tournament_cancel", args=[night.pk]))
    expected = 302 if status == 200 else status
    assert response.status_code == expected
    night.refresh_from_db()
    made.tables[0].game.refresh_from_db()
    if status == 200:
        assert response["Location"] == night.get_absolute_url()
        assert night.status == TournamentStatus.CANCELLED
        assert made.tables[0].game.status == GameStatus.ABANDONED
        page = client.get(night.get_absolute_url()).content.decode()
        assert "Cancelled" in page
        assert "The night is cancelled: none of its games counts." in page
        assert 'id="draw"' not in page and 'id="register"' not in page
    else:
        assert night.status == TournamentStatus.RUNNING
        assert made.tables[0].game.status == GameStatus.IN_PROGRESS


@pytest.mark.parametrize(("who", "status"), WHO)
def test_delete_post_for_each_identity(request, club, alice, who, status) -> None:
    night = _night(club)
    round_draw(tournament=night, by=alice)
    response = _clients(request, who).post(reverse("tournament_delete", args=[night.pk]))
    assert response.status_code == (302 if status == 200 else status)
    gone = not Tournament.objects.filter(pk=night.pk).exists()
    assert gone == (status == 200)
    if status == 200:
        assert response["Location"] == reverse("tournament_list", args=[club.slug])


def test_refusals_are_shown_and_no_refused_button_is_offered(as_alice, club, alice) -> None:
    night = _night(club)
    made = round_draw(tournament=night, by=alice)
    hand_record(game=made.tables[0].game, hand=HAND)
    url = reverse("tournament_call_off", args=[night.pk])
    page = as_alice.get(url).content.decode()
    # Cancel is allowed (nothing finished), delete is not (a hand was played).
    assert 'id="cancel-night"' in page and 'id="delete-night"' not in page
    assert "Hands were played at round 1, table 1" in page
    assert "2 tables still playing are abandoned" in page
    refused = as_alice.post(reverse("tournament_delete", args=[night.pk]))
    assert refused.status_code == 409
    assert "Hands were played at round 1, table 1" in refused.content.decode()
    round_close(round=made.round)
    page = as_alice.get(url).content.decode()
    assert 'id="cancel-night"' not in page and 'id="delete-night"' not in page
    assert "End the night instead" in page
    refused = as_alice.post(reverse("tournament_cancel", args=[night.pk]))
    assert refused.status_code == 409 and "End the night instead" in refused.content.decode()
    night.refresh_from_db()
    assert night.status == TournamentStatus.RUNNING


def test_finish_on_a_cancelled_night_is_refused_not_a_500(as_alice, club, alice) -> None:
    night = _night(club)
    round_draw(tournament=night, by=alice)
    tournament_cancel(tournament=night, by=alice)
    response = as_alice.post(reverse("tournament_finish", args=[night.pk]), follow=True)
    assert response.status_code == 200
    assert "This night was cancelled." in response.content.decode()
    night.refresh_from_db()
    assert night.status == TournamentStatus.CANCELLED


def test_call_off_page_queries_do_not_grow(
    as_alice, club, alice, django_assert_max_num_queries
) -> None:
    small = _night(club, 4, name="Small")
    round_draw(tournament=small, by=alice)
    with CaptureQueriesContext(connection) as few:
        assert as_alice.get(reverse("tournament_call_off", args=[small.pk])).status_code == 200
    big = _night(club, 40, name="Big")
    rng = random.Random(3)
    for _ in range(2):
        made = round_draw(tournament=big, by=alice, confirm=True)
        for table in made.tables[:3]:
            hand_record(game=table.game, hand=plausible_hand(rng, table.game.rules_value))
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert as_alice.get(reverse("tournament_call_off", args=[big.pk])).status_code == 200
    assert len(few.captured_queries) <= 8


def test_the_fate_reads_in_one_query(club, alice, django_assert_num_queries) -> None:
    night = _night(club, 16)
    round_draw(tournament=night, by=alice)
    with django_assert_num_queries(1):
        fate = night_fate(night)
    assert fate.tables == fate.in_progress == 4 and fate.can_cancel and fate.can_delete
