"""What every writing service of a game shares: the refusals it raises, the game read and
locked for writing, the engine's result copied onto the game row, the history of a hand, and
the rules of who may still change a game."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Exists, F
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.models import Membership
from leagues.clubs.roles import HAND_CORRECT_ANY, role_can
from scorecards.hooks import TablePlace, game_result_changed, place_annotations
from scorecards.models import (
    FinishReason,
    Game,
    GameStatus,
    Hand,
    HandVersion,
    SpentKey,
)
from scorecards.rules import (
    GameScore,
    HandInput,
    HandScore,
    Rules,
    game_score,
    points_leader,
)


class HandConflict(Exception):
    """Another phone entered this hand number first. Carries the hand that is already there."""

    def __init__(self, existing: Hand) -> None:
        self.existing = existing
        who = existing.entered_by_name or _("another phone")
        super().__init__(
            _("hand %(number)s was already entered by %(who)s")
            % {"number": existing.number, "who": who}
        )


class HandRefused(Exception):
    """A write the record refuses in its present state, or to this person. `status` is the
    machine word of the JSON answer, `http_status` its status code, `str()` the sentence shown
    to the player (what happened and what to do next)."""

    status = "refused"
    http_status = 409

    def __init__(self, message: str, **details: object) -> None:
        self.message = message
        self.details = details
        super().__init__(message)


class GameClosed(HandRefused):
    """The game is over (finished or abandoned), its round closed or its night ended: only a
    correction changes its hands."""

    status = "closed"


class SeasonClosed(GameClosed):
    """The game's season is closed: an archive whose games take no hand, undo, correction or
    confirmation until an owner reopens it."""


class RoundOver(GameClosed):
    """The table has played every hand of its tournament round: no more hands are entered."""

    status = "round_over"


class HandUndone(HandRefused):
    """The hand was taken back (its idempotency key stays spent)."""

    status = "undone"


class HandConfirmed(HandRefused):
    """The hand was confirmed by the other side: only a correction changes it now."""

    status = "confirmed"


class NotAllowed(HandRefused):
    """This person may not do this (no power, not seated on the right side)."""

    status = "forbidden"
    http_status = 403


class ReasonMissing(HandRefused):
    """A correction of a game that is over, or an abandon, needs a reason."""

    status = "invalid"
    http_status = 422


@dataclass(frozen=True)
class HandRecorded:
    hand: Hand
    created: bool  # False when the idempotency key had been seen: nothing was written
    score: GameScore
    # Every hand of the game after the call, in order (the sheet renders from these without
    # reading them again).
    hands: tuple[Hand, ...] = ()


def game_locked(game_id: int, key: uuid.UUID | None = None) -> Game:
    # select_for_update serialises writers per game on PostgreSQL; on SQLite the IMMEDIATE
    # transaction already holds the database write lock. Where the game stands as a tournament
    # table (scorecards.hooks) and whether `key` is spent come in the same statement, so
    # finality costs no extra query.
    # Whether the game's season is closed comes in the same statement too: every write of a
    # game passes here, so this is the one place a closed season refuses it (SeasonClosed).
    games = Game.objects.select_for_update(of=("self",)).annotate(
        **place_annotations(), _season_closed_at=F("season__closed_at")
    )
    if key is not None:
        games = games.annotate(_key_spent=Exists(SpentKey.objects.filter(key=key)))
    game = games.get(pk=game_id)
    if getattr(game, "_season_closed_at", None) is not None:
        raise SeasonClosed(
            _(
                "The season of this game is closed: its games stay as they are until an owner "
                "reopens it."
            )
        )
    return game


def hand_inputs(game: Game) -> list[HandInput]:
    return [hand.as_input() for hand in game.hands.order_by("number")]


def score_apply(game: Game, score: GameScore) -> None:
    """Copy the engine's result into the cached fields of the game row (and save it)."""
    was_finished = game.status == GameStatus.FINISHED
    game.scores = list(score.scores)
    game.target = score.target
    game.next_dealer = score.next_dealer
    game.hand_count = len(score.hands)
    if game.status == GameStatus.ABANDONED:
        # A correction of an abandoned game keeps it abandoned: only the totals move.
        pass
    elif game.finish_reason == FinishReason.ROUND and not score.finished:
        # Closed by its tournament round: the round, not the engine, ended it.
        game.winner = points_leader(score.scores)
    elif score.finished:
        if game.status != GameStatus.FINISHED:
            game.finished_at = timezone.now()
        game.status = GameStatus.FINISHED
        game.winner = score.winner
        game.finish_reason = score.reason or ""
    else:
        game.status = GameStatus.IN_PROGRESS
        game.winner = None
        game.finish_reason = ""
        game.finished_at = None
    game.save(
        update_fields=[
            "scores",
            "target",
            "next_dealer",
            "hand_count",
            "status",
            "winner",
            "finish_reason",
            "finished_at",
            "updated_at",
        ]
    )
    # Standings and ratings: a game that finishes, or a finished game that changes (a hand
    # corrected or undone), queues their rebuild once this transaction commits.
    if was_finished or score.finished or game.status != GameStatus.IN_PROGRESS:
        game_result_changed.send(sender=Game, game=game)


