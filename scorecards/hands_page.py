"""One page of a game's hands, oldest first, for the pages that list them all in pages (the
history page, the print view): which page was asked, the hands read once for the engine's
totals, this page's rows and the links to the pages around it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, QueryDict
from django.urls import reverse

from kaiser_league.inputs import number_or_none
from scorecards.models import Game
from scorecards.rules import GameScore, game_score
from scorecards.sheet import SheetRow, sheet_rows
from scorecards.sheet_hands import SheetHands, sheet_hands
from scorecards.table_phone import game_names


def page_count(count: int, per_page: int) -> int:
    """How many pages `count` hands fill (one, empty, for a game with no hand)."""
    return max(1, -(-count // per_page))


@dataclass(frozen=True)
class HandsPage:
    """Page `page` of `pages`: `rows` the page's hands as the sheet lays them out, `read` the
    game's hands (every record, this page's whole), `score` the engine's over every hand."""

    page: int
    pages: int
    start: int
    read: SheetHands
    score: GameScore
    names: list[str]
    rows: list[SheetRow]
    links: dict[str, Any]


def hands_page(game: Game, query: QueryDict, per_page: int, url_name: str) -> HandsPage:
    """The page `?page=` of `game` (1 when not asked) at `per_page` hands a page, read in one
    query whatever the game's length; Http404 for a page past the last or not a number."""
    pages = page_count(game.hand_count, per_page)
    page = number_or_none(query, "page", minimum=1, maximum=pages) if "page" in query else 1
    if page is None:
        raise Http404("No such page")
    start = (page - 1) * per_page
    read = sheet_hands(game, whole=(start + 1, start + per_page))
    score = game_score(game.rules_value, read.inputs, game.first_dealer)
    names = game_names(game)
    rows = sheet_rows(score, read.recent, names)[start : start + per_page]
    url = reverse(url_name, args=[game.pk])
    return HandsPage(
        page=page,
        pages=pages,
        start=start,
        read=read,
        score=score,
        names=names,
        rows=rows,
        links={
            "page": page,
            "pages": pages,
            "first": start + 1 if rows else 0,
            "last": start + len(rows),
            "count": len(read.inputs),
            "previous_url": f"{url}?page={page - 1}" if page > 1 else "",
            "next_url": f"{url}?page={page + 1}" if page < pages else "",
        },
    )
