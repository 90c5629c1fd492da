"""Hypothesis strategies for valid rules, hands and games.

The hands are valid by construction (tricks adding up, special cards only with a side that took
a trick, seat tricks where a kaiser needs them, auctions that follow the bidding rules), so the
properties exercise real games rather than refusals. A generated game may run on past its end;
`played` keeps the hands up to the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from hypothesis import strategies as st

from scorecards.rules import (
    NOBODY,
    PRESETS,
    GameScore,
    HandInput,
    Rules,
    call_text,
    game_play,
    game_score,
    max_bid_limit,
    rules_build,
)

TABLES = [(2, "individual"), (3, "individual"), (4, "pairs"), (5, "individual")]
TABLES += [(4, "individual"), (6, "pairs"), (6, "triples")]
TOGGLES = (
    "overtricks",
    "cover_three",
    "bid_out_heart_wins",
    "dealer_may_equal",
    "dealer_may_pass",
    "low_ranks_equal",
    "win_requires_bid",
    "joffre_insult",
    "set_scores_zero",
    "blank_cards",
)


def maybe(draw: st.DrawFn) -> bool:
    """Change a setting about a quarter of the time."""
    return draw(st.integers(0, 3)) == 0


@st.composite
def rules_strategy(draw: st.DrawFn, presets: Sequence[str] = tuple(PRESETS)) -> Rules:
    """A preset with some settings changed, always a valid combination."""
    preset = draw(st.sampled_from(presets))
    base = PRESETS[preset]
    data: dict = {"preset": preset}
    for name in TOGGLES:
        if maybe(draw):
            data[name] = draw(st.booleans())
    sells = base["dealer_sells"]
    if maybe(draw):
        sells = data["dealer_sells"] = draw(st.booleans())
    if not sells and maybe(draw):
        data["kaiser_40"] = draw(st.booleans())
    after = base["no_trump_named"] == "after"  # plays no low or kaiser bids
    if after:
        data["kaiser_40"] = False
    if base["no_trump"] and not after:
        if maybe(draw):
            data["low_no_trump"] = draw(st.booleans())
        if not sells and maybe(draw):
            data["kaiser_bid"] = draw(st.sampled_from(("off", "solo", "team")))
    if maybe(draw):
        data["seats"], data["partnership"] = draw(st.sampled_from(TABLES))
    if maybe(draw):
        data["min_bid"] = draw(st.integers(1, 8))
        data["max_bid"] = draw(st.integers(data["min_bid"], 12))
    if maybe(draw):
        data["target"] = draw(st.integers(20, 80))
        if base["nt_target"] is not None:
            data["nt_target"] = draw(st.none() | st.integers(data["target"] + 1, 95))
    for name, values in (
        ("bid_out", st.none() | st.integers(20, 60)),
        ("nonbidder_cap", st.none() | st.integers(20, 60)),
        ("lose_at", st.none() | st.integers(-80, -10)),
        ("heart_bonus", st.integers(0, 7)),
        ("spade_penalty", st.integers(-5, 0)),
    ):
        if maybe(draw):
            data[name] = draw(values)
    # Never more bid than a hand holds.
    limit = max_bid_limit(
        base["tricks_per_hand"] if "seats" not in data else (16 if data["seats"] == 2 else 8),
        data.get("heart_bonus", base["heart_bonus"]),
    )
    if sells:  # the dealer sells no kaiser
        data["kaiser_bid"], data["kaiser_40"] = "off", False
    if data.get("max_bid", base["max_bid"]) > limit:
        data["max_bid"] = limit
        data["min_bid"] = min(data.get("min_bid", base["min_bid"]), limit)
    return rules_build(data)


def split(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """`total` tricks dealt out over `parts` seats, any way."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    edges = [0, *cuts, total]
    return [high - low for low, high in pairwise(edges)]


@st.composite
def auction_strategy(
    draw: st.DrawFn, rules: Rules, dealer: int, bidder: int, kind: str, bid: int
) -> tuple[str, ...]:
    """An auction that `bidder` wins with `kind` `bid`: some seats before it bid lower, one
    rising call after another; the seats after it pass."""
    order = [(dealer + step) % rules.seats for step in range(1, rules.seats + 1)]
    place = order.index(bidder)
    top = rules.bid_rank(kind, bid)
    may_equal = bidder == dealer and rules.dealer_may_equal
    below: dict[tuple[int, int], str] = {}
    for other in rules.kinds_allowed():
        numbers = (
            [None] if other in ("kaiser", "kaiser40") else range(rules.min_bid, rules.max_bid + 1)
        )
        for number in numbers:
            rank = rules.bid_rank(other, number)
            # Named after the auction, a dealer who equals a no-trump call plays in no trump.
            equal_no = rules.no_trump_named == "after" and other == "no" and kind != "no"
            if rank < top or (may_equal and rank == top and not equal_no):
                below[rank] = call_text(other, number)
    ranks = sorted(below)
    bidding_before = [seat for seat in range(place) if draw(st.booleans())]
    count = min(len(bidding_before), len(ranks))
    chosen = sorted(
        draw(
            st.lists(
                st.sampled_from(range(len(ranks))), min_size=count, max_size=count, unique=True
            )
        )
        if ranks
        else []
    )
    calls = ["pass"] * rules.seats
    for position, index in zip(bidding_before[:count], chosen, strict=True):
        calls[position] = below[ranks[index]]
    calls[place] = call_text(kind, bid)
    return tuple(calls)


