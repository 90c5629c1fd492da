"""What the table score sheet shows, laid out from the engine's `GameScore`: rows of the paper
sheet, notices (bid-out, target), the score-progression chart as inline SVG.

No score arithmetic here: every number shown is one the engine produced (`delta`, `scores`,
`target`, `bid_out`); this module only compares and places them.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise

from django.urls import reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
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
    # Who bid first: the seat after the dealer (the auction goes round from the dealer's left).
    first_name: str = ""
    sides: tuple[str, ...] = ()

    @property
    def said(self) -> str:
        """The hand in one line, as the action bar says it once saved: "Hand 5: Ann & Cat 8
        made, +9 / Bob & Dan +1" (the engine's deltas, the bidding side first)."""
        scored = self.scored
        if scored.thrown_in:
            return _("Hand %(n)s: thrown in, %(dealer)s deals again") % {
                "n": scored.number,
                "dealer": self.dealer_name,
            }
        parts: list[str] = []
        for side, (name, cell) in enumerate(zip(self.sides, self.cells, strict=True)):
            if side == scored.side:
                verdict = (
                    _("%(side)s %(bid)s made, %(delta)s")
                    if scored.made
                    else _("%(side)s %(bid)s set, %(delta)s")
                )
                parts.insert(
                    0, verdict % {"side": name, "bid": self.bid_label, "delta": _signed(cell.delta)}
                )
            else:
                parts.append(f"{name} {_signed(cell.delta)}")
        return _("Hand %(n)s: %(sides)s") % {"n": scored.number, "sides": " / ".join(parts)}

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

    @functools.cached_property
    def shown(self) -> str:
        """What the row shows to every viewer, as text: its part of the fingerprint
        (`rows_digest`), worked out once for a row kept between requests
        (scorecards.sheet_cache)."""
        confirmed_by = self.hand.confirmed_by_name if self.confirmed and self.hand else None
        return repr((self.scored, self.dealer_name, self.bidder_name, self.bid_label, confirmed_by))


def sheet_rows(score: GameScore, hands: Sequence[Hand], names: Sequence[str]) -> list[SheetRow]:
    by_number = {hand.number: hand for hand in hands}
    sides = tuple(side_names(score.rules, names))
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
                first_name=names[(scored.dealer + 1) % len(names)],
                sides=sides,
            )
        )
    return rows


@dataclass(frozen=True)
class RowMarks:
    """What a row shows besides its hand: the corrected badge, whether hands wait for a
    confirmation, the hands this viewer may confirm (a ✓ form on their row, in the name of
    `confirmer`, carrying the viewer's `csrf_token`). `back_page`: the history page the ✓
    returns to, a plain post answered by a redirect (None: the sheet's ✓, answered in place
    by htmx)."""

    corrected: Collection[int] = frozenset()
    needs_confirming: bool = False
    confirmable: Collection[int] = frozenset()
    confirmer: str = ""
    csrf_token: str = ""
    back_page: int | None = None


@dataclass(frozen=True)
class DrawnRow:
    """A row drawn for every viewer alike: `head`, up to the end of its bid (a confirmed hand's
    ✓ included), and `tail`, the rest; `open`: the hand waits for a confirmation, so a viewer
    who may confirm it gets their ✓ form between the two."""

    number: int
    head: str
    tail: str
    open: bool


