"""Seating and pairing for tournament nights. Plain Python: no Django, no I/O, deterministic for a
given seed, so a draw can be reproduced and tested.

Players and pairs are plain ints (entry ids). A table of a rotating-partners draw is four players
in seat order: seats 0 and 2 are partners against seats 1 and 3 (the engine's sides for four
seats). A table of a fixed-pairs draw is two pair ids.

    history = History()
    draw = rotating_draw(players, history, seed=7)      # round 1
    history.add(draw)
    draw = rotating_draw(players, history, seed=7)      # round 2: new partners where possible

- `rotating_draw`: partners repeat as little as possible, opponents spread, sit-outs follow
  `sitout_order` (those who have played the most rounds sit out first, so a late arrival is
  not benched on arrival); with `ranking` it moves winners up and losers down instead (tables
  by standing, partners still rotated).
- `round_robin_draw`: fixed pairs, the circle method; an odd count gives a bye each round.
- `swiss_draw`: fixed pairs by score group, never a rematch (SeatingError when impossible).

Who sits out (`sitout_order`), the one rule for every format:
1. the most rounds played at a table first (a late arrival, or a player who has already sat
   out, has played fewer and waits);
2. then the fewest sit-outs so far;
3. then the format's own preference (rotating: the circle schedule's bye, then whole scheduled
   pairs in a seeded order; Swiss: the lowest-ranked pair);
4. then the order the players were given in (entry order): the sort is stable.
With no arrival or withdrawal every present player has played `rounds - sit-outs`, so rule 1 is
"fewest sit-outs first": nobody sits out twice before everyone present has sat out once.

What this guarantees, round by round (tests/test_fair_sitouts.py checks it over any sequence of
arrivals and withdrawals): everyone who sits out has played at least as many rounds as
everyone seated, and among those level on rounds played, has sat out no more often; so nobody
sits out while a present player who has played more rounds is seated. Players present for the
same rounds never differ by more than one round played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

TABLE_SIZE = 4
Cost = Callable[[int, int], int]


class SeatingError(ValueError):
    """The draw cannot be made (too few players, no pairing without a rematch, ...)."""


@dataclass(frozen=True)
class Draw:
    tables: tuple[tuple[int, ...], ...]
    sitouts: tuple[int, ...] = ()


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """What earlier rounds of a rotating-partners night did: who partnered and opposed whom, who
    played at a table (rounds played, per player) and who sat out."""

    partners: Counter = field(default_factory=Counter)
    opponents: Counter = field(default_factory=Counter)
    sitouts: Counter = field(default_factory=Counter)
    played: Counter = field(default_factory=Counter)
    rounds: int = 0

    def add(self, draw: Draw) -> None:
        self.rounds += 1
        for table in draw.tables:
            a, b, c, d = table
            self.partners[_key(a, c)] += 1
            self.partners[_key(b, d)] += 1
            for x in (a, c):
                for y in (b, d):
                    self.opponents[_key(x, y)] += 1
            self.played.update(table)
        for player in draw.sitouts:
            self.sitouts[player] += 1

    @classmethod
    def of(cls, draws: Iterable[Draw]) -> History:
        history = cls()
        for draw in draws:
            history.add(draw)
        return history

    def partner_repeats(self) -> int:
        """Partnerships played more than once, counted once per extra time."""
        return sum(count - 1 for count in self.partners.values() if count > 1)


def partner_repeats_lower_bound(games_played: Mapping[int, int], field_size: int) -> int:
    """No draw can do better: a player who played g games has at most `field_size - 1` distinct
    partners, so at least g - (field_size - 1) of their games repeat a partner; each repeat is
    shared by two players."""
    extra = sum(max(0, g - (field_size - 1)) for g in games_played.values())
    return (extra + 1) // 2


def sitout_order(
    players: Sequence[int],
    played: Mapping[int, int],
    sitouts: Mapping[int, int],
    preference: Mapping[int, float] | None = None,
) -> list[int]:
    """`players`, first to sit out first: the most rounds played, then the fewest sit-outs, then
    the lowest `preference` (absent: 0), then the order of `players`. A round's sit-outs are the
    first ones of this order; see the module's docstring for what that guarantees."""
    prefer = preference or {}
    return sorted(
        players,
        key=lambda p: (-played.get(p, 0), sitouts.get(p, 0), prefer.get(p, 0)),
    )


