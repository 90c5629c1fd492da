"""The policy of clubs, seasons, players, nights and rounds (`leagues.clubs.policy`): a table of
`decide` cases (owner, director, scorer, member, ex-member, outsider x action x state), then a
walk through the real pages and forms: for each identity and each state of a night, and for
each identity and each member of a club, the page offers a form exactly when the server
accepts its POST. And a removed member loses the table links and seat claims they held."""

from __future__ import annotations

import dataclasses
import datetime
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leagues.clubs.models import Membership
from leagues.clubs.policy import Actor, may
from leagues.clubs.policy.clubs import UNCHANGED, ClubFacts, MemberFacts, PlayerFacts, SeasonFacts
from leagues.clubs.policy.nights import EntryFacts, NightFacts, RoundFacts
from leagues.clubs.roles import (
    CLUB_DELETE,
    MEMBER_REMOVE,
    MEMBER_ROLE_SET,
    NIGHT_CANCEL,
    NIGHT_CHECK_IN,
    NIGHT_DELETE,
    NIGHT_DRAW,
    NIGHT_FINISH,
    NIGHT_REGISTER,
    NIGHT_WITHDRAW,
    PLAYERS_MERGE,
    ROUND_CLOSE,
    SEASON_CLOSE,
    SEASON_DELETE,
    SEASON_EDIT,
    SEASON_REOPEN,
    Role,
)
from leagues.clubs.services import membership_remove
from leagues.tournaments.lifecycle import tournament_cancel
from leagues.tournaments.models import RoundStatus, Tournament, TournamentEntry
from leagues.tournaments.services import (
    TournamentError,
    entry_check_in,
    entry_register,
    entry_withdraw,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.access import SESSION_TABLE_TOKENS
from scorecards.models import SeatClaim
from scorecards.services import game_start, game_token_issue
from tests.conftest import PASSWORD, client_for

OWNER = Actor(user_id=1, role=Role.OWNER)
DIRECTOR = Actor(user_id=2, role=Role.DIRECTOR)
SCORER = Actor(user_id=3, role=Role.SCORER)
MEMBER = Actor(user_id=4, role=Role.MEMBER)
EX_MEMBER = Actor(user_id=5)  # removed: the server reads no role for them now
OUTSIDER = Actor()
PEOPLE = {
    "owner": OWNER,
    "director": DIRECTOR,
    "scorer": SCORER,
    "member": MEMBER,
    "ex-member": EX_MEMBER,
    "outsider": OUTSIDER,
}
STAFF = {"owner", "director"}


def _night(**changes: Any) -> NightFacts:
    base = NightFacts(
        club_id=1, over="", running=True, rounds_planned=3, rounds_drawn=1, round_open=True
    )
    return dataclasses.replace(base, **changes)


REGISTRATION = _night(running=False, rounds_drawn=0, round_open=False)
RUNNING = _night()
BETWEEN_ROUNDS = _night(round_open=False)
LAST_ROUND = _night(rounds_drawn=3)
ROUND_ROBIN = _night(late_arrivals=False)
ENDED = _night(over="The tournament is over.", running=False, round_open=False)
CANCELLED = _night(over="This night was cancelled.", running=False, round_open=False)
HAS_HANDS = _night(delete_refusal="Hands were played.")
CANCEL_REFUSED = _night(cancel_refusal="A game of this night has finished.")

# (facts, action, who may: the people allowed; everyone else is refused)
NIGHT_CASES: list[tuple[Any, str, set[str]]] = [
    (REGISTRATION, NIGHT_REGISTER, STAFF),
    (RUNNING, NIGHT_REGISTER, STAFF),  # a late arrival
    (ROUND_ROBIN, NIGHT_REGISTER, set()),
    (ENDED, NIGHT_REGISTER, set()),
    (CANCELLED, NIGHT_REGISTER, set()),
    (REGISTRATION, NIGHT_DRAW, STAFF),
    (RUNNING, NIGHT_DRAW, STAFF),
    (LAST_ROUND, NIGHT_DRAW, set()),
    (ENDED, NIGHT_DRAW, set()),
    (CANCELLED, NIGHT_DRAW, set()),
    (REGISTRATION, NIGHT_FINISH, set()),
    (RUNNING, NIGHT_FINISH, STAFF),
    (ENDED, NIGHT_FINISH, set()),
    (CANCELLED, NIGHT_FINISH, set()),
    (RUNNING, NIGHT_CANCEL, STAFF),
    (CANCEL_REFUSED, NIGHT_CANCEL, set()),
    (RUNNING, NIGHT_DELETE, STAFF),
    (HAS_HANDS, NIGHT_DELETE, set()),
    (ENDED, NIGHT_DELETE, STAFF),  # a night without a hand goes whatever its state
    (RUNNING, "hand_enter", set()),  # not a night's action
]
ENTRY_CASES = [
    (EntryFacts(REGISTRATION, withdrawn=False), NIGHT_CHECK_IN, STAFF),
    (EntryFacts(RUNNING, withdrawn=False), NIGHT_CHECK_IN, STAFF),
    (EntryFacts(RUNNING, withdrawn=True), NIGHT_CHECK_IN, set()),
    (EntryFacts(ENDED, withdrawn=False), NIGHT_CHECK_IN, set()),
    (EntryFacts(CANCELLED, withdrawn=False), NIGHT_CHECK_IN, set()),
    (EntryFacts(RUNNING, withdrawn=False), NIGHT_WITHDRAW, STAFF),
    (EntryFacts(RUNNING, withdrawn=True), NIGHT_WITHDRAW, set()),
    (EntryFacts(ENDED, withdrawn=False), NIGHT_WITHDRAW, set()),
    (EntryFacts(CANCELLED, withdrawn=False), NIGHT_WITHDRAW, set()),
]
ROUND_CASES = [
    (RoundFacts(RUNNING, open=True), ROUND_CLOSE, STAFF),
    (RoundFacts(BETWEEN_ROUNDS, open=False), ROUND_CLOSE, set()),
    (RoundFacts(ENDED, open=False), ROUND_CLOSE, set()),
    (RoundFacts(CANCELLED, open=False), ROUND_CLOSE, set()),
]
OPEN_SEASON = SeasonFacts(club_id=1, closed=False)
CLOSED_SEASON = SeasonFacts(club_id=1, closed=True)
BUSY_SEASON = SeasonFacts(club_id=1, closed=False, close_refusal="busy", delete_refusal="holds")
CLUB_CASES = [
    (OPEN_SEASON, SEASON_EDIT, STAFF),
    (CLOSED_SEASON, SEASON_EDIT, set()),
    (OPEN_SEASON, SEASON_CLOSE, STAFF),
    (BUSY_SEASON, SEASON_CLOSE, set()),
    (CLOSED_SEASON, SEASON_CLOSE, set()),
    (CLOSED_SEASON, SEASON_REOPEN, {"owner"}),
    (OPEN_SEASON, SEASON_REOPEN, set()),
    (OPEN_SEASON, SEASON_DELETE, STAFF),
    (CLOSED_SEASON, SEASON_DELETE, STAFF),
    (BUSY_SEASON, SEASON_DELETE, set()),
    (ClubFacts(club_id=1), CLUB_DELETE, {"owner"}),
    (PlayerFacts(club_id=1), PLAYERS_MERGE, STAFF),
    (PlayerFacts(club_id=1, merge_refusal="sat together"), PLAYERS_MERGE, set()),
    # Members: a role change is the owners'; removing, owners anyone, directors anyone but
    # an owner; the last owner stays whoever asks.
    (MemberFacts(1, Role.MEMBER, 1, Role.SCORER), MEMBER_ROLE_SET, {"owner"}),
    (MemberFacts(1, Role.OWNER, 0, Role.DIRECTOR), MEMBER_ROLE_SET, set()),
    (MemberFacts(1, Role.OWNER, 1, Role.DIRECTOR), MEMBER_ROLE_SET, {"owner"}),
    (MemberFacts(1, Role.MEMBER, 1), MEMBER_REMOVE, STAFF),
    (MemberFacts(1, Role.DIRECTOR, 1), MEMBER_REMOVE, STAFF),
    (MemberFacts(1, Role.OWNER, 1), MEMBER_REMOVE, {"owner"}),
    (MemberFacts(1, Role.OWNER, 0), MEMBER_REMOVE, set()),
    (MemberFacts(1, None, 1), MEMBER_REMOVE, set()),  # removed a moment ago
]


@pytest.mark.parametrize("facts, action, allowed", NIGHT_CASES + ENTRY_CASES + ROUND_CASES)
@pytest.mark.parametrize("who", list(PEOPLE))
def test_night_decisions(facts, action, allowed, who) -> None:
    decision = may(PEOPLE[who], action, facts)
    assert bool(decision) == (who in allowed), (who, action, facts)
    if not decision:
        assert decision.reason and decision.status


@pytest.mark.parametrize("facts, action, allowed", CLUB_CASES)
@pytest.mark.parametrize("who", list(PEOPLE))
def test_club_season_player_member_decisions(facts, action, allowed, who) -> None:
    decision = may(PEOPLE[who], action, facts)
    assert bool(decision) == (who in allowed), (who, action, facts)
    if not decision:
        assert decision.reason and decision.status


def test_an_ended_night_says_why_and_a_repeat_changes_nothing() -> None:
    assert may(DIRECTOR, NIGHT_CHECK_IN, EntryFacts(ENDED, False)).reason == ENDED.over
    assert may(OWNER, SEASON_CLOSE, CLOSED_SEASON).status == UNCHANGED
    assert may(DIRECTOR, NIGHT_WITHDRAW, EntryFacts(RUNNING, True)).status == UNCHANGED
    # Power first: a member hears about their role, not about the night.
    assert "owner or a director" in may(MEMBER, NIGHT_CHECK_IN, EntryFacts(ENDED, False)).reason


# --- The pages offer exactly what the server accepts -------------------------------------------


def _user(club, name: str, role: str | None):
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    if role is not None:
        Membership.objects.create(club=club, user=user, role=role)
    return user


@pytest.fixture
def people(club, alice, bob, charlie) -> dict:
    """Owner alice, director diana, scorer sam, member bob, outsider charlie, ex-member erin."""
    erin = _user(club, "erin", Role.MEMBER)
    membership_remove(membership=Membership.objects.get(user=erin), by=alice)
    return {
        "alice": alice,
        "diana": _user(club, "diana", Role.DIRECTOR),
        "sam": _user(club, "sam", Role.SCORER),
        "bob": bob,
        "charlie": charlie,
        "erin": erin,
    }


NIGHT_ACTIONS = [
    "register",
    "check_in",
    "withdraw",
    "draw",
    "close_round",
    "finish",
    "cancel",
    "delete",
]
NIGHT_STATES = ["registration", "round_open", "round_closed", "ended", "cancelled"]


def _night_in(club, state: str, alice) -> tuple[Tournament, TournamentEntry]:
    """A night of 4 players in `state`, and one more player registered but not here."""
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), rounds=3, hands_per_round=4
    )
    for i in range(4):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    away = entry_register(tournament=night, player="Away")[0]
    if state != "registration":
        made = round_draw(tournament=night, by=alice)
        if state == "round_closed":
            round_close(round=made.round, by=alice)
        elif state == "ended":
            tournament_finish(tournament=night, by=alice)
        elif state == "cancelled":
            tournament_cancel(tournament=night, by=alice)
    night.refresh_from_db()
    return night, away