@st.composite
def hand_strategy(draw: st.DrawFn, rules: Rules, dealer: int) -> HandInput:
    """A valid played hand for `rules`, dealt by `dealer`."""
    kind = draw(st.sampled_from(rules.kinds_allowed()))
    bidder = draw(st.integers(0, rules.seats - 1))
    bid = {"kaiser": 12, "kaiser40": 40}.get(kind) or draw(
        st.integers(rules.min_bid, rules.max_bid)
    )
    tph = rules.tricks_per_hand
    partners = rules.partners(bidder)
    side = rules.side_of(bidder)
    seat_tricks = [0] * rules.seats
    made_kaiser = kind == "kaiser" and tph > 1 and draw(st.booleans())
    if kind == "kaiser40" and draw(st.booleans()):
        seat_tricks[bidder] = tph
    elif made_kaiser:
        # The classic made kaiser: all but one trick, the five, partner(s) empty-handed.
        opponents = [s for s in range(rules.seats) if rules.side_of(s) != side]
        seat_tricks[bidder] = tph - 1
        seat_tricks[draw(st.sampled_from(opponents))] = 1
    else:
        playing = [s for s in range(rules.seats) if kind != "kaiser40" or s not in partners]
        for seat, count in zip(playing, split(draw, tph, len(playing)), strict=True):
            seat_tricks[seat] = count
    tricks = [sum(seat_tricks[s] for s in seats) for seats in rules.sides]
    holders = [s for s in range(rules.side_count) if tricks[s]]
    # A card nobody took: in a kaiser 40 partner's hand, or cancelled by a blank card.
    unplayed = [NOBODY] if (kind == "kaiser40" and partners) or rules.blank_cards else []
    if made_kaiser:
        five = side
        three = next(s for s in holders if s != side)
    else:
        five = draw(st.sampled_from(holders + unplayed))
        three = draw(st.sampled_from(holders + unplayed))
    insult = None
    if rules.joffre_insult and five is not NOBODY and five == three and draw(st.booleans()):
        insult = draw(st.integers(0, rules.side_count - 1))
    needs_seats = kind == "kaiser40" or (kind == "kaiser" and rules.kaiser_bid == "solo")
    form = draw(st.sampled_from(("seats", "both") if needs_seats else ("sides", "seats", "both")))
    fields: dict = {
        "tricks": None if form == "seats" else tuple(tricks),
        "seat_tricks": None if form == "sides" else tuple(seat_tricks),
        "five_hearts": five,
        "three_spades": three,
        "insult": insult,
        "dealer": dealer if draw(st.booleans()) else None,
    }
    if draw(st.booleans()):
        fields["auction"] = draw(auction_strategy(rules, dealer, bidder, kind, bid))
        # Given alongside an auction, these must agree with it; leave some out.
        fields["bidder"] = bidder if draw(st.booleans()) else None
        fields["bid"] = bid if kind not in ("kaiser", "kaiser40") and draw(st.booleans()) else None
        fields["kind"] = kind
    else:
        fields.update(bidder=bidder, kind=kind, bid=None if kind in ("kaiser", "kaiser40") else bid)
    return HandInput(**fields)


@st.composite
def game_strategy(
    draw: st.DrawFn, rules: st.SearchStrategy[Rules] | None = None, max_hands: int = 30
) -> tuple[Rules, int, list[HandInput]]:
    """Rules, a first dealer and hands in deal order (possibly running past the game's end)."""
    chosen = draw(rules if rules is not None else rules_strategy())
    dealer = first = draw(st.integers(0, chosen.seats - 1))
    hands: list[HandInput] = []
    for _ in range(draw(st.integers(0, max_hands))):
        if draw(st.integers(0, 9)) == 0:
            hands.append(HandInput(thrown_in=True, dealer=dealer if draw(st.booleans()) else None))
        else:
            hands.append(draw(hand_strategy(chosen, dealer)))
            dealer = (dealer + 1) % chosen.seats
    return chosen, first, hands


def played(
    rules: Rules, first: int, hands: Sequence[HandInput]
) -> tuple[list[HandInput], GameScore]:
    """The hands up to the end of the game, and the game they make (scored one by one)."""
    game = game_score(rules, [], first)
    kept: list[HandInput] = []
    for one in hands:
        if game.finished:
            break
        game = game_play(game, one)
        kept.append(one)
    return kept, game
