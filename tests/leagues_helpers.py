"""Games with hand-computed results for the standings, ratings and page tests (issue 4).

Standard rules (target 52, lose at -52; 8 tricks, five of hearts +5, three of spades -3).

GAME_1: Ann (seat 0) & Bob (seat 2) against Cat (seat 1) & Dan (seat 3), first dealer 0.
  1. Ann 8:   tricks 7-1, 5H side 0, 3S side 1 -> points 12 / -2, made: +12 / -2  -> 12, -2
  2. Cat 7:   tricks 3-5, 5H side 1, 3S side 0 -> points 0 / 10, made: 0 / +10    -> 12, 8
  3. Bob 9:   tricks 4-4, both cards side 0    -> points 6 / 4, set: -9 / +4     -> 3, 12
  4. thrown in                                                                   -> 3, 12
  5. Ann 12:  7-1, 5H 0, 3S 1 -> +12 / -2                                        -> 15, 10
  6. Bob 12:  same                                                               -> 27, 8
  7. Ann 12:  same                                                               -> 39, 6
  8. Bob 12:  same                                                               -> 51, 4
  9. Ann 8:   same -> +12 / -2: side 0 made its bid at 63 >= 52 and wins         -> 63, 2
  8 hands played (one throw-in).

GAME_2 (later): Ann (0) & Cat (2) against Bob (1) & Dan (3), first dealer 0.
  1. Ann 12 no: 4-4, 5H side 0, 3S side 1 -> points 9 / 1, set: -24 / +1        -> -24, 1
  2. Cat 12 no: same                                                             -> -48, 2
  3. Ann 7 no:  same, made: 2 x 9 = +18 / +1                                     -> -30, 3
  4. Bob 7:     0-8, both cards side 1 -> points 0 / 10, made: 0 / +10          -> -30, 13
  5. Cat 12 no: 4-4 as in 1, set: -24 / +1: side 0 at -54 <= -52 loses           -> -54, 14
"""

from __future__ import annotations

from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, hand_record


def trump(bidder: int, bid: int, tricks: tuple[int, int], five: int, three: int, kind="trump"):
    return HandInput(
        bidder=bidder, bid=bid, kind=kind, tricks=tricks, five_hearts=five, three_spades=three
    )


GAME_1 = [
    trump(0, 8, (7, 1), 0, 1),
    trump(1, 7, (3, 5), 1, 0),
    trump(2, 9, (4, 4), 0, 0),
    HandInput(thrown_in=True),
    trump(0, 12, (7, 1), 0, 1),
    trump(2, 12, (7, 1), 0, 1),
    trump(0, 12, (7, 1), 0, 1),
    trump(2, 12, (7, 1), 0, 1),
    trump(0, 8, (7, 1), 0, 1),
]
GAME_2 = [
    trump(0, 12, (4, 4), 0, 1, "no"),
    trump(2, 12, (4, 4), 0, 1, "no"),
    trump(0, 7, (4, 4), 0, 1, "no"),
    trump(1, 7, (0, 8), 1, 1),
    trump(2, 12, (4, 4), 0, 1, "no"),
]


def play(club, season, seats, hands, rules=None, first_dealer=0):
    """Start a game of `club` in `season` with players `seats` and enter `hands`."""
    game = game_start(
        seats=seats,
        rules=rules or rules_build({"preset": "standard"}),
        club=club,
        season=season,
        first_dealer=first_dealer,
    )
    for hand in hands:
        hand_record(game=game, hand=hand)
    game.refresh_from_db()
    return game


def two_games(club, season, by_name):
    """GAME_1 then GAME_2 of the module docstring; `by_name` maps Ann, Bob, Cat, Dan to players."""
    ann, bob, cat, dan = (by_name[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    first = play(club, season, [ann, cat, bob, dan], GAME_1)
    second = play(club, season, [ann, bob, cat, dan], GAME_2)
    return first, second


def night_held(club, season, names, day, hands: int = 1, name: str = "") -> None:
    """A club night of `season` on `day` (a date), one round whose every table plays `hands`
    hands the bidder makes, then finished; the standings are not rebuilt here."""
    from leagues.tournaments.services import (
        entry_register,
        round_draw,
        tournament_create,
        tournament_finish,
    )

    night = tournament_create(
        club=club,
        name=name or f"Night of {day}",
        date=day,
        rounds=1,
        hands_per_round=hands,
        extra_hand_on_tie=False,
        season=season,
    )
    for player in names:
        entry_register(tournament=night, player=player, checked_in=True)
    for table in round_draw(tournament=night).tables:
        for _hand in range(hands):
            hand_record(game=table.game, hand=trump(0, 7, (7, 1), 0, 1))
    tournament_finish(tournament=night)
