"""QR codes for table links, rendered on the server as inline SVG (no image files, no JS)."""

from __future__ import annotations

import io

import segno
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from kaiser_league.http import absolute_url
from scorecards.models import Game


def qr_svg(data: str, *, scale: int = 4) -> SafeString:
    """An inline <svg> QR code of `data` that scales with its container (no fixed size)."""
    out = io.BytesIO()
    segno.make(data, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        scale=scale,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    # segno writes only its own markup around `data`, which it encodes, so this is safe.
    return mark_safe(out.getvalue().decode())


def table_link(request: HttpRequest, game: Game) -> str | None:
    """The absolute table link of the game (None if it has no table token)."""
    if not game.table_token:
        return None
    return absolute_url(request, reverse("game_table_join", args=[game.table_token]))
