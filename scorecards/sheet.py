"""What the table score sheet shows, laid out from the engine's `GameScore`: rows of the paper
sheet, notices (bid-out, target), the score-progression chart as inline SVG.

No score arithmetic here: every number shown is one the engine produced (`delta`, `scores`,
`target`, `bid_out`); this module only compares and places them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from kaiser_league.charts import ChartScale
from scorecards.models import Game, Hand
from scorecards.rules import NO_TRUMP_KINDS, GameScore, HandScore, Rules


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    return [" & ".join(names[seat] for seat in side) for side in rules.sides]


def bid_text(kind: str | None, bid: int | None) -> str:
    """A bid as the sheet writes it: "8", "8 no", "8 low", "kaiser", "kaiser 40"."""
    if kind == "kaiser":
        return _("kaiser")
    if kind == "kaiser40":
        return _("kaiser 40")
    if kind == "no":
        return _("%(bid)s no") % {"bid": bid}
    if kind == "low":
        return _("%(bid)s low") % {"bid": bid}
    return str(bid)


@dataclass(frozen=True)
class SheetCell:
    delta: int
    total: int
    bidding: bool


@dataclass(frozen=True)
class SheetRow:
    scored: HandScore
    hand: Hand | None
    dealer_name: str
    bidder_name: str
    bid_label: str
    cells: tuple[SheetCell, ...]
    # The row rendered already (scorecards.sheet_cache), when it looks the same to everyone.
    html: str = ""

    def with_html(self, html: str) -> SheetRow:
        return replace(self, html=html)

    @property
    def doubled(self) -> bool:
        return self.scored.kind in NO_TRUMP_KINDS

    @property
    def confirmed(self) -> bool:
        return self.hand is not None and self.hand.confirmed_at is not None

    @property
    def css(self) -> str:
        if self.scored.thrown_in:
            return "thrown"
        return "made" if self.scored.made else "set"


def sheet_rows(score: GameScore, hands: Sequence[Hand], names: Sequence[str]) -> list[SheetRow]:
    by_number = {hand.number: hand for hand in hands}
    rows = []
    for scored in score.hands:
        rows.append(
            SheetRow(
                scored=scored,
                hand=by_number.get(scored.number),
                dealer_name=names[scored.dealer],
                bidder_name="" if scored.bidder is None else names[scored.bidder],
                bid_label="" if scored.thrown_in else bid_text(scored.kind, scored.bid),
                cells=tuple(
                    SheetCell(delta, total, side == scored.side)
                    for side, (delta, total) in enumerate(
                        zip(scored.delta, scored.scores, strict=True)
                    )
                ),
            )
        )
    return rows


def sheet_notices(score: GameScore, sides: Sequence[str], *, raised: bool = False) -> list[str]:
    """What the table should know before the next hand: sides at the bid-out, the target."""
    notices: list[str] = []
    if score.finished:
        return notices
    if score.bid_out is not None:
        for name, total in zip(sides, score.scores, strict=True):
            if total >= score.bid_out:
                notices.append(
                    _("%(side)s: at %(score)s, can't score without bidding")
                    % {"side": name, "score": total}
                )
    if raised:
        notices.append(_("target now %(target)s") % {"target": score.target})
    return notices


# --- the chart -------------------------------------------------------------------------------

CHART_W, CHART_H, PAD = 360, 150, 6


def score_chart(score: GameScore) -> SafeString:
    """The running totals of each side as an inline SVG line chart, with the target dashed."""
    series = [[0] * score.rules.side_count] + [list(h.scores) for h in score.hands]
    values = [v for totals in series for v in totals]
    scale = ChartScale(
        CHART_W, CHART_H, PAD, min([*values, 0]), max([*values, score.target]), len(series)
    )
    lines = format_html_join(
        "",
        '<polyline class="side side-{}" points="{}"/>',
        (
            (side, scale.points([totals[side] for totals in series]))
            for side in range(score.rules.side_count)
        ),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<line class="zero" x1="0" x2="{w}" y1="{zero}" y2="{zero}"/>'
        '<line class="target" x1="0" x2="{w}" y1="{target}" y2="{target}"/>{lines}</svg>',
        w=CHART_W,
        h=CHART_H,
        label=_("Score progression"),
        zero=scale.y(0),
        target=scale.y(score.target),
        lines=lines,
    )


def sheet_version(game: Game) -> str:
    """Changes whenever a hand is entered, corrected, undone or confirmed (the polling key)."""
    return f"{game.updated_at.timestamp():.6f}"