def _forms(client, urls: list[str]) -> set[str]:
    """Every form action on the pages `urls` (those the client may see)."""
    actions: set[str] = set()
    for url in urls:
        response = client.get(url)
        if response.status_code == 200:
            actions.update(re.findall(r'<form[^>]*action="([^"]+)"', response.content.decode()))
    return actions


def _night_actions(night: Tournament, away: TournamentEntry) -> dict[str, tuple[str, dict]]:
    current = night.round_set.order_by("-number").first()
    number = current.number if current else 1
    return {
        "register": (reverse("tournament_entry_add", args=[night.pk]), {"name": "Walk In"}),
        "check_in": (
            reverse("tournament_entry_check_in", args=[night.pk, away.pk]),
            {"checked_in": "1"},
        ),
        "withdraw": (reverse("tournament_entry_withdraw", args=[night.pk, away.pk]), {}),
        "draw": (
            reverse("tournament_draw", args=[night.pk]),
            {"number": night.round_set.count() + 1, "confirm": "1"},
        ),
        "close_round": (reverse("tournament_round_close", args=[night.pk, number]), {}),
        "finish": (reverse("tournament_finish", args=[night.pk]), {}),
        "cancel": (reverse("tournament_cancel", args=[night.pk]), {}),
        "delete": (reverse("tournament_delete", args=[night.pk]), {}),
    }


