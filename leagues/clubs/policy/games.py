"""Who may do what to a game, now: the one decision behind every write of a game's services and
every button its sheet offers.

A game's room (scorecards) hands in its facts as plain values (`GameFacts`, with `GameNow`: what
the game accepts now, computed by `scorecards.game_state`), the actor as the server knows it
(`Actor`), and an action of `leagues.clubs.roles`. What a role may do is the role table's
(`role_can`); what starting a game and holding its table link give is written here, once:

- the account that started a quick game (no club) holds every power over it;
- the account that started a club game, while a member, enters, takes back and confirms hands,
  claims a seat, manages the table link, and corrects hands while the game is not over (once it
  is over a scorer, director or owner corrects it, with a reason); it never abandons or deletes
  a club game;
- a table link lets a phone (signed in or not) see the game, enter its hands while it is played,
  take back the last one, say which seat holds it (and give that seat back while the game is
  played) and confirm the other side's hands; nothing else. Releasing another phone's claim is
  a scorer's or director's (the role table's `SEAT_RELEASE`).

Then the game's state: a game that is over (finished, abandoned), whose round closed, whose
night is over or whose season is closed takes no hand and no undo; a tournament table that
played its round's hands takes no more. Confirmations go on after a game finished (the game
counts once every hand is), never on an abandoned game, after the night ended or in a closed
season, and only where confirmation is asked. A confirmation comes from a person seated on the
other side from the one that entered the hand; a person holds one seat of a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from leagues.clubs.policy import decider_register
from leagues.clubs.policy.base import ALLOWED, Actor, Decision, refused
from leagues.clubs.roles import (
    GAME_ABANDON,
    GAME_DELETE,
    GAME_SHARE,
    HAND_CONFIRM,
    HAND_CORRECT,
    HAND_CORRECT_ANY,
    HAND_ENTER,
    HAND_UNDO,
    SEAT_CLAIM,
    SEAT_RELEASE,
    TABLE_LINK_MANAGE,
    VIEW,
    role_can,
)

IN_PROGRESS, FINISHED, ABANDONED = "in_progress", "finished", "abandoned"

# What a phone holding the table link may do, and what starting a club game gives a member
# beyond the role's own powers.
_TABLE_LINK = frozenset({VIEW, HAND_ENTER, HAND_UNDO, HAND_CONFIRM, SEAT_CLAIM})
_STARTER = _TABLE_LINK | {HAND_CORRECT, TABLE_LINK_MANAGE}


@dataclass(frozen=True)
class GameNow:
    """What a game accepts now, as `scorecards.game_state.game_now` reads it.

    `closed`: why its hands are final (game over, round closed, night over, season closed), ""
    while they are not; `round_over`: why it takes no more hands though its hands may still be
    taken back (a table that played its round's hands), "" otherwise; `hands`: how many it has;
    `last_confirmed_by`: who confirmed its last hand (None: not confirmed); `had_hands`: a hand
    was ever entered (one taken back counts); `confirm_asked`: the club or night asks each hand
    to be confirmed."""

    status: str = IN_PROGRESS
    closed: str = ""
    round_over: str = ""
    night_over: bool = False
    season_closed: bool = False
    is_table: bool = False
    hands: int = 0
    had_hands: bool = False
    last_confirmed_by: str | None = None
    confirm_asked: bool = False

    @property
    def takes_hands(self) -> bool:
        return not self.closed and not self.round_over

    @property
    def reason_needed(self) -> bool:
        """A correction now needs a reason (kept in the hand's history)."""
        return bool(self.closed)


@dataclass(frozen=True)
class HandFacts:
    """The hand an action is about: who entered it (account, seat) and whether it is
    confirmed."""

    number: int
    entered_by: int | None = None
    entered_seat: int | None = None
    confirmed: bool = False
    entered_phone: str = ""  # the phone that entered it ("" when not known)


@dataclass(frozen=True)
class GameFacts:
    """A game as the policy reads it. `sides`: the side of each seat; `hand`: the hand of a
    confirmation; `seat`: the seat a claim asks for; `person_seats`: the seats this person holds
    already (an account: its own player's and its claims from any phone; a phone: its claim);
    `person_entered`: the seats this person entered hands from."""

    club_id: int | None
    started_by: int | None
    now: GameNow
    sides: tuple[int, ...] = ()
    hand: HandFacts | None = None
    seat: int | None = None
    person_seats: frozenset[int] = frozenset()
    person_entered: frozenset[int] = frozenset()

    def side_of(self, seat: int) -> int | None:
        return self.sides[seat] if 0 <= seat < len(self.sides) else None


def _starter(actor: Actor, facts: GameFacts) -> bool:
    """This account started the game and still holds what that gives (a member of its club,
    or any account for a quick game)."""
    if actor.user_id is None or actor.user_id != facts.started_by:
        return False
    return facts.club_id is None or actor.role is not None


def has_power(actor: Actor, action: str, facts: GameFacts) -> bool:
    """Whether `actor` holds the power of `action` over this game, whatever its state (the
    gate of a page: a write refused by the state is answered with its reason, not hidden).
    Giving back one's own seat claim (`seat` among `person_seats`) takes the power to claim."""
    if action == SEAT_RELEASE and facts.seat is not None and facts.seat in facts.person_seats:
        action = SEAT_CLAIM
    if _starter(actor, facts) and (facts.club_id is None or action in _STARTER):
        return True
    if facts.club_id is not None and role_can(actor.role, action):
        return True
    return actor.table_link and action in _TABLE_LINK


def _no_power(action: str, facts: GameFacts) -> Decision:
    if action == GAME_ABANDON:
        return refused(_("Only a scorer or a director abandons a game."))
    if action == GAME_DELETE:
        return refused(_("Only a scorer or a director deletes a game."))
    if action == SEAT_RELEASE:
        return refused(_("Only a scorer or a director releases another phone’s seat."))
    if action == HAND_CORRECT:
        if facts.now.closed:
            return refused(facts.now.closed)
        return refused(_("Only a scorer of the club corrects hands: ask one."))
    return refused(_("You may not do this in this game: ask a scorer."))


def _closed(now: GameNow) -> Decision:
    return refused(now.closed, "closed")


def state_decide(action: str, facts: GameFacts, actor: Actor | None = None) -> Decision:
    """What the game's state allows of `action`, whoever asks; `actor` (None: a trusted caller,
    an import or a command) only for what depends on the person (a confirmation's side, a
    seat claim, a member-starter's correction)."""
    now = facts.now
    if action == VIEW:
        return ALLOWED
    if action == TABLE_LINK_MANAGE:
        # An archived game takes nothing a link could bring.
        return _closed(now) if now.season_closed else ALLOWED
    if action == HAND_ENTER:
        if now.closed:
            return _closed(now)
        if now.round_over:
            return refused(now.round_over, "round_over")
        return ALLOWED
    if action == HAND_UNDO:
        if now.closed:
            return _closed(now)
        if now.hands == 0:
            return refused(_("There is no hand to take back."), "nothing")
        if now.last_confirmed_by is not None:
            return refused(
                _("Hand %(number)s was confirmed by %(who)s: ask a scorer to correct it.")
                % {"number": now.hands, "who": now.last_confirmed_by or _("the other side")},
                "confirmed",
            )
        return ALLOWED
    if action == HAND_CORRECT:
        if now.season_closed:
            return _closed(now)
        if now.closed and (actor is None or not _corrects_over(actor, facts)):
            return refused(now.closed)
        return ALLOWED
    if action == HAND_CONFIRM:
        return _confirm(actor, facts)
    if action == SEAT_CLAIM:
        return _claim(actor, facts)
    if action == SEAT_RELEASE:
        # Claims are the table's while the game is played: once it is over they stay as the
        # record of who confirmed what.
        if now.status != IN_PROGRESS or now.closed or now.season_closed or now.night_over:
            return refused(_("This game is over: its seat claims stay as they are."), "closed")
        return ALLOWED
    if action == GAME_ABANDON:
        if now.status != IN_PROGRESS or now.season_closed:
            return _closed(now)
        if now.is_table:
            return refused(_("A table of a tournament night is closed with its round."), "closed")
        return ALLOWED
    if action == GAME_DELETE:
        if now.season_closed:
            return _closed(now)
        if now.had_hands:
            return refused(_("This game has hands: abandon it instead, with a reason."), "closed")
        if now.is_table:
            return refused(_("A table of a tournament night is closed with its round."), "closed")
        return ALLOWED
    if action == GAME_SHARE:
        # A public record is of a game's result: only a finished game has one (a member of the
        # club, or the starter of a quick game, shares it; a table link never does).
        if now.status != FINISHED:
            return refused(_("Only a finished game can be shared."), "closed")
        return ALLOWED
    return refused(_("You may not do this in this game: ask a scorer."))


def _corrects_over(actor: Actor, facts: GameFacts) -> bool:
    """Corrects a game that is over: a scorer, director or owner; the starter of a quick game."""
    if facts.club_id is None:
        return _starter(actor, facts)
    return role_can(actor.role, HAND_CORRECT_ANY)


def _confirm(actor: Actor | None, facts: GameFacts) -> Decision:
    """A confirmation: asked, on a game not abandoned whose night and season are open, by a
    person seated on the other side from the one that entered the hand (either side when nobody
    seated entered it), never by the account that entered it. A hand confirmed already is
    allowed again (it changes nothing)."""
    now = facts.now
    if now.season_closed or now.night_over:
        return _closed(now)
    if now.status == ABANDONED:
        return refused(_("This game was abandoned: nothing in it is confirmed."), "closed")
    if not now.confirm_asked:
        return refused(_("This game asks no confirmation of its hands."))
    hand = facts.hand
    if hand is None or hand.confirmed or actor is None:
        return ALLOWED
    if actor.seat is None:
        return refused(
            _(
                "Only a player of the other side confirms a hand: choose who holds this phone "
                "when you enter a hand, or sign in."
            )
        )
    if actor.user_id is not None and hand.entered_by == actor.user_id:
        return refused(_("You entered this hand: a player of the other side confirms it."))
    if hand.entered_seat is not None and facts.side_of(actor.seat) == facts.side_of(
        hand.entered_seat
    ):
        return refused(_("Your side entered this hand: a player of the other side confirms it."))
    if hand.entered_phone and actor.phone == hand.entered_phone:
        return refused(
            _("This phone entered this hand: a player of the other side confirms it on theirs.")
        )
    return ALLOWED


def _claim(actor: Actor | None, facts: GameFacts) -> Decision:
    """A seat is claimed to enter hands or to confirm them: while the game takes either. A
    person holds one seat of the game, and never one of the other side from the hands it
    entered."""
    now = facts.now
    if now.season_closed or now.night_over:
        return _closed(now)
    if now.status == ABANDONED or (now.status != IN_PROGRESS and not now.confirm_asked):
        return _closed(now)
    seat = facts.seat
    if seat is None or actor is None:
        return ALLOWED
    if facts.side_of(seat) is None:
        return refused(_("There is no such seat in this game."), "taken")
    held = facts.person_seats - {seat}
    if held:
        return refused(_("You hold another seat in this game: one person, one seat."), "claimed")
    side = facts.side_of(seat)
    if any(facts.side_of(entered) != side for entered in facts.person_entered):
        return refused(
            _("You entered hands for the other side: you cannot hold a seat of this side.")
        )
    return ALLOWED


def decide(actor: Actor, action: str, facts: GameFacts) -> Decision:
    """Whether `actor` may take `action` on the game of `facts` now, and why not."""
    if not has_power(actor, action, facts):
        return _no_power(action, facts)
    return state_decide(action, facts, actor)


decider_register(GameFacts, decide)
