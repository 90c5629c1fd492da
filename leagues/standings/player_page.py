"""What a player's page shows beyond its games list: the record with each partner and against
each opponent, bids made and set by kind and the biggest hand (the engine's results of the
player's counted games' hands), and each season's line (pot balance, nights).

Everything comes from the rules engine or the stored standings: nothing is added up here but
games won and lost, and hands by kind."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from kaiser_league.collation import name_key
from leagues.standings.derived import KAISER_KINDS
from leagues.standings.models import PlayerStanding
from leagues.standings.selectors import DRAWN, LOST, WON, PlayerGameLine
from scorecards.rules import NO_TRUMP_KINDS, game_score
from scorecards.selectors import games_seats_and_inputs


@dataclass
class Record:
    """Counted games with (or against) one player: won, lost, drawn."""

    player_id: int
    name: str
    games: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


def _records(pairs: Iterable[tuple[int, str, str]]) -> list[Record]:
    records: dict[int, Record] = {}
    for pk, name, outcome in pairs:
        record = records.setdefault(pk, Record(pk, name))
        record.games += 1
        record.won += outcome == WON
        record.lost += outcome == LOST
        record.drawn += outcome == DRAWN
    return sorted(records.values(), key=lambda r: (-r.games, name_key(r.name)))


def counted_lines(lines: Iterable[PlayerGameLine]) -> list[PlayerGameLine]:
    """The lines of games that count (`Game.objects.counted()`): won, lost or drawn."""
    return [line for line in lines if line.game.counted and line.outcome in (WON, LOST, DRAWN)]


def partner_records(lines: Iterable[PlayerGameLine]) -> list[Record]:
    """The record with each partner over the counted games among `lines`, most games first."""
    return _records((pk, name, line.outcome) for line in lines for pk, name in line.partner_ids)


def opponent_records(lines: Iterable[PlayerGameLine]) -> list[Record]:
    """The record against each opponent over the counted games among `lines`."""
    return _records((pk, name, line.outcome) for line in lines for pk, name in line.opponent_ids)


# The kinds of bid a player's page counts, in its order: trump, no-trump (no, low), kaiser.
BID_GROUPS = (
    ("trump", _("Trump")),
    ("no-trump", _("No-trump")),
    ("kaiser", _("Kaiser")),
)


def bid_group(kind: str | None) -> str:
    if kind in NO_TRUMP_KINDS:
        return "no-trump"
    if kind in KAISER_KINDS:
        return "kaiser"
    return "trump"


@dataclass
class BidLine:
    key: str
    label: Any
    made: int = 0
    set: int = 0


@dataclass
class BiggestHand:
    """The hand that added most to the player's side's score."""

    line: PlayerGameLine
    number: int
    points: int
    bid: int | None
    kind: str | None


@dataclass
class HandFigures:
    bids: list[BidLine] = field(default_factory=list)
    biggest: BiggestHand | None = None
    games_left_out: int = 0  # games the engine could not score


def player_hand_figures(lines: list[PlayerGameLine]) -> HandFigures:
    """Bids the player made and was set on, by kind, and the biggest hand of the player's side,
    over the games of `lines` (counted ones: see `counted_lines`), from the engine's score of
    their stored hands. Two queries whatever the number of games."""
    bids = {key: BidLine(key, label) for key, label in BID_GROUPS}
    figures = HandFigures(bids=list(bids.values()))
    if not lines:
        return figures
    _seats, hands = games_seats_and_inputs([line.game.pk for line in lines])
    for line in lines:
        game = line.game
        try:
            score = game_score(game.rules_value, hands[game.pk], game.first_dealer)
        except Exception:  # a game the engine cannot score is left out, as the standings do
            figures.games_left_out += 1
            continue
        side = score.rules.side_of(line.seat)
        for hand in score.hands:
            if hand.thrown_in:
                continue
            if hand.bidder == line.seat:
                bid = bids[bid_group(hand.kind)]
                if hand.made:
                    bid.made += 1
                else:
                    bid.set += 1
            gained = hand.delta[side]
            if figures.biggest is None or gained > figures.biggest.points:
                figures.biggest = BiggestHand(line, hand.number, gained, hand.bid, hand.kind)
    return figures


def player_season_lines(player) -> list[PlayerStanding]:
    """The player's standings line of every season (pot balance, nights, games, wins), latest
    season first. One query."""
    return list(
        PlayerStanding.objects.filter(player=player)
        .select_related("season")
        .order_by("-season__starts_on", "season__name")
    )
