"""What the sheet page and its fragments show: the context built from one read of the game
(access, hands, the engine's score), shared by every view that answers with the sheet."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Collection
from typing import Any

from django.http import QueryDict
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from leagues.clubs.policy.games import GameNow
from leagues.clubs.roles import (
    GAME_ABANDON,
    GAME_DELETE,
    HAND_CONFIRM,
    HAND_ENTER,
    HAND_UNDO,
    SEAT_CLAIM,
    TABLE_LINK_MANAGE,
)
from scorecards.access import GameAccess
from scorecards.entry_fields import blank_fields_html
from scorecards.game_end import end_context
from scorecards.game_state import game_now_of
from scorecards.habits import entry_table_habits
from scorecards.models import FinishReason, Game, Hand
from scorecards.presentation import (
    earlier_link,
    game_urls,
    kind_label,
    pot_context,
    round_ended_notice,
    sheet_texts_script,
    table_qr,
    winner_text,
)
from scorecards.qr import table_link
from scorecards.rules import GameScore, Rules
from scorecards.rules.catalogue import rules_describe
from scorecards.seat_board import seat_board
from scorecards.selectors import (
    game_needs_confirmation,
    game_scored,
    table_place,
)
from scorecards.services import seat_of
from scorecards.sheet import (
    SHEET_ROWS,
    RowMarks,
    rows_html,
    rows_joined,
    score_chart,
    sheet_notices,
    sheet_rows,
    sheet_version,
    shown_from,
    side_names,
    window_mark,
    window_start,
)
from scorecards.sheet_cache import SheetShared, sheet_shared
from scorecards.sheet_parts import CSRF_MARK, KEY_MARK, PageParts
from scorecards.table_phone import (
    corrected_numbers,
    game_names,
    held_seat,
    phone_id,
    phone_seat,
)

TEMPLATE = "scorecards/game_sheet.html"


@functools.lru_cache(maxsize=256)
def rules_words(rules: Rules, language: str) -> str:
    """The rules in words (`rules_describe`) in `language`, the active one: drawn once per
    process for each rules and language (a pure function of them and the catalogue)."""
    return rules_describe(rules)


def entry_context(
    game: Game,
    rules: Rules,
    score: GameScore,
    names: list[str],
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, list[str]] | None = None,
    message: str = "",
    key: uuid.UUID | None = None,
    phone_seat: int | None = None,
    number: int | None = None,
) -> dict[str, Any]:
    """Everything the hand entry form needs (blank, or re-shown with the values and errors)."""
    dealer = score.next_dealer
    if number is not None and number <= len(score.hands):
        dealer = score.hands[number - 1].dealer
    sides = side_names(rules, names)
    kinds = rules.kinds_allowed()
    order = (
        [] if dealer is None else [(dealer + k) % rules.seats for k in range(1, rules.seats + 1)]
    )
    values = values or {}
    auction = list(values.get("auction") or [])
    tricks = list(values.get("tricks") or [None] * rules.side_count)
    seat_tricks = list(values.get("seat_tricks") or [None] * rules.seats)
    return {
        "number": number or len(score.hands) + 1,
        "key": key or uuid.uuid4(),
        "dealer": dealer,
        "dealer_name": "" if dealer is None else names[dealer],
        "seats": list(enumerate(names)),
        "sides": list(enumerate(sides)),
        # As text: a number in a template is localized, at some fifty calls each.
        "totals": [
            (str(side), name, str(total))
            for side, (name, total) in enumerate(zip(sides, score.scores, strict=True))
        ],
        "two_sides": rules.side_count == 2,
        "kinds": [(kind, kind_label(kind)) for kind in kinds],
        "bids": range(rules.min_bid, rules.max_bid + 1),
        "tricks": range(rules.tricks_per_hand + 1),
        "seat_tricks": "kaiser40" in kinds or rules.kaiser_bid == "solo",
        "side_tricks": [(side, name, tricks[side]) for side, name in enumerate(sides)],
        "seat_rows": [(seat, name, seat_tricks[seat]) for seat, name in enumerate(names)],
        "joffre": rules.joffre_insult,
        **entry_table_habits(rules),
        "auction": [
            (seat, names[seat], auction[i] if i < len(auction) else "")
            for i, seat in enumerate(order)
        ],
        # The seats in the auction's order, as sheet.js reads them ("1 2 3 0").
        "auction_order": " ".join(map(str, order)),
        "values": values,
        "errors": errors or {},
        "message": message,
        "phone_seat": phone_seat,
    }


def sheet_context(
    request: HtmxHttpRequest,
    access: GameAccess,
    *,
    hands: list[Hand] | None = None,
    score: GameScore | None = None,
    page: bool = False,
    **entry: Any,
) -> dict[str, Any]:
    """What the sheet's templates draw for this viewer. `page`: for the whole page, whose rows
    are the last SHEET_ROWS only (an answer to a phone may add rows after an older one).
    `hands` (every hand, in order) and `score`: the game as a write just left it; without
    them, the parts every viewer sees alike come from `scorecards.sheet_cache`."""
    game = access.game
    names = game_names(game)
    needs_confirming = game_needs_confirmation(game)
    shared: SheetShared | None = None
    if hands is None:
        # The parts every viewer sees alike, kept by this process for this very version of the
        # game (scorecards.sheet_cache): on a miss, one lean read whatever the game's length,
        # every record for the engine and the last hands whole (scorecards.sheet_hands).
        shared = sheet_shared(game, names, needs_confirming=needs_confirming)
        score = shared.score
        every: list[Hand | None] = shared.padded()
        # Lists of this request's own (the kept ones are shared): their items are read only.
        hands = list(shared.recent)
        if page:
            # The page's ✓ are those of the rows it draws.
            hands = [hand for hand in hands if hand.number > shared.count - SHEET_ROWS]
        corrected: Collection[int] = shared.corrected
        unconfirmed = shared.unconfirmed
        rows = list(shared.rows)
    else:
        hands = list(hands)
        score = game_scored(game, hands) if score is None else score
        every = list(hands)
        corrected = corrected_numbers(game, hands)
        unconfirmed = any(h.confirmed_at is None for h in hands)
        rows = sheet_rows(score, hands, names)
    rules = score.rules
    sides = list(shared.sides) if shared is not None else side_names(rules, names)
    # Whoever may enter hands may show the table link to the others at the table; only those
    # who may correct hands make a new one or revoke it.
    link = table_link(request, game) if access.can_enter else None
    last = score.hands[-1] if score.hands else None
    place = table_place(game, score)
    # What the game accepts now, and what this person may do of it: the policy's answers,
    # the same the services check, so the page offers exactly what the server takes.
    now = game_now_of(game, place, every, confirm_asked=needs_confirming)
    # Every row is laid out (the poll compares the phone's rows with them), the last ones drawn.
    first = shown_from(len(rows))
    confirm = confirm_context(
        access,
        hands,
        names,
        now=now,
        user=request.user if request.user.is_authenticated else None,
        phone=phone_id(request.session),
    )
    # The page of a blank form is drawn from kept parts (scorecards.sheet_parts), with one CSRF
    # token for the whole page, the ✓ forms' too, which the kept parts hold a marker for.
    kept = page and shared is not None and not entry and not request.htmx
    token = get_token(request) if kept or confirm["numbers"] else ""
    marks = RowMarks(
        corrected=corrected,
        needs_confirming=needs_confirming,
        confirmable=confirm["numbers"],
        confirmer=confirm["name"],
        csrf_token=token if confirm["numbers"] else "",
    )
    version = sheet_version(game)

    def notices_of() -> list[str]:
        return [
            *round_ended_notice(game, score, sides),
            *sheet_notices(score, sides, raised=bool(last and last.target_raised)),
        ]

    def mark_of() -> str:
        return window_mark(rows, first, marks, sides)

    if shared is None:
        notices, mark = notices_of(), mark_of()
    else:
        # Drawn from the kept sheet alone (its score, sides, rows and the game's finish), and
        # for the mark, the ✓ this viewer may give (`confirmable`, in the name of `confirmer`).
        notices = list(shared.kept("notices", notices_of))
        mark = shared.kept(("mark", first, frozenset(marks.confirmable), marks.confirmer), mark_of)
    context: dict[str, Any] = {
        "place": place,
        "can_stop": bool(access.may(GAME_ABANDON, now) or access.may(GAME_DELETE, now)),
        "entry_open": bool(access.may(HAND_ENTER, now)),
        "undo_open": bool(access.may(HAND_UNDO, now)),
        "link_manage": bool(access.may(TABLE_LINK_MANAGE, now)),
        "access": access,
        "game": game,
        "urls": game_urls(game.pk),
        "score": score,
        "rules_words": rules_words(rules, get_language()),
        "names": names,
        "sides": sides,
        "rows": rows,
        "marks": marks,
        # Drawn only where the template shows the sheet (a small answer draws its new ones).
        "rows_html": lambda: (
            rows_html(game.pk, rows[first:], marks)
            if shared is None
            else rows_joined(game.pk, shared.drawn(first), marks)
        ),
        "earlier": earlier_link(game.pk, first),
        # What this phone's sheet shows, sent back with its polls and hands (`phone_rows`).
        "seen": {
            "v": version,
            "n": len(rows),
            "h": mark,
        },
        "notices": notices,
        "chart": score_chart(score) if shared is None else shared.chart(),
        "version": version,
        "winner_name": sides[score.winner] if score.winner is not None else "",
        "finish_reason": FinishReason(score.reason or game.finish_reason).label
        if score.reason or game.finish_reason == FinishReason.ROUND
        else "",
        "game_over": winner_text(score, sides),
        "corrected": corrected,
        # Drawn by the whole page only (the template calls it).
        "sheet_texts": sheet_texts_script,
        "needs_confirming": needs_confirming,
        "unconfirmed": needs_confirming and unconfirmed,
        "confirm": confirm,
        # Which seats phones claim, since when (drawn by the full page only: one query).
        "seat_board": lambda: seat_board(
            access,
            now,
            phone=phone_id(request.session),
            held=held_seat(request.session, game),
        ),
        "table_link": link,
        # The QR code shows on the full page only (not in fragments), and costs ~10 ms to draw.
        "table_qr": table_qr(link) if link and not request.htmx else "",
        "entry": _entry(request, game, score, names, shared, **entry),
        "pot": pot_context(game, score, names),
        # Once the game is finished: its summary, a rematch and the share link.
        "end": end_context(request, access, score, names, now=now, place=place),
    }
    if kept and shared is not None:
        context["csrf_token"] = token
        key = str(context["entry"]["key"])
        context["sheet_parts"] = PageParts(shared, [(token, CSRF_MARK), (key, KEY_MARK)])
    return context


def _entry(
    request: HtmxHttpRequest,
    game: Game,
    score: GameScore,
    names: list[str],
    shared: SheetShared | None,
    **entry: Any,
) -> dict[str, Any]:
    """The entry form of this viewer (`entry_context`, with its blank tap fields). A blank
    form of a kept sheet (`shared`, no values, errors or message) is the kept one's, but for
    what is this viewer's own: a new idempotency key and the phone's seat."""
    seat = phone_seat(game, held=held_seat(request.session, game), user=request.user)
    if shared is None or entry:
        entry = entry_context(game, score.rules, score, names, phone_seat=seat, **entry)
        return _with_fields(entry)
    blank = shared.kept(
        "entry", lambda: _with_fields(entry_context(game, score.rules, score, names))
    )
    return {**blank, "key": uuid.uuid4(), "phone_seat": seat}


def _with_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry with its blank tap fields (`fields_html`, see scorecards.entry_fields), drawn
    when a template first shows them (a hand's small answer shows none); a form re-shown with
    values or errors has none and the template draws it."""
    entry["fields_html"] = functools.cache(lambda: blank_fields_html(entry))
    return entry


