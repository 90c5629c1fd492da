"""What every writing service of a game shares: the refusals it raises
(`scorecards.services.refusals`), the game read and locked for writing, the engine's result
copied onto the game row, the history of a hand, and who asks (`actor_locked`) checked against
the policy on the locked picture (`policy_check`)."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import BooleanField, Exists, F, OuterRef, QuerySet, Subquery, TextField
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext as _

from kaiser_league.query_memo import built_once, compiled_once, row_insert, row_update
from leagues.clubs.models import Membership
from leagues.clubs.policy import Actor, Decision, may
from leagues.clubs.policy.games import GameFacts, state_decide
from scorecards.game_state import closed_why
from scorecards.hooks import TablePlace, game_result_changed, place_annotations
from scorecards.models import (
    FinishReason,
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandVersion,
    SpentKey,
)
from scorecards.poll import version_publish
from scorecards.rules import (
    GameScore,
    HandInput,
    HandScore,
    game_score,
    points_leader,
)
from scorecards.services.refusals import (
    GameClosed,
    HandConfirmed,
    HandRefused,
    HandUndone,
    NotAllowed,
    RoundOver,
    SeasonClosed,
)


def _games_locked(place: dict[str, Any], related: bool) -> QuerySet[Game]:
    games = Game.objects.select_for_update(of=("self",))
    if related:
        games = games.select_related("club")
    return games.annotate(**place, _season_closed_at=F("season__closed_at"))


def games_locked(
    key: uuid.UUID | None = None,
    *,
    by_id: int | None = None,
    related: bool = False,
    hands: bool = False,
) -> QuerySet[Game]:
    """The games as a write reads them, each locked (`game_locked`), with their club when
    `related` (the season's closing is read with them in any case): for a caller that adds
    its own columns to the same statement (the hand submit's access check). The caller sets
    `_key_asked` on the row read to `key` (what its `_key_spent` answers for) and has
    `locked_check` refuse it when its season is closed."""
    # select_for_update serialises writers per game on PostgreSQL; on SQLite the IMMEDIATE
    # transaction already holds the database write lock. Where the game stands as a tournament
    # table (scorecards.hooks), whether `key` is spent and whether the season is closed come in
    # the same statement: finality costs no query, and every write of a game passes here, the
    # one place a closed season refuses it (SeasonClosed).
    place = place_annotations()
    shape = ("games_locked", related, tuple((name, repr(value)) for name, value in place.items()))
    games = built_once(shape, lambda: _games_locked(place, related))
    if key is not None:
        games = games.annotate(_key_spent=Exists(SpentKey.objects.filter(key=key)))
    if by_id is not None:
        # Who asks, in the same statement: the role `actor_locked` reads.
        roles = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=by_id)
        games = games.annotate(_by_role=Subquery(roles.values("role")[:1]))
    if hands and connection.vendor == "postgresql":
        games = games.annotate(**_hands_columns())
    return games


def _hands_columns() -> dict[str, RawSQL]:
    """The game's hands as `hands_so_far(rows=False)` reads them, in the locked read's own
    statement (one round trip fewer), and whether they are the hands of the row it locked.
    A statement that waited for the lock returns the row as the writer before it left it, but
    reads every other row as they stood when the statement began: then the game row of that
    first moment (its `xmin`, the transaction that wrote it) is not the row locked, and
    `hands_so_far` reads the hands again."""
    game = connection.ops.quote_name(Game._meta.db_table)
    hand = connection.ops.quote_name(Hand._meta.db_table)
    columns = ", ".join(f"h.{connection.ops.quote_name(name)}" for name in HandValues._fields)
    listed = (
        f"(SELECT json_agg(json_build_array({columns}) ORDER BY h.number)::text"
        f" FROM {hand} h WHERE h.game_id = {game}.id)"
    )
    fresh = f"((SELECT g.xmin FROM {game} g WHERE g.id = {game}.id) = {game}.xmin)"
    return {
        "_hands_listed": RawSQL(listed, (), output_field=TextField()),
        "_hands_fresh": RawSQL(fresh, (), output_field=BooleanField()),
    }


def locked_check(game: Game) -> None:
    """Refuse a write of `game`, read by `games_locked`, whose season is closed
    (SeasonClosed)."""
    if getattr(game, "_season_closed_at", None) is not None:
        raise SeasonClosed(closed_why(game.status, None, season_closed=True))


def game_locked(game_id: int, key: uuid.UUID | None = None, *, by: User | None = None) -> Game:
    """The game read for a write and locked until the transaction ends (SeasonClosed when its
    season is closed), with where it stands as a table, whether `key` is spent and the role of
    `by` read in the same statement."""
    game = games_locked(key, by_id=None if by is None else by.pk).get(pk=game_id)
    game._key_asked = key  # type: ignore[attr-defined]
    locked_check(game)
    return game


def key_spent_of(game: Game, key: uuid.UUID) -> SpentKey | None:
    """The spent key `key` of a locked `game`: no query when the lock's read answered for
    it, found none, and read what the game's last writer left (`_hands_columns`)."""
    asked = getattr(game, "_key_asked", None) == key and getattr(game, "_hands_fresh", True)
    if asked and not getattr(game, "_key_spent", False):
        return None
    return key_spent(key)


def hands_so_far(game: Game, *, rows: bool = True) -> Sequence[Any]:
    """The game's hands in order: Hand rows, or with `rows=False` plain values (`number`,
    `record`, `idempotency_key`, `confirmed_at`, `confirmed_by_name`) for a write whose answer
    shows no row: model rows cost more to build than the scoring. Rows carry `corrected`
    (changed since entered), which the sheet marks (`table_phone.corrected_numbers`)."""
    if rows:
        return compiled_once("hands_so_far", _hands_marked, game_id=(1, 2)).rows(game_id=game.pk)
    if "_hands_listed" in vars(game) and game._hands_fresh:  # type: ignore[attr-defined]
        listed: str | None = vars(game).pop("_hands_listed")  # read once: a write follows
        return [_hand_listed(*row) for row in json.loads(listed or "[]")]
    values = compiled_once("hands_so_far_values", _hand_values, game_id=(1, 2))
    return [HandValues._make(row) for row in values.values(game_id=game.pk)]


def _hand_listed(
    number: int, record: dict, key: str, confirmed_at: str | None, by_name: str
) -> HandValues:
    """A hand of `_hands_columns`'s list, as its columns read."""
    at = None if confirmed_at is None else datetime.datetime.fromisoformat(confirmed_at)
    return HandValues(number, record, uuid.UUID(key), at, by_name)


def _hands_marked(game_id: int) -> QuerySet[Hand]:
    corrected = HandVersion.objects.filter(
        game_id=OuterRef("game_id"), number=OuterRef("number"), action=HandAction.CORRECT
    )
    hands = Hand.objects.filter(game_id=game_id).annotate(corrected=Exists(corrected))
    return hands.order_by("number")


class HandValues(NamedTuple):
    """A hand as `hands_so_far(rows=False)` reads it."""

    number: int
    record: dict[str, Any]
    idempotency_key: uuid.UUID
    confirmed_at: Any
    confirmed_by_name: str


def _hand_values(game_id: int) -> QuerySet[Any]:
    return Hand.objects.filter(game_id=game_id).order_by("number").values_list(*HandValues._fields)


def hand_row(game: Game, hand: Any) -> Hand:
    """The Hand row of `hand` (one of `hands_so_far`): read when it was read as values."""
    return hand if isinstance(hand, Hand) else game.hands.get(number=hand.number)


def game_touch(game: Game) -> None:
    """Mark the (locked) game as changed when none of its own columns did (a confirmation, a
    seat given back): phones polling the sheet compare its `updated_at`, and the poll's cached
    version follows it (`scorecards.poll`)."""
    game.updated_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at)
    version_publish(game)


def hand_inputs(game: Game) -> list[HandInput]:
    return [hand.as_input() for hand in game.hands.order_by("number")]


# The game row's columns `score_apply` sets, and its time of change.
SCORE_FIELDS = ["scores", "target", "next_dealer", "hand_count", "status", "winner"]
SCORE_FIELDS += ["finish_reason", "finished_at", "updated_at"]


def score_apply(game: Game, score: GameScore, *, save: bool = True) -> bool:
    """Copy the engine's result into the cached fields of the game row (and save it). Answers
    whether the game's result changed. `save=False`: the row is left unsaved, for a caller that
    saves `SCORE_FIELDS` with its other rows, then sends `game_result_changed` when True."""
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
    # Standings and ratings: a game that finishes, or a finished game that changes (a hand
    # corrected or undone), queues their rebuild once this transaction commits.
    changed = was_finished or score.finished or game.status != GameStatus.IN_PROGRESS
    if save:
        row_update(game, SCORE_FIELDS)  # compiled once: every hand entered saves these
        if changed:
            game_result_changed.send(sender=Game, game=game)
    return changed


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
    save: bool = True,
) -> HandVersion:
    """Keep the trace of one change to hand `number`: who, what, before and after (and why).
    `save=False`: the trace unsaved, for a caller that writes it with its other rows."""
    version = HandVersion(
        game=game,
        number=number,
        action=action,
        before=before,
        after=after,
        by=by,
        by_name=by_name[:80],
        reason=reason[:200],
    )
    if save:
        row_insert(version)
    return version


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


