"""The sheet's words and pictures: labels, banners, the phone's messages, a hand in words, the
pot, the table link's QR code, the addresses the sheet links to. No request, no writes."""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scorecards.models import FinishReason, Game
from scorecards.pot import cents_text
from scorecards.qr import qr_svg
from scorecards.rules import GameScore, Rules, points_leader
from scorecards.selectors import game_pot_of
from scorecards.sheet import (
    bid_text,
    side_names,
)

# The game's own pages and actions the sheet links to (and its answers redraw).
GAME_URLS = (
    "hand_submit",
    "hand_undo",
    "hand_preview",
    "game_poll",
    "game_abandon",
    "game_print",
    "game_record_download",
    "game_table_link",
    "game_history",
)


def game_urls(game_id: int) -> dict[str, str]:
    """The addresses of GAME_URLS for one game, by URL name (read only): reversed once per
    process for each game and script prefix, where the sheet's page would reverse a dozen."""
    return _game_urls(game_id, get_script_prefix())


@functools.lru_cache(maxsize=1024)
def _game_urls(game_id: int, prefix: str) -> dict[str, str]:
    return {name: reverse(name, args=[game_id]) for name in GAME_URLS}


def earlier_link(game_id: int, first: int) -> dict[str, Any] | None:
    """The link above the rows to the hands the sheet leaves out (`first` of them, the oldest):
    the history page (scorecards.history_views). None when the sheet shows every hand."""
    if not first:
        return None
    return {"url": game_urls(game_id)["game_history"], "last": first}


def kind_label(kind: str) -> str:
    labels = {
        "trump": _("Trump"),
        "no": _("No trump"),
        "low": _("Low"),
        "kaiser": _("Kaiser"),
        "kaiser40": _("Kaiser 40"),
    }
    return labels[kind]


@functools.lru_cache(maxsize=256)
def table_qr(link: str) -> str:
    return qr_svg(link)


def winner_text(score: GameScore, sides: list[str]) -> str:
    """The game-over banner in words that read right: who won, and why, naming the sides
    ("Ann & Cat win: Bob & Dan fell to -52")."""
    if score.winner is None:
        return ""
    winner = sides[score.winner]
    losers = [name for side, name in enumerate(sides) if side != score.winner]
    loser = " / ".join(losers)
    if score.reason == FinishReason.MINUS:
        fallen = [
            (name, total)
            for side, (name, total) in enumerate(zip(sides, score.scores, strict=True))
            if side != score.winner and total <= min(score.scores)
        ]
        name, total = fallen[0] if fallen else (loser, min(score.scores))
        return _("%(winner)s win: %(loser)s fell to %(score)s.") % {
            "winner": winner,
            "loser": name,
            "score": total,
        }
    if score.reason == FinishReason.TARGET:
        return _("%(winner)s win: they reached %(score)s.") % {
            "winner": winner,
            "score": score.scores[score.winner],
        }
    if score.reason == FinishReason.KAISER:
        return _("%(winner)s win with a kaiser bid.") % {"winner": winner}
    if score.reason == FinishReason.HEART:
        return _("%(winner)s win: %(loser)s, at the bid-out, took the five of hearts.") % {
            "winner": winner,
            "loser": loser,
        }
    return _("%(winner)s win.") % {"winner": winner}


def sheet_texts_script() -> SafeString:
    """`sheet_texts` as the page hands them to sheet.js: `<script id="sheet-texts"
    type="application/json">`, written once per process and language (a pure function of the
    catalogue)."""
    return _texts_script(get_language())


@functools.lru_cache(maxsize=16)
def _texts_script(language: str) -> SafeString:
    return json_script(sheet_texts(), "sheet-texts")