def _night_picture(night_id: int, away_id: int) -> tuple:
    night = Tournament.objects.filter(pk=night_id).first()
    if night is None:
        return ("gone",)
    away = TournamentEntry.objects.get(pk=away_id)
    return (
        night.status,
        night.entries.count(),
        away.checked_in,
        away.last_round,
        night.round_set.count(),
        night.round_set.filter(status=RoundStatus.PLAYING).count(),
    )


WHO = ["alice", "diana", "sam", "bob", "charlie", "erin"]


@pytest.mark.parametrize("state", NIGHT_STATES)
@pytest.mark.parametrize("who", WHO)
def test_a_night_page_offers_exactly_what_the_server_accepts(club, people, state, who) -> None:
    """Each action of a night, for each identity and state: offered on the night's pages
    (detail, console, call-off) exactly when its POST changes the night."""
    client = client_for(people[who])
    for name in NIGHT_ACTIONS:
        Tournament.objects.all().delete()
        night, away = _night_in(club, state, people["alice"])
        url, data = _night_actions(night, away)[name]
        offered = url in _forms(
            client,
            [
                reverse("tournament_detail", args=[night.pk]),
                reverse("tournament_console", args=[night.pk]),
                reverse("tournament_call_off", args=[night.pk]),
            ],
        )
        before = _night_picture(night.pk, away.pk)
        response = client.post(url, data)
        accepted = _night_picture(night.pk, away.pk) != before
        assert offered == accepted, (who, state, name, response.status_code)
        if who in ("charlie", "erin"):
            assert response.status_code == 404
        elif who in ("sam", "bob"):
            assert response.status_code == 403


