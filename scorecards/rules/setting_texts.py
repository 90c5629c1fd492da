"""The words of every setting: its label, its help and the rulebook's section, and the labels of
its choices, translated when asked (the catalogue reads them)."""

from __future__ import annotations

from scorecards.rules.i18n import _


def setting_texts() -> dict[str, tuple[str, str, str]]:
    """Each setting's group, label and one-line help, translated now."""
    return {
        "seats": ("table", _("Players"), _("How many players sit at the table, 2 to 6.")),
        "partnership": (
            "table",
            _("Partnership"),
            _(
                "Who plays together. 4 players play pairs or each for themself, 6 players pairs "
                "or triples, 2, 3 and 5 players each for themself. Left out: pairs for 4 and 6."
            ),
        ),
        "tricks_per_hand": (
            "table",
            _("Tricks per hand"),
            _("8 with the usual pack; left out, 16 in the two-player game, otherwise 8."),
        ),
        "min_bid": (
            "bids",
            _("Minimum bid"),
            _("The lowest bid; the dealer must bid at least this when everyone else passes."),
        ),
        "max_bid": (
            "bids",
            _("Maximum bid"),
            _(
                "The highest bid; no more than the points a hand holds (the tricks plus the "
                "five of hearts)."
            ),
        ),
        "no_trump": (
            "bids",
            _("No-trump bids"),
            _("Bids may be played without trumps; they score double."),
        ),
        "low_no_trump": (
            "bids",
            _("Low no-trump bids"),
            _("Low no-trump bids (lowest card wins) rank above no trump; needs no-trump bids."),
        ),
        "low_ranks_equal": (
            "bids",
            _("Low equals no trump"),
            _("A low and a no-trump bid of the same number rank equal: neither outbids the other."),
        ),
        "dealer_may_equal": (
            "bids",
            _("Dealer may equal"),
            _("The dealer, calling last, takes the contract by equalling the highest bid."),
        ),
        "dealer_may_pass": (
            "bids",
            _("Dealer may pass"),
            _("When everyone else passes, the dealer may pass too and the hand is thrown in."),
        ),
        "no_trump_named": (
            "bids",
            _("No trump named"),
            _(
                "In the auction (8 no outbids 8); or after it, with the trump (dcm454): a plain "
                "bid may be played in no trump, and anyone may equal the highest bid in no trump."
            ),
        ),
        "dealer_sells": (
            "bids",
            _("Dealer sells"),
            _(
                "The dealer accepts the highest bid and scores it, or takes the contract over "
                "by equalling it (Lost Heir). Not with kaiser bids."
            ),
        ),
        "heart_bonus": (
            "scoring",
            _("Five of hearts"),
            _("Points for the side that takes the five of hearts."),
        ),
        "spade_penalty": (
            "scoring",
            _("Three of spades"),
            _("Points, zero or less, for the side that takes the three of spades."),
        ),
        "blank_cards": (
            "scoring",
            _("Blank cards"),
            _("A blank card cancels the five of hearts or three of spades in its trick."),
        ),
        "cover_three": (
            "scoring",
            _("Cover the three"),
            _(
                "A side that takes the three of spades with fewer than 3 tricks scores only the "
                "three's penalty."
            ),
        ),
        "overtricks": (
            "scoring",
            _("Overtricks count"),
            _("A made bid scores all the points taken; off, only the bid."),
        ),
        "set_scores_zero": (
            "scoring",
            _("A set scores nothing"),
            _("A bidder short of the bid scores nothing for the hand instead of losing the bid."),
        ),
        "bid_out": (
            "scoring",
            _("Bid-out"),
            _(
                "A side at or above this score before a hand gains nothing without bidding; "
                "none: no bid-out."
            ),
        ),
        "nonbidder_cap": (
            "scoring",
            _("Non-bidders stop at"),
            _("A side that did not bid gains no further than this score; none: no cap."),
        ),
        "joffre_insult": (
            "scoring",
            _("Joffre insult"),
            _(
                "When the three of spades takes the trick holding the five of hearts, the side "
                "that played the five loses 5."
            ),
        ),
        "target": ("game", _("Target"), _("The score that wins the game.")),
        "nt_target": (
            "game",
            _("Target after a no-trump bid"),
            _(
                "The first made no-trump or low bid raises the target to this; it must be above "
                "the target. None: no raise."
            ),
        ),
        "nt_bid_out": (
            "game",
            _("Bid-out after a no-trump bid"),
            _("The bid-out once the target is raised; left out, raised by as much as the target."),
        ),
        "lose_at": (
            "game",
            _("Lose at"),
            _(
                "A side at or below this score loses; none: nobody loses that way. Left out, "
                "minus the target in the presets that play it."
            ),
        ),
        "win_requires_bid": (
            "game",
            _("Win only by bidding"),
            _("A side wins only on a hand in which it made its bid."),
        ),
        "both_cross": (
            "game",
            _("Both sides reach the target"),
            _(
                "When a hand takes more than one side to the target: the bidding side wins, "
                "the higher score wins (level: the first side, as kaisergame.com), or the game "
                "is drawn."
            ),
        ),
        "nt_target_for": (
            "game",
            _("Target after a no-trump bid applies to"),
            _(
                "The rest of the game, from the first made no-trump bid; or only a hand played "
                "in no trump, which must reach it to win."
            ),
        ),
        "bid_out_keeps_losses": (
            "scoring",
            _("Losses count at the bid-out"),
            _(
                "A side at the bid-out that did not bid still loses the points it took below "
                "zero; off, nothing counts for it."
            ),
        ),
        "bid_out_bidder_to_target": (
            "scoring",
            _("Bidders at the bid-out go out or gain nothing"),
            _(
                "A bidding side at the bid-out gains from a made bid only when it reaches the "
                "target; a set still loses."
            ),
        ),
        "defender_all_or_nothing": (
            "scoring",
            _("Non-bidders all or nothing"),
            _(
                "A side that did not bid scores nothing on a hand that would take it past the "
                "target (dcm454)."
            ),
        ),
        "bid_out_heart_wins": (
            "game",
            _("Heart wins at the bid-out"),
            _("A side at the bid-out that takes the five of hearts without bidding wins."),
        ),
        "bid_13_no": (
            "special",
            _("13 no"),
            _(
                "A bid of 13 in no trump above the highest bid, scoring this either way, not "
                "doubled (kaiser-lib's Troika: 52). None: not played."
            ),
        ),
        "bid_14_no": (
            "special",
            _("14 no"),
            _(
                "A bid of 14 in no trump above 13 no, scoring this either way, not doubled "
                "(kaiser-lib: 1000). None: not played."
            ),
        ),
        "kaiser_bid": (
            "special",
            _("Kaiser bid"),
            _(
                "A bid to take 12 points in no trump that wins or loses the game: by the bidder "
                "alone (solo) or by the side (team). Needs no-trump bids."
            ),
        ),
        "kaiser_40": (
            "special",
            _("Kaiser 40"),
            _("The bidder alone, partner sitting out, must take every trick: plus or minus 40."),
        ),
    }


def choice_labels() -> dict[str, dict[str, str]]:
    return {
        "partnership": {
            "pairs": _("Pairs"),
            "triples": _("Triples"),
            "individual": _("Each for themself"),
        },
        "kaiser_bid": {"off": _("Not played"), "solo": _("Solo"), "team": _("Team")},
        "both_cross": {
            "bidder": _("The bidding side wins"),
            "higher": _("The higher score wins"),
            "tie": _("The game is drawn"),
        },
        "no_trump_named": {
            "auction": _("In the auction"),
            "after": _("After the auction"),
        },
        "nt_target_for": {
            "game": _("The rest of the game"),
            "hand": _("A no-trump hand only"),
        },
    }
