"""The seat claims of a game's phones: which seat holds a person (`seat_of`), a phone saying so
(`seat_claim`), and a claim let go (`seat_release`, leaving a `SeatRelease` trace), each write
in one transaction that asks the policy on the locked game."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from leagues.clubs.roles import SEAT_CLAIM, SEAT_RELEASE
from scorecards.game_state import game_facts, game_now_of
from scorecards.models import Game, Seat, SeatClaim, SeatRelease
from scorecards.services.refusals import (
    HandRefused,
)
from scorecards.services.state import (
    actor_locked,
    confirm_asked_of,
    game_locked,
    game_touch,
    place_of,
    policy_check,
)


class SeatRefused(HandRefused):
    """There is no claim of that seat to let go (another phone or person gave it back first)."""

    status = "nothing"


def seat_of(
    game: Game,
    *,
    user: User | None = None,
    phone: str | None = None,
    member: bool | None = None,
    account_claims: bool = True,
) -> int | None:
    """The seat the server knows holds this person: the seat of the club player linked to the
    signed-in `user` (while a member), else the seat this `phone` or this account (from any of
    its phones) claimed. Never a seat the request names. `member` says whether `user` is known
    to be a member of the game's club (None: the database is asked); when known and the game's
    seats were read with their players, the user's seat costs no query (a game's players are
    its club's)."""
    if user is not None and game.club_id is not None and member is not False:
        seat: int | None
        if member and "seats" in getattr(game, "_prefetched_objects_cache", {}):
            seat = next(
                (
                    row.seat
                    for row in game.seats.all()
                    if row.player is not None and row.player.user_id == user.pk
                ),
                None,
            )
        else:
            seat = (
                Seat.objects.filter(game=game, player__user_id=user.pk)
                .filter(player__club__memberships__user_id=user.pk)
                .values_list("seat", flat=True)
                .first()
            )
        if seat is not None:
            return seat
    # A person holds one seat of a game: the claim of this phone, or of this account from any
    # of its phones.
    # (`account_claims=False`: the caller read the account's claim already.)
    claims = Q(phone=phone) if phone else Q()
    if user is not None and account_claims:
        claims = claims | Q(user_id=user.pk) if phone else Q(user_id=user.pk)
    if phone or (user is not None and account_claims):
        return (
            SeatClaim.objects.filter(claims, game=game)
            .order_by("at", "pk")
            .values_list("seat", flat=True)
            .first()
        )
    return None


def _person_facts(
    game: Game, user: User | None, phone: str
) -> tuple[frozenset[int], frozenset[int]]:
    """The seats this person holds already (its phone's claim, its account's claims and own
    player's seat) and the seats its account entered hands from."""
    held = Q(phone=phone)
    if user is not None:
        held |= Q(user_id=user.pk)
    seats = set(SeatClaim.objects.filter(held, game=game).values_list("seat", flat=True))
    entered: set[int] = (
        {
            seat
            for seat in game.hands.filter(entered_phone=phone).values_list(
                "entered_seat", flat=True
            )
            if seat is not None
        }
        if phone
        else set()
    )
    if user is not None:
        own = seat_of(game, user=user)
        if own is not None:
            seats.add(own)
        entered |= {
            seat
            for seat in game.hands.filter(entered_by_id=user.pk).values_list(
                "entered_seat", flat=True
            )
            if seat is not None
        }
    return frozenset(seats), frozenset(entered)


def seat_claim(
    *, game: Game, seat: int, phone: str, user: User | None = None, touch: bool = True
) -> SeatClaim | None:
    """This phone (and the signed-in `user`) says `seat` holds it. Kept on the server: one seat
    per phone, one phone per seat and one seat per person for the whole game, and never a seat
    of the other side from the hands this account entered, so nobody moves to the other side to
    confirm their own hand. Returns the phone's claim (the earlier one if it had one), None if
    another phone holds `seat` or the seat does not exist; the policy's refusal (GameClosed
    once the game takes neither hands nor confirmations, NotAllowed or "claimed" for another
    seat of the same person) otherwise. A new claim marks the game as changed (`game_touch`),
    so the other phones' polls redraw their seat board; `touch=False` for a caller that saves
    the game row in the same transaction anyway (a hand entered with its seat)."""
    if not phone or not 0 <= seat < game.rules_value.seats:
        return None
    with transaction.atomic():
        locked = game_locked(game.pk, by=user)
        mine = SeatClaim.objects.filter(game=locked, phone=phone).first()
        if mine is not None:
            return mine
        # A seat is claimed to enter hands or to confirm them, which goes on after the game
        # finished (its hands are confirmed then) until its night is over.
        now = game_now_of(locked, place_of(locked), confirm_asked=confirm_asked_of(locked))
        seats, entered = _person_facts(locked, user, phone)
        facts = game_facts(locked, now, seat=seat, person_seats=seats, person_entered=entered)
        policy_check(actor_locked(locked, user, phone=phone), SEAT_CLAIM, facts)
        try:
            with transaction.atomic():
                claim = SeatClaim.objects.create(game=locked, seat=seat, phone=phone, user=user)
        except IntegrityError:
            # The seat is another phone's (or this phone raced itself): the first claim stands.
            return SeatClaim.objects.filter(game=locked, phone=phone).first()
        if touch:
            # Phones polling the sheet look at updated_at (and its cached copy) to see a change.
            game_touch(locked)
        return claim


def _claims_held(game: Game, user: User | None, phone: str | None) -> frozenset[int]:
    """The seats this phone, or this account from any of its phones, claimed in `game`."""
    held = Q(phone=phone) if phone else Q()
    if user is not None:
        held = held | Q(user_id=user.pk) if phone else Q(user_id=user.pk)
    if not phone and user is None:
        return frozenset()
    return frozenset(SeatClaim.objects.filter(held, game=game).values_list("seat", flat=True))


def seat_release(
    *,
    game: Game,
    seat: int,
    by: User | None,
    by_name: str,
    phone: str | None = None,
    table_link: bool = False,
) -> SeatRelease:
    """Let the claim of `seat` go, while the game is played: its own phone (or account) gives
    it back, or a scorer or director releases it (a lost phone, an impostor). The claim is
    deleted and a `SeatRelease` row keeps who had held the seat since when, and who let it go
    (`by`, `by_name`); the seat can then be claimed by another phone. NotAllowed without the
    power, GameClosed once the game is over, SeatRefused when nobody claims that seat."""
    with transaction.atomic():
        locked = game_locked(game.pk, by=by)
        claim = SeatClaim.objects.filter(game=locked, seat=seat).first()
        now = game_now_of(locked, place_of(locked), confirm_asked=confirm_asked_of(locked))
        facts = game_facts(locked, now, seat=seat, person_seats=_claims_held(locked, by, phone))
        policy_check(
            actor_locked(locked, by, phone=phone, table_link=table_link), SEAT_RELEASE, facts
        )
        if claim is None:
            raise SeatRefused(_("Nobody holds that seat now: there is nothing to give back."))
        holder = Seat.objects.filter(game=locked, seat=seat).values_list("name", flat=True).first()
        release = SeatRelease.objects.create(
            game=locked,
            seat=seat,
            claimed_at=claim.at,
            holder_name=(holder or "")[:150],
            by=by,
            by_name=by_name[:150],
        )
        claim.delete()
        # Phones polling the sheet look at updated_at (and its cached copy) to see a change.
        game_touch(locked)
    return release
