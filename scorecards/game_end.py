"""The end of a game in a few figures, and what the sheet offers once it is over.

`game_end` reads them off the engine's `GameScore` (never scored again here: every number is
one the engine produced): who won, the final score, how many hands, the bids each side made and
was set on, and the best hand (the one that added most to a side's score). `end_context` adds
what this person may do next: a new game with the same seats, and the share link.

Rating changes come from the room that keeps the ratings (standings, above this one), through
the provider it registers (`scorecards.hooks.game_rating_changes`); the player's page there
explains each of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse

from leagues.clubs.policy.games import GameNow
from leagues.clubs.roles import GAME_SHARE, GAME_START, role_can
from scorecards.hooks import TablePlace, game_rating_changes
from scorecards.rules import GameScore, points_leader
from scorecards.sheet import bid_text, side_names


@dataclass(frozen=True)
class SideEnd:
    """One side at the end: its name, final score, the bids its players made and were set on."""

    side: int
    name: str
    score: int
    made: int
    set: int
    won: bool


@dataclass(frozen=True)
class BestHand:
    """The hand that added most to one side's score (the earliest of equals)."""

    number: int
    side: int
    side_name: str
    bidder_name: str
    bid_label: str
    points: int


@dataclass(frozen=True)
class GameEnd:
    winner: int | None  # the winning side; None: a draw (a round that ended level)
    winner_name: str
    sides: tuple[SideEnd, ...]
    hands: int  # every hand on the sheet, thrown-in ones included
    thrown_in: int
    best: BestHand | None

    @property
    def score_text(self) -> str:
        return " – ".join(str(side.score) for side in self.sides)


def game_end(score: GameScore, names: Sequence[str]) -> GameEnd:
    """The summary of a game scored by the engine (`score`) with the seats' `names`. The winner
    is the engine's; a game its tournament round ended before the engine did is won by the
    side the engine finds ahead on points (`points_leader`), none when level."""
    rules = score.rules
    sides = side_names(rules, names)
    winner = score.winner if score.finished else points_leader(score.scores)
    made = [0] * rules.side_count
    set_ = [0] * rules.side_count
    best: BestHand | None = None
    thrown = 0
    for hand in score.hands:
        if hand.thrown_in or hand.side is None:
            thrown += 1
            continue
        if hand.made:
            made[hand.side] += 1
        else:
            set_[hand.side] += 1
        for side, gained in enumerate(hand.delta):
            if gained > 0 and (best is None or gained > best.points):
                best = BestHand(
                    number=hand.number,
                    side=side,
                    side_name=sides[side],
                    bidder_name="" if hand.bidder is None else names[hand.bidder],
                    bid_label=bid_text(hand.kind, hand.bid),
                    points=gained,
                )
    return GameEnd(
        winner=winner,
        winner_name="" if winner is None else sides[winner],
        sides=tuple(
            SideEnd(side, sides[side], score.scores[side], made[side], set_[side], side == winner)
            for side in range(rules.side_count)
        ),
        hands=len(score.hands),
        thrown_in=thrown,
        best=best,
    )


@dataclass(frozen=True)
class RatingLine:
    name: str
    change: str  # signed, as the player's page writes it ("+1.4")
    provisional: bool


def rating_lines(game: Any) -> list[RatingLine]:
    """Each rated player's rating change by this game, in seat order (empty while the game is
    not rated: not counted, or its ratings not updated yet)."""
    changes = game_rating_changes(game.pk)
    if not changes:
        return []
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return [
        RatingLine(seat.name, changes[seat.player_id].change, changes[seat.player_id].provisional)
        for seat in seats
        if seat.player_id in changes
    ]


def rematch_url(game: Any) -> str:
    """The new-game form of the game's club (or a quick game), filled in from `game`: the same
    seats, rules and habits, the first dealer moved on by one seat (`start_views`)."""
    query = urlencode({"after": game.pk})
    if game.club_id is None:
        return f"{reverse('quick_game_new')}?{query}"
    return f"{reverse('club_game_new', args=[game.club.slug])}?{query}"


def share_url(request: HttpRequest, token: str | None) -> str:
    """The public record's full address, "" when the game is not shared."""
    if not token:
        return ""
    return request.build_absolute_uri(reverse("game_shared", args=[token]))


def end_context(
    request: HttpRequest,
    access: Any,
    score: GameScore,
    names: Sequence[str],
    *,
    now: GameNow,
    place: TablePlace | None,
) -> dict[str, Any] | None:
    """What the sheet shows once the game is finished (None before): the summary, the
    rematch link (to whoever may start a game here; never at a tournament table, which the
    night's draw seats) and the share link with its buttons (as the policy allows them);
    to the members of its club, the rating changes."""
    game = access.game
    if not game.is_finished:
        return None
    role = None if access.membership is None else access.membership.role
    starts = role_can(role, GAME_START) if game.club_id is not None else access.is_starter
    sharing = bool(access.may(GAME_SHARE, now))
    return {
        "summary": game_end(score, names),
        "rematch": rematch_url(game) if starts and place is None else "",
        "rating_lines": rating_lines(game) if access.membership is not None else [],
        "share_manage": sharing,
        # The link is shown only to whoever may stop it (a table phone sees no address).
        "share_url": share_url(request, game.share_token) if sharing else "",
    }
