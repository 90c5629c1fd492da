"""A season's awards and records, from the engine's scoring of its counted games (never scored
again here: every figure is read off the engine's `GameScore`). Pure: the page builds the
`PlayedGame` values, this module ranks them.

Each award names who takes it and the game (and hand, where one hand made it) it comes from;
ties share the award, in name order. Awards:

- most wins; best partnership (the best win share of two partners over at least
  MIN_PARTNERSHIP_GAMES games together, ties broken by more wins);
- highest no-trump bid made (and the kaiser bids made, each listed);
- longest winning streak (a player's wins in a row, in the season's game order; a draw or a
  loss ends it);
- best comeback: the winners who were furthest behind during a game they won;
- most nights attended (from the standings' nights count).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from scorecards.rules import GameScore

MIN_PARTNERSHIP_GAMES = 3
KAISER_KINDS = ("kaiser", "kaiser40")
NO_TRUMP = "no"


@dataclass(frozen=True)
class PlayedGame:
    """One counted game of the season, in the season's order: its id, who sat where (player
    ids by seat; None for a guest), the names by seat, the winning side (None: a draw), and
    the engine's scoring."""

    game_id: int
    players: tuple[int | None, ...]
    names: tuple[str, ...]
    winner: int | None
    score: GameScore


@dataclass(frozen=True)
class Award:
    key: str  # "most_wins", "best_partnership", ...
    names: tuple[str, ...]  # who takes it (a partnership as "Ann & Cat")
    value: str  # the figure, as shown ("12", "75 %", "-41")
    game_id: int | None = None  # the game it comes from
    hand: int | None = None  # the hand it comes from
    extra: dict = field(default_factory=dict)


def _side_of(score: GameScore, seat: int) -> int:
    return score.rules.side_of(seat)


def _partners(game: PlayedGame, side: int) -> tuple[int, ...]:
    return tuple(seat for seat in range(len(game.players)) if _side_of(game.score, seat) == side)


def _name(game: PlayedGame, seats: tuple[int, ...]) -> str:
    return " & ".join(sorted((game.names[seat] for seat in seats), key=str.casefold))


def season_awards(games: list[PlayedGame], nights: dict[str, int] | None = None) -> list[Award]:
    """The awards of a season whose counted games are `games` (in order), with `nights` each
    player attended (by name). An award nobody qualifies for is left out."""
    awards: list[Award] = []
    wins: Counter[str] = Counter()
    last_win: dict[str, int] = {}
    pairs: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # games, wins, last win id
    streak: dict[str, tuple[int, int | None]] = {}  # current run, its first game
    best_streak: dict[str, tuple[int, int | None, int | None]] = {}
    best_nt: tuple[int, int, int, str] | None = None  # bid, game id, hand, bidder name
    kaisers: list[Award] = []
    comeback: tuple[int, int, int, str] | None = None  # deficit, game id, hand, winners

    for game in games:
        score = game.score
        for side in range(len(score.scores)):
            seats = _partners(game, side)
            pair = _name(game, seats)
            won = game.winner == side
            pairs[pair][0] += 1
            for seat in seats:
                name = game.names[seat]
                run, first = streak.get(name, (0, None))
                if won:
                    wins[name] += 1
                    last_win[name] = game.game_id
                    run, first = run + 1, first if run else game.game_id
                    streak[name] = (run, first)
                    if run > best_streak.get(name, (0, None, None))[0]:
                        best_streak[name] = (run, first, game.game_id)
                else:
                    streak[name] = (0, None)
            if won:
                pairs[pair][1] += 1
                pairs[pair][2] = game.game_id
                lowest, at = 0, None
                for hand in score.hands:
                    others = max(
                        (s for index, s in enumerate(hand.scores) if index != side), default=0
                    )
                    behind = hand.scores[side] - others
                    if behind < lowest:
                        lowest, at = behind, hand.number
                if at is not None and (comeback is None or lowest < comeback[0]):
                    comeback = (lowest, game.game_id, at, pair)
        for hand in score.hands:
            if hand.thrown_in or not hand.made or hand.bidder is None or hand.bid is None:
                continue
            bidder = game.names[hand.bidder]
            if hand.kind == NO_TRUMP and (best_nt is None or hand.bid > best_nt[0]):
                best_nt = (hand.bid, game.game_id, hand.number, bidder)
            if hand.kind in KAISER_KINDS:
                kaisers.append(
                    Award("kaiser_made", (bidder,), str(hand.bid), game.game_id, hand.number)
                )

    def _top(counts: dict[str, int]) -> tuple[int, tuple[str, ...]]:
        best = max(counts.values())
        return best, tuple(sorted((n for n, c in counts.items() if c == best), key=str.casefold))

    if wins:
        best, names = _top(wins)
        awards.append(Award("most_wins", names, str(best), last_win[names[0]]))
    qualified = {pair: row for pair, row in pairs.items() if row[0] >= MIN_PARTNERSHIP_GAMES}
    if qualified:
        rank = {pair: (row[1] / row[0], row[1]) for pair, row in qualified.items()}
        top = max(rank.values())
        names = tuple(sorted((p for p, r in rank.items() if r == top), key=str.casefold))
        share = round(100 * top[0])
        awards.append(
            Award(
                "best_partnership",
                names,
                f"{share} %",
                qualified[names[0]][2] or None,
                extra={"games": qualified[names[0]][0], "wins": qualified[names[0]][1]},
            )
        )
    if best_nt is not None:
        awards.append(
            Award("highest_no_trump", (best_nt[3],), str(best_nt[0]), best_nt[1], best_nt[2])
        )
    awards.extend(kaisers)
    if best_streak:
        longest = max(run for run, _first, _last in best_streak.values())
        if longest >= 2:
            names = tuple(
                sorted((n for n, r in best_streak.items() if r[0] == longest), key=str.casefold)
            )
            _run, first, last = best_streak[names[0]]
            awards.append(
                Award("longest_streak", names, str(longest), last, extra={"first_game": first})
            )
    if comeback is not None:
        awards.append(
            Award("best_comeback", (comeback[3],), str(comeback[0]), comeback[1], comeback[2])
        )
    attended = {name: count for name, count in (nights or {}).items() if count > 0}
    if attended:
        best, names = _top(attended)
        awards.append(Award("most_nights", names, str(best)))
    return awards