def actor_locked(
    game: Game,
    by: User | None,
    *,
    phone: str | None = None,
    table_link: bool = False,
    seat: int | None = None,
) -> Actor | None:
    """Who asks, read now under the game's lock: the account `by` with its role in the club,
    a phone (`phone`, or `table_link`: the view found this browser holding the game's link),
    and `seat`, the seat the server knows holds the person. None: a trusted caller (an
    import, a command) with no account and no phone, whom only the game's state refuses."""
    if by is None and phone is None and not table_link:
        return None
    role = getattr(game, "_by_role", None) if hasattr(game, "_by_role") else club_role(game, by)
    return Actor(
        user_id=None if by is None else by.pk,
        role=role,
        starter=by is not None and game.created_by_id == by.pk,
        table_link=table_link or phone is not None,
        seat=seat,
        phone=phone or "",
    )


def policy_check(actor: Actor | None, action: str, facts: GameFacts) -> None:
    """Raise the refusal the policy answers for `action` (nothing when it is allowed): the
    service's own check, on the locked picture."""
    decision = state_decide(action, facts) if actor is None else may(actor, action, facts)
    if decision:
        return
    raise refusal_of(decision, facts)


def refusal_of(decision: Decision, facts: GameFacts) -> HandRefused:
    """The exception a service raises for a refused `decision`."""
    if decision.status == "forbidden":
        return NotAllowed(decision.reason)
    if decision.status == "round_over":
        return RoundOver(decision.reason)
    if decision.status == "confirmed":
        return HandConfirmed(decision.reason, number=facts.now.hands)
    if decision.status == "closed":
        if facts.now.season_closed:
            return SeasonClosed(decision.reason)
        return GameClosed(decision.reason)
    refusal = HandRefused(decision.reason)
    refusal.status = decision.status
    return refusal


def confirm_asked_of(game: Game) -> bool:
    """Whether each hand of `game` waits for the other side's confirmation (the club or the
    night asks it): `scorecards.selectors.game_needs_confirmation`."""
    from scorecards.selectors import game_needs_confirmation

    return game_needs_confirmation(game)


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