@pytest.mark.parametrize("who", WHO)
def test_the_members_page_offers_exactly_what_the_server_accepts(club, people, who) -> None:
    """Each member's role change and removal, for each identity: offered on the members page
    (and the removal's own page) exactly when the POST changes the membership."""
    client = client_for(people[who])
    for target in ("alice", "diana", "sam", "bob", "second_owner"):
        for action in ("role", "remove"):
            if target == "second_owner":
                owner2 = get_user_model().objects.filter(username="olga").first()
                owner2 = owner2 or _user(club, "olga", Role.OWNER)
                member = Membership.objects.filter(user=owner2).first()
                if member is None:
                    member = Membership.objects.create(club=club, user=owner2, role=Role.OWNER)
            else:
                member = Membership.objects.filter(user=people[target]).first()
                if member is None:  # removed by an earlier step: back for this one
                    role = {"alice": Role.OWNER, "diana": Role.DIRECTOR, "sam": Role.SCORER}
                    member = Membership.objects.create(
                        club=club, user=people[target], role=role.get(target, Role.MEMBER)
                    )
            if action == "role":
                url = reverse("membership_role", args=[club.slug, member.pk])
                data = {"role": Role.MEMBER if member.role != Role.MEMBER else Role.SCORER}
            else:
                url = reverse("membership_remove", args=[club.slug, member.pk])
                data = {}
            pages = [reverse("club_members", args=[club.slug])]
            if action == "remove":
                pages.append(url)
            offered = url in _forms(client, pages) or (
                action == "remove"
                and f'href="{url}"' in client.get(pages[0]).content.decode()
                and url in _forms(client, [url])
            )
            before = Membership.objects.filter(pk=member.pk).values_list("role").first()
            client.post(url, data)
            after = Membership.objects.filter(pk=member.pk).values_list("role").first()
            assert offered == (after != before), (who, target, action)
            if before is not None and after is not None and after != before:
                # Back as it was for the next step.
                Membership.objects.filter(pk=member.pk).update(role=before[0])


