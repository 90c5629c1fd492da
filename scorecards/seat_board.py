"""The seats of a game as the table sees them: which seats phones claim and since when (so the
table sees an impostor), the claims let go, and the claim behind a confirmation. Reads only;
each offer to let a claim go is the policy's answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from leagues.clubs.policy import may
from leagues.clubs.policy.games import GameNow
from leagues.clubs.roles import SEAT_RELEASE
from scorecards.access import GameAccess
from scorecards.models import Hand, SeatClaim, SeatRelease
from scorecards.table_phone import game_claims, game_names


@dataclass(frozen=True)
class SeatRow:
    """One seat on the sheet's seat board: its name, since when a phone claims it (None: no
    claim), whether the claim is this phone's (or this account's), and whether this viewer may
    let it go now."""

    seat: int
    name: str
    since: datetime | None
    mine: bool
    release: bool


def seat_board(
    access: GameAccess, now: GameNow, *, phone: str | None, held: int | None
) -> list[SeatRow]:
    """Every seat of the game with its claim, as the sheet shows it (`game_claims`: one query,
    shared with the phone's own claim); empty when no
    phone claims a seat."""
    game = access.game
    if not now.confirm_asked and held is None:
        # Claims matter where hands are confirmed; elsewhere only a phone that holds one is
        # shown the board (to give its seat back), which costs no query more.
        return []
    names = game_names(game)
    claims = {claim.seat: claim for claim in game_claims(game)}
    if not claims:
        return []
    user_id = access.user_id
    mine = frozenset(
        seat
        for seat, claim in claims.items()
        if (phone and claim.phone == phone) or (user_id is not None and claim.user_id == user_id)
    )
    actor = access.actor(None, phone or "")
    rows = []
    for seat, name in enumerate(names):
        claim = claims.get(seat)
        release = claim is not None and bool(
            may(actor, SEAT_RELEASE, access.facts(now, seat=seat, person_seats=mine))
        )
        rows.append(
            SeatRow(
                seat=seat,
                name=name,
                since=None if claim is None else claim.at,
                mine=seat in mine,
                release=release,
            )
        )
    return rows


def hand_seats_history(game: Any, hand: Hand) -> dict[str, Any]:
    """What a hand's history shows of the seats (two queries): `claims`, the seats phones claim
    now (each with the seat's name); `releases`, the claims let go, oldest first; and
    `confirmed_through`, how the confirmation of `hand` came: from the claim of its seat (since
    when, and when that claim was let go), or from the signed-in player's own seat ("" when the
    hand is not confirmed or its seat was not recorded, as on older hands)."""
    names = game_names(game)

    def named(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    claims = list(SeatClaim.objects.filter(game=game).order_by("at", "pk"))
    releases = list(SeatRelease.objects.filter(game=game).order_by("at", "pk"))
    return {
        "claims": [(claim, named(claim.seat)) for claim in claims],
        "releases": [(release, named(release.seat)) for release in releases],
        "confirmed_through": _confirmed_through(hand, named, claims, releases),
    }


def _confirmed_through(
    hand: Hand,
    named: Callable[[int], str],
    claims: list[SeatClaim],
    releases: list[SeatRelease],
) -> str:
    seat, at = hand.confirmed_seat, hand.confirmed_at
    if at is None or seat is None:
        return ""
    name = named(seat)
    claim = next((c for c in claims if c.seat == seat and c.at <= at), None)
    if claim is not None:
        return _("Confirmed from the seat %(name)s, claimed by a phone at %(since)s.") % {
            "name": name,
            "since": _clock(claim.at),
        }
    released = next((r for r in releases if r.seat == seat and r.claimed_at <= at <= r.at), None)
    if released is not None:
        return _(
            "Confirmed from the seat %(name)s, claimed by a phone at %(since)s "
            "and let go at %(until)s."
        ) % {"name": name, "since": _clock(released.claimed_at), "until": _clock(released.at)}
    return _("Confirmed from the seat %(name)s, the signed-in player’s own.") % {"name": name}


def _clock(moment: datetime) -> str:
    return formats.time_format(timezone.localtime(moment), "H:i:s")