def sheet_texts() -> dict[str, str]:
    """The phone's own messages (the outbox in sheet.js), translated here and handed to the page
    as JSON: a fallback for each kind of answer that carries no message of its own."""
    return {
        "waiting_one": _("1 hand waiting to send. It goes as soon as the signal returns."),
        "waiting_many": _("__N__ hands waiting to send. They go as soon as the signal returns."),
        "sent": _("Hand __N__ sent and saved."),
        "saved": _("Hand __N__ saved."),
        "conflict": _(
            "Your hand __N__ was not saved: __WHO__ entered hand __N__ first. "
            "Enter yours as a correction, or discard it."
        ),
        "correct": _("Enter yours as a correction"),
        "discard": _("Discard"),
        "retry": _("Try again"),
        "ok": _("OK"),
        "csrf": _(
            "Not sent: this page is too old to send hands. Reload the page; "
            "your hand is kept and sent after."
        ),
        "signed_out": _(
            "Not sent: this phone is signed out. Sign in again or open the table link; "
            "your hand is kept."
        ),
        "403": _(
            "Not saved: this phone may no longer enter hands in this game (the table link "
            "was changed or revoked). Ask the scorer for the new link."
        ),
        "404": _("Not saved: this game no longer exists. Discard the hand."),
        "409": _(
            "Not saved: the sheet changed on another phone. Check the sheet and enter "
            "the hand again if it is missing."
        ),
        "422": _("Not saved: the hand is not valid. Enter it again."),
        "429": _("Not sent yet: too many tries. It is tried again in a moment."),
        "4xx": _("Not saved: the server refused the hand (error __CODE__). Enter it again."),
        "5xx": _(
            "Not sent yet: the server had a problem (error __CODE__). Your hand is kept and "
            "tried again in a moment."
        ),
    }


def record_text(record: dict[str, Any] | None, names: list[str], rules: Rules) -> str:
    """A stored hand record in words, for its history and conflicts ("Ann 8 no, tricks 6-2,
    5♥ Ann & Bob, 3♠ Cat & Dan")."""
    if not record:
        return ""
    if record.get("thrown_in"):
        return _("thrown in")
    sides = side_names(rules, names)

    def side(value: Any) -> str:
        return sides[value] if isinstance(value, int) and 0 <= value < len(sides) else "?"

    contract = []
    bidder = record.get("bidder")
    if isinstance(bidder, int) and 0 <= bidder < len(names):
        contract.append(names[bidder])
    if record.get("kind") in ("kaiser", "kaiser40"):
        contract.append(bid_text(record["kind"], record.get("bid")))
    elif record.get("bid") is not None:
        contract.append(bid_text(record.get("kind", "trump"), record["bid"]))
    parts = [" ".join(contract)] if contract else []
    if record.get("tricks"):
        parts.append(_("tricks %(tricks)s") % {"tricks": "-".join(map(str, record["tricks"]))})
    if record.get("seat_tricks"):
        parts.append(
            _("by seat %(tricks)s") % {"tricks": "-".join(map(str, record["seat_tricks"]))}
        )
    for key, label in (("five_hearts", "5♥"), ("three_spades", "3♠"), ("insult", _("insult"))):
        if record.get(key) is not None:
            parts.append(f"{label} {side(record[key])}")
    if record.get("auction"):
        parts.append("[" + ", ".join(record["auction"]) + "]")
    return ", ".join(parts)


def pot_context(game: Game, score: GameScore, names: list[str]) -> dict[str, Any] | None:
    """The pot as the sheet shows it: its total, who fed it and who collected it."""
    pot = game_pot_of(game, score)
    if pot is None:
        return None
    fed: Counter[int] = Counter(seat for _number, seat in pot.fed)
    return {
        "per_set": cents_text(pot.per_set),
        "total": cents_text(pot.total),
        "fed": [(names[seat], cents_text(n * pot.per_set)) for seat, n in sorted(fed.items())],
        "collected": [
            (names[seat], cents_text(pot.balance[seat] + fed[seat] * pot.per_set))
            for seat in pot.winners or ()
        ],
    }


def round_ended_notice(game: Game, score: GameScore, sides: list[str]) -> list[str]:
    """The sheet's word on a game its tournament round ended before the engine did: won on
    points by the side ahead when the round closed, or drawn when level, with the score then
    (how the season counts it, docs/rules.md). Empty for any other game."""
    if game.finish_reason != FinishReason.ROUND or score.finished or not score.hands:
        return []
    totals = " – ".join(str(total) for total in score.scores)
    leader = points_leader(score.scores)
    if leader is None:
        return [_("Ended by the round: drawn on points (%(score)s).") % {"score": totals}]
    return [
        _("Ended by the round: %(winner)s win on points (%(score)s).")
        % {"winner": sides[leader], "score": totals}
    ]