class _RowDrawer:
    """Draws rows of one game: the words, the links' stem and the escaped names looked up once,
    then one f-string per row (a page draws every row: format_html and reverse() per cell cost
    some ten times as much). Uses `marks.corrected` and `marks.needs_confirming` only: what a
    viewer may confirm is added by `_ConfirmForms`."""

    def __init__(self, game_id: int, marks: RowMarks) -> None:
        self.marks = marks
        stem = reverse("hand_detail", args=[game_id, 1])
        # "/games/7/hands/1/" -> "/games/7/hands/": each hand's address is the stem + number.
        self.stem = escape(stem[: -len("1/")])
        self.history = _("Hand %(n)s: history")
        # The badge is part of the hand's link (both open its history): one target, not two.
        self.corrected = format_html(
            ' <span class="badge corrected" title="{}">{}</span>',
            _("Corrected: see the history"),
            _("corrected"),
        )
        self.first = _("%(name)s bids 1st")
        self.thrown = escape(_("thrown in"))
        self.set = format_html(' <span class="badge set">{}</span>', _("set"))
        self.target = _("target %(t)s")

    def bid(self, row: SheetRow) -> str:
        scored = row.scored
        if scored.thrown_in:
            return self.thrown
        html = (
            f'<span class="bidder">{escape(row.bidder_name)}</span> <b>{escape(row.bid_label)}</b>'
        )
        if row.doubled:
            html += ' <span class="badge">×2</span>'
        if not scored.made:
            html += self.set
        if scored.target_raised:
            html += f' <span class="badge">{escape(self.target % {"t": scored.target})}</span>'
        return html

    def row(self, row: SheetRow) -> DrawnRow:
        marks = self.marks
        number = row.scored.number
        url = f"{self.stem}{number}/"
        asked = marks.needs_confirming
        unconfirmed = " unconfirmed" if asked and not row.confirmed else ""
        corrected = self.corrected if number in marks.corrected else ""
        cells = "".join(
            f'<td class="num side-{side}{" bidding" if cell.bidding else ""}">'
            f'<small class="delta">{_signed(cell.delta)}</small> <b>{cell.total}</b></td>'
            for side, cell in enumerate(row.cells)
        )
        ok = ""
        if asked and row.confirmed:
            assert row.hand is not None
            ok = f' <span class="ok" title="{escape(row.hand.confirmed_by_name)}">✓</span>'
        label = escape(self.history % {"n": number})
        head = (
            f'<tr class="{row.css}{unconfirmed}" id="hand-{number}"><td class="num">'
            f'<a href="{url}" class="hand-link" aria-label="{label}">{number}{corrected}</a></td>'
            f'<td>{escape(row.dealer_name)} <small class="first-bid">'
            f"{escape(self.first % {'name': row.first_name})}</small></td>"
            f"<td>{self.bid(row)}{ok}"
        )
        return DrawnRow(number, head, f"</td>{cells}</tr>\n", asked and not row.confirmed)


class _ConfirmForms:
    """The ✓ forms of one viewer (`marks.confirmable`, in the name of `marks.confirmer`)."""

    def __init__(self, game_id: int, marks: RowMarks) -> None:
        self.marks = marks
        self.confirm_stem = escape(reverse("hand_confirm", args=[game_id, 1])[: -len("1/confirm")])
        self.confirm_label = _("✓ %(name)s: confirm hand %(n)s")
        self.confirm_text = escape(_("✓ %(name)s") % {"name": marks.confirmer})
        self.token = escape(marks.csrf_token)

    def form(self, number: int) -> str:
        url = f"{self.confirm_stem}{number}/confirm"
        label = escape(self.confirm_label % {"name": self.marks.confirmer, "n": number})
        back = self.marks.back_page
        # The history page has no #sheet to swap: its ✓ posts plainly and comes back to it.
        answer = f' hx-post="{url}" hx-target="#sheet" hx-swap="outerHTML"' if back is None else ""
        page = "" if back is None else f'<input type="hidden" name="history_page" value="{back}">'
        return (
            f' <form method="post" action="{url}"{answer} class="confirm">'
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{self.token}">{page}'
            f'<button type="submit" class="secondary small" aria-label="{label}">'
            f"{self.confirm_text}</button></form>"
        )


def _signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else str(delta)


def rows_drawn(game_id: int, rows: Sequence[SheetRow], marks: RowMarks) -> list[DrawnRow]:
    """The rows as every viewer sees them (`marks.corrected`, `marks.needs_confirming`; no
    viewer's ✓ form): what `rows_joined` completes for one viewer."""
    drawer = _RowDrawer(game_id, marks)
    return [drawer.row(row) for row in rows]


def rows_joined(game_id: int, drawn: Sequence[DrawnRow], marks: RowMarks) -> SafeString:
    """The rows `drawn` with this viewer's ✓ form on each open row it may confirm
    (`marks.confirmable`)."""
    confirmable = marks.confirmable
    if not confirmable or not any(row.open and row.number in confirmable for row in drawn):
        return mark_safe("".join(row.head + row.tail for row in drawn))
    forms = _ConfirmForms(game_id, marks)
    return mark_safe(
        "".join(
            row.head
            + (forms.form(row.number) if row.open and row.number in confirmable else "")
            + row.tail
            for row in drawn
        )
    )