def _sitouts_choose(
    players: Sequence[int], count: int, history: History, rng: random.Random
) -> list[int]:
    """The first `count` players of `sitout_order`. Among players level on rounds played and
    sit-outs, prefer the circle schedule's bye and then whole scheduled pairs, so that the
    players left keep their scheduled (new) partners."""
    if count == 0:
        return []
    preference: dict[int, float] = {}
    schedule = _circle_rounds(players, history.rounds)
    rng.shuffle(schedule)
    for index, (a, b) in enumerate(schedule):
        if a is None or b is None:
            seated = a if b is None else b
            if seated is not None:
                preference[seated] = -1
        else:
            preference[a] = preference[b] = index
    return sitout_order(players, history.played, history.sitouts, preference)[:count]


def _circle_rounds(players: Sequence[int], round_index: int) -> list[tuple[int | None, int | None]]:
    """Round `round_index` (0-based) of the circle method over `players` (None is the bye)."""
    arr: list[int | None] = list(players)
    if len(arr) % 2:
        arr.append(None)
    m = len(arr)
    if m < 2:
        return []
    rest = arr[1:]
    shift = round_index % (m - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    line = [arr[0], *rest]
    return [(line[i], line[m - 1 - i]) for i in range(m // 2)]


def _matching_improve(
    pairs: list[tuple[int, int]], cost: Cost, rng: random.Random
) -> list[tuple[int, int]]:
    """2-opt: re-pair two pairs whenever that lowers the cost, until no swap helps."""
    pairs = list(pairs)
    improved = True
    while improved:
        improved = False
        indices = list(range(len(pairs)))
        rng.shuffle(indices)
        for i, j in combinations(indices, 2):
            a, b = pairs[i]
            c, d = pairs[j]
            now = cost(a, b) + cost(c, d)
            ac = cost(a, c) + cost(b, d)
            ad = cost(a, d) + cost(b, c)
            if ac < now and ac <= ad:
                pairs[i], pairs[j] = (a, c), (b, d)
                improved = True
            elif ad < now:
                pairs[i], pairs[j] = (a, d), (b, c)
                improved = True
    return pairs


def _greedy_matching(players: list[int], cost: Cost, rng: random.Random) -> list[tuple[int, int]]:
    left = list(players)
    rng.shuffle(left)
    pairs = []
    while left:
        a = left.pop()
        best = min(left, key=lambda b: (cost(a, b), rng.random()))
        left.remove(best)
        pairs.append((a, best))
    return pairs


def _partner_matching(
    playing: list[int], order: Sequence[int], history: History, rng: random.Random, tries: int
) -> list[tuple[int, int]]:
    """Pairs of partners among `playing` with the fewest repeats (squared, so that one pair
    playing three times counts more than two pairs playing twice)."""

    def cost(a: int, b: int) -> int:
        return history.partners[_key(a, b)] ** 2

    # The circle method over the whole field is a schedule with no repeated partner for the
    # first n-1 rounds: keep it whenever it repeats nobody, so later rounds still find it intact.
    # Players whose scheduled partner sits out are re-paired greedily.
    present = set(playing)
    scheduled = _circle_rounds(order, history.rounds)
    seeded = [(a, b) for a, b in scheduled if a in present and b in present]
    lonely = [p for p in playing if not any(p in pair for pair in seeded)]
    candidates = [seeded + _greedy_matching(lonely, cost, rng)]
    if sum(cost(a, b) for a, b in candidates[0]) == 0:
        return candidates[0]
    candidates += [_greedy_matching(playing, cost, rng) for _ in range(tries)]
    best, best_cost = None, None
    for start in candidates:
        pairs = _matching_improve(start, cost, rng)
        total = sum(cost(a, b) for a, b in pairs)
        if best_cost is None or total < best_cost:
            best, best_cost = pairs, total
        if best_cost == 0:
            break
    assert best is not None
    return best


def _tables_of_pairs(
    pairs: list[tuple[int, int]], history: History, rng: random.Random
) -> list[tuple[int, int, int, int]]:
    """Put pairs of partners face to face so that opponents spread (fewest repeats)."""
    n = len(pairs)

    def cost(i: int, j: int) -> int:
        return sum(history.opponents[_key(x, y)] ** 2 for x in pairs[i] for y in pairs[j])

    matches = _matching_improve(_greedy_matching(list(range(n)), cost, rng), cost, rng)
    tables = []
    for i, j in matches:
        (a, c), (b, d) = pairs[i], pairs[j]
        tables.append((a, b, c, d))
    return tables


def _best_split(four: Sequence[int], history: History) -> tuple[int, int, int, int]:
    """Of the three ways to split four players into two partnerships, the one repeating fewest
    partners, then fewest opponents."""
    a, b, c, d = four
    options = [(a, b, c, d), (a, c, b, d), (a, b, d, c)]  # seats 0&2 partner, 1&3 partner

    def cost(t: tuple[int, int, int, int]) -> tuple[int, int]:
        w, x, y, z = t
        partner = history.partners[_key(w, y)] + history.partners[_key(x, z)]
        opponent = sum(history.opponents[_key(p, q)] for p in (w, y) for q in (x, z))
        return partner, opponent

    return min(options, key=cost)


def rotating_draw(
    players: Sequence[int],
    history: History,
    *,
    seed: int = 0,
    ranking: Sequence[int] | None = None,
    tries: int = 12,
) -> Draw:
    """Tables of four for a rotating-partners round.

    `players` are those present this round (in a stable order, e.g. by entry: the circle-method
    schedule follows it). `history` holds the earlier rounds. With `ranking` (every player, best
    first) tables are filled in standing order, so winners move up and losers down; partners
    within a table are still chosen to avoid repeats."""
    if len(players) < TABLE_SIZE:
        raise SeatingError("at least four players are needed")
    if len(set(players)) != len(players):
        raise SeatingError("a player appears twice")
    rng = random.Random(seed * 1_000_003 + history.rounds)
    sitouts = _sitouts_choose(players, len(players) % TABLE_SIZE, history, rng)
    out = set(sitouts)
    playing = [p for p in players if p not in out]
    if ranking is not None:
        position = {p: i for i, p in enumerate(ranking)}
        ordered = sorted(playing, key=lambda p: position.get(p, len(position)))
        tables = [
            _best_split(ordered[i : i + TABLE_SIZE], history)
            for i in range(0, len(ordered), TABLE_SIZE)
        ]
    else:
        pairs = _partner_matching(playing, players, history, rng, tries)
        tables = _tables_of_pairs(pairs, history, rng)
    return Draw(tuple(tables), tuple(sorted(sitouts)))


def round_robin_draw(
    pairs: Sequence[int], round_number: int, *, absent: Iterable[int] = ()
) -> Draw:
    """Round `round_number` (1-based) of a round robin of fixed `pairs` by the circle method.

    `pairs` is the field as it was at the first round, in a fixed order; an odd field gives one
    bye a round. A pair in `absent` (withdrawn) is a bye for its scheduled opponent. After
    len(pairs) - 1 rounds (len(pairs) when odd) the schedule starts over."""
    if len(pairs) < 2:
        raise SeatingError("at least two pairs are needed")
    gone = set(absent)
    tables, byes = [], []
    for a, b in _circle_rounds(list(pairs), round_number - 1):
        live = [p for p in (a, b) if p is not None and p not in gone]
        if len(live) == 2:
            tables.append((live[0], live[1]))
        else:
            byes.extend(live)
    return Draw(tuple(tables), tuple(sorted(byes)))


def swiss_draw(
    ranked: Sequence[int],
    played: Iterable[tuple[int, int]],
    byes: Mapping[int, int] | None = None,
    *,
    node_limit: int = 200_000,
) -> Draw:
    """Pair fixed pairs by standing: `ranked` is the field best first, so the leader meets the
    highest-ranked pair it has not met (score groups stay together, the lowest pair floats down).
    An odd field gives the bye by `sitout_order`: to the pair that has played the most rounds
    (its matches in `played`), then has had the fewest byes, then is ranked lowest; a pair that
    arrived late is not given the bye before those that played more.

    Never a rematch: the search backtracks over the whole round, and raises SeatingError if no
    pairing without a rematch exists (or the search is too long)."""
    ranked = list(ranked)
    if len(ranked) < 2:
        raise SeatingError("at least two pairs are needed")
    played = list(played)
    met = {_key(a, b) for a, b in played}
    byes = byes or {}
    if len(ranked) % 2:
        rounds_played = Counter(pair for match in played for pair in match)
        bye_order = sitout_order(list(reversed(ranked)), rounds_played, byes)
    else:
        bye_order = [None]  # type: ignore[list-item]  # an even field: nobody sits out
    budget = [node_limit]

    def pair_up(left: list[int]) -> list[tuple[int, int]] | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        top, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            if _key(top, other) in met:
                continue
            tail = pair_up(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(top, other), *tail]
        return None

    for bye in bye_order:
        field_ = [p for p in ranked if p != bye]
        tables = pair_up(field_)
        if tables is not None:
            return Draw(tuple(tables), () if bye is None else (bye,))
        if budget[0] < 0:
            break
    raise SeatingError("no pairing without a rematch is left")