def phone_rows(data: QueryDict, context: dict[str, Any]) -> int | None:
    """How many rows the phone's sheet shows as they stand now: its `n`, when the mark `h` of
    the rows it shows (`window_mark`: from its first one to row `n`) is that of the same rows
    now; None when one of them has changed or it says nothing. On a match, the context's
    `seen` becomes the mark of the phone's rows once the rows after `n` are added to them."""
    rows = context["rows"]
    seen = number_or_none(data, "n", minimum=0, maximum=len(rows))
    if seen is None:
        return None
    start = window_start(data.get("h"), seen)
    if start is None:
        return None
    marks, sides = context["marks"], context["sides"]
    if data.get("h") != window_mark(rows[:seen], start, marks, sides):
        return None
    context["seen"] = {**context["seen"], "h": window_mark(rows, start, marks, sides)}
    return seen


def confirm_context(
    access: GameAccess,
    hands: list[Hand],
    names: list[str],
    *,
    now: GameNow,
    user: Any,
    phone: str | None,
) -> dict[str, Any]:
    """Who this viewer confirms as, and which hands: `seat` and `name` (the seat the server
    knows holds this person, `scorecards.services.seat_of`; None when it knows none), `claim`
    (the sheet asks the phone to say who holds it: it has no seat and may claim one),
    `numbers` (the hands this viewer may confirm, each a ✓ on its row). Decided by the policy
    (`HAND_CONFIRM`, `SEAT_CLAIM`), as the confirmation itself is, so the sheet offers exactly
    the ✓ the server accepts. Nothing is asked where no confirmation is taken now (none asked,
    no power, an abandoned game, an ended night, a closed season). `user` is the signed-in
    account (None: none), `phone` this browser's phone id."""
    game = access.game
    nothing: dict[str, Any] = {
        "asked": False,
        "claim": False,
        "seat": None,
        "name": "",
        "numbers": frozenset(),
    }
    if not now.confirm_asked or not access.may(HAND_CONFIRM, now):
        return nothing
    member = access.membership is not None
    seat = None
    if user or phone:
        seat = seat_of(game, user=user, phone=phone, member=member, account_claims=not member)
    if seat is None and member:
        seat = access.user_claim  # read with the membership
    numbers: frozenset[int] = frozenset()
    if seat is not None:
        rules = game.rules_value
        numbers = frozenset(
            hand.number
            for hand in hands
            if hand.confirmed_at is None
            and access.may(HAND_CONFIRM, now, seat, phone or "", hand=hand, rules=rules)
        )
    name = names[seat] if seat is not None and 0 <= seat < len(names) else ""
    claim = seat is None and bool(access.may(SEAT_CLAIM, now))
    return {"asked": True, "claim": claim, "seat": seat, "name": name, "numbers": numbers}