def rows_html(game_id: int, rows: Sequence[SheetRow], marks: RowMarks) -> SafeString:
    """The sheet's rows (`<tr id="hand-N">` each), drawn in Python: every name and word
    escaped here."""
    return rows_joined(game_id, rows_drawn(game_id, rows, marks), marks)


# The sheet shows a game's last SHEET_ROWS hands; the history page (scorecards.history_views)
# shows every hand, as many a page. A real game has a few dozen hands and shows whole; a game at
# the bound (MAX_HANDS, 500) would otherwise draw some 200 kB for each phone, at each hand and
# each poll, and a few members opening it would keep every worker of the server busy.
SHEET_ROWS = 40


def shown_from(count: int) -> int:
    """The index of the first of `count` rows the sheet shows (0: all of them)."""
    return max(0, count - SHEET_ROWS)


def window_mark(rows: Sequence[SheetRow], start: int, marks: RowMarks, sides: Sequence[str]) -> str:
    """What a phone says it shows (`h`): the index of its first row and the fingerprint of its
    rows from there, "460.9f2c…". A phone's sheet starts at the row the page or the last whole
    answer drew, and grows by the rows sent to it since."""
    return f"{start}.{rows_digest(rows[start:], marks, sides)}"


def window_start(mark: str | None, seen: int) -> int | None:
    """The first row a phone's mark (`window_mark`) says it shows, None when the mark is not
    one or starts after the phone's `seen` rows."""
    head, dot, _digest = (mark or "").partition(".")
    if not dot or not head.isascii() or not head.isdigit() or len(head) > 6:
        return None
    start = int(head)
    return start if start <= seen else None


def rows_digest(rows: Sequence[SheetRow], marks: RowMarks, sides: Sequence[str]) -> str:
    """A short fingerprint of what `rows` show to this viewer (and the sides heading them):
    a phone that sends the fingerprint of its rows gets only the rows after them while they
    still read the same, and the whole sheet once one of them changed (a correction, an undo,
    a confirmation, a renamed seat)."""
    corrected, confirmable = marks.corrected, marks.confirmable
    head = repr((list(sides), marks.needs_confirming, marks.confirmer))
    shown = "".join(
        f"|{row.shown}{row.scored.number in corrected:d}{row.scored.number in confirmable:d}"
        for row in rows
    )
    return hashlib.blake2b((head + shown).encode(), digest_size=8).hexdigest()


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


def _path(scale: ChartScale, values: list[int]) -> str:
    """An SVG path through `values` in whole pixels, each step relative to the one before
    ("M6 136l5 2 5-3"): a third of the bytes of a polyline's points, which matters because
    every saved hand sends the chart again."""
    points = [(round(scale.x(i)), round(scale.y(v))) for i, v in enumerate(values)]
    (x0, y0), steps = points[0], []
    for (x1, y1), (x2, y2) in pairwise(points):
        dy = y2 - y1
        steps.append(f"{x2 - x1}{'' if dy < 0 else ' '}{dy}")
    return f"M{x0} {y0}" + ("l" + " ".join(steps) if steps else "")


def score_chart(score: GameScore) -> SafeString:
    """The running totals of each side as an inline SVG line chart, with the target dashed."""
    series = [[0] * score.rules.side_count] + [list(h.scores) for h in score.hands]
    values = [v for totals in series for v in totals]
    scale = ChartScale(
        CHART_W, CHART_H, PAD, min([*values, 0]), max([*values, score.target]), len(series)
    )
    lines = format_html_join(
        "",
        '<path class="side side-{}" d="{}"/>',
        (
            (side, _path(scale, [totals[side] for totals in series]))
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
        zero=round(scale.y(0)),
        target=round(scale.y(score.target)),
        lines=lines,
    )


def sheet_version(game: Game) -> str:
    """Changes whenever a hand is entered, corrected, undone or confirmed (the polling key)."""
    return f"{game.updated_at.timestamp():.6f}"