def version_keep(
    game: Game,
    number: int,
    action: str,
    before: dict | None,
    after: dict | None,
    by: User | None,
    by_name: str,
    *,
    reason: str = "",
) -> None:
    """Keep the trace of one change to hand `number`: who, what, before and after (and why)."""
    HandVersion.objects.create(
        game=game,
        number=number,
        action=action,
        before=before,
        after=after,
        by=by,
        by_name=by_name[:80],
        reason=reason[:200],
    )


def hand_fields(hand: HandInput, scored: HandScore) -> dict:
    """Columns of a Hand row: the record as entered plus the engine's reading of it."""
    return {
        "record": hand.to_dict(),
        "dealer": scored.dealer,
        "thrown_in": scored.thrown_in,
        "bidder": None if scored.thrown_in else scored.bidder,
        "bid": None if scored.thrown_in else scored.bid,
        "kind": "" if scored.thrown_in else scored.kind,
        "tricks": None if scored.thrown_in or scored.tricks is None else list(scored.tricks),
        # The engine's reading: a side, or None when nobody took the card (or none was played).
        "five_hearts": None if scored.thrown_in else scored.five_hearts,
        "three_spades": None if scored.thrown_in else scored.three_spades,
    }


def game_rescored(game: Game) -> GameScore:
    return game_score(game.rules_value, hand_inputs(game), game.first_dealer)


def club_role(game: Game, user: User | None) -> str | None:
    if user is None or game.club_id is None:
        return None
    return (
        Membership.objects.filter(club_id=game.club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def game_can_correct(game: Game, user: User | None, *, over: bool = False) -> bool:
    """Whether `user` holds the correction power over `game`: a scorer, director or owner of its
    club; the account that started it while it is a member (and while the game is not over);
    the account that started a quick game (no club). Ex-members hold no power."""
    if user is None:
        return False
    if game.club_id is None:
        return game.created_by_id == user.pk
    role = club_role(game, user)
    if role is None:
        return False
    return role_can(role, HAND_CORRECT_ANY) or (not over and game.created_by_id == user.pk)


def closed_message(game: Game, place: TablePlace | None) -> str:
    """Why the hands of `game` are final (empty when they are not)."""
    if place is not None and place.night_over:
        return _("This night is over: ask the director to correct a hand.")
    if place is not None and place.round_closed:
        return _("This round is over: ask the director to correct a hand.")
    if game.status == GameStatus.ABANDONED:
        return _("This game was abandoned: ask a scorer to correct it.")
    if game.status == GameStatus.FINISHED:
        return _("This game is over: ask a scorer to correct it.")
    return ""


def place_of(game: Game, score: GameScore | None = None) -> TablePlace | None:
    from scorecards.selectors import table_place

    return table_place(game, score)


def key_spent(key: uuid.UUID) -> SpentKey | None:
    return SpentKey.objects.filter(key=key).first()


def undone_error(spent: SpentKey) -> HandUndone:
    who = spent.by_name or _("another phone")
    at = timezone.localtime(spent.at)
    return HandUndone(
        _("Hand %(number)s was taken back by %(who)s at %(time)s: it was not entered again.")
        % {"number": spent.number, "who": who, "time": at.strftime("%H:%M")},
        number=spent.number,
        undone_by=spent.by_name,
        undone_at=spent.at.isoformat(),
    )


def game_power(game: Game, by: User | None) -> bool:
    """Abandon or delete: a scorer, director or owner of the club; the starter of a quick game."""
    if by is None:
        return False
    if game.club_id is None:
        return game.created_by_id == by.pk
    return role_can(club_role(game, by), HAND_CORRECT_ANY)


# --- Who confirms a hand ----------------------------------------------------------------------


def hand_confirm_refusal(
    hand: Hand, rules: Rules, *, seat: int | None, user_id: int | None = None
) -> str:
    """Why this person may not confirm `hand`, "" when they may: the one rule behind both the
    confirmation service and the ✓ the sheet offers.

    `seat` is the seat the server knows holds the person (`seat_of`: the signed-in member's own
    player, else the phone's seat claim; None: not seated), `user_id` the signed-in account.
    The side that entered the hand (`Hand.entered_seat`) does not confirm it: a player of
    another side does. When nobody seated entered it, a player seated on any side may. The
    account that entered a hand never confirms it, whatever seat it holds. (A hand confirmed
    already, and a night that is over, are the caller's to check.)"""
    if seat is None:
        return _(
            "Only a player of the other side confirms a hand: choose who holds this phone "
            "when you enter a hand, or sign in."
        )
    if user_id is not None and hand.entered_by_id == user_id:
        return _("You entered this hand: a player of the other side confirms it.")
    entered = hand.entered_seat
    if entered is not None and rules.side_of(seat) == rules.side_of(entered):
        return _("Your side entered this hand: a player of the other side confirms it.")
    return ""


def hand_may_confirm(
    hand: Hand, rules: Rules, *, seat: int | None, user_id: int | None = None
) -> bool:
    """True when `hand_confirm_refusal` has nothing against this person confirming `hand`."""
    return not hand_confirm_refusal(hand, rules, seat=seat, user_id=user_id)