# --- Services: entries frozen once the night ends; a removed member's links --------------------


@pytest.mark.parametrize("state", ["ended", "cancelled"])
def test_entries_are_frozen_once_the_night_is_over(club, people, state) -> None:
    night, away = _night_in(club, state, people["alice"])
    for service in (
        lambda: entry_check_in(entry=away, by=people["diana"]),
        lambda: entry_withdraw(entry=away, by=people["diana"]),
        lambda: entry_check_in(entry=away),  # even for a caller acting for no one
        lambda: entry_register(tournament=night, player="Late", by=people["alice"]),
    ):
        with pytest.raises(TournamentError, match=re.escape(night.over_message)):
            service()
    away.refresh_from_db()
    assert not away.checked_in and away.last_round is None


def test_removing_a_member_revokes_their_table_links_and_seat_claims(
    club, players, standard_rules, alice, bob
) -> None:
    """Bob opened the table link of a game of the club and claimed a seat in it through the
    real views: once removed, his sessions forget the club's links and seats, his claim is
    gone, the link no longer lets him in, and another phone at the table keeps playing (the
    token is unchanged)."""
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    token = game_token_issue(game=game)
    phone_bob = client_for(bob)
    other_phone = client_for(None)
    for client in (phone_bob, other_phone):
        assert client.get(reverse("game_table_join", args=[token])).status_code == 302
    sheet = reverse("game_sheet", args=[game.pk])
    claim = reverse("game_seat_claim", args=[game.pk])
    assert phone_bob.post(claim, {"seat": "1"}).status_code in (302, 303)
    assert SeatClaim.objects.filter(game=game, user=bob).exists()
    membership_remove(membership=Membership.objects.get(club=club, user=bob), by=alice)
    assert not SeatClaim.objects.filter(game=game).exists()
    assert str(game.pk) not in phone_bob.session.get(SESSION_TABLE_TOKENS, {})
    assert phone_bob.get(sheet).status_code == 404
    assert phone_bob.post(claim, {"seat": "1"}).status_code == 404
    game.refresh_from_db()
    assert game.table_token == token
    assert other_phone.get(sheet).status_code == 200


@pytest.mark.parametrize(
    "who, members, settings",
    [("alice", True, True), ("diana", True, False), ("sam", False, False), ("bob", False, False)],
)
def test_the_club_nav_links_what_the_role_may_open(club, people, who, members, settings) -> None:
    client = client_for(people[who])
    page = client.get(reverse("club_players", args=[club.slug])).content.decode()
    for name, shown in (("club_members", members), ("club_settings", settings)):
        url = reverse(name, args=[club.slug])
        assert (f'href="{url}"' in page) == shown, (who, name)
        assert (client.get(url).status_code == 200) == shown, (who, name)
