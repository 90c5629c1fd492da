"""Writes of clubs, members, players and seasons, and of the derived data (standings, ratings).

Standings and ratings are snapshots computed from the stored hands through the rules engine
(`leagues.derived`). A rebuild is idempotent: rebuilding twice changes nothing but the snapshot's
computed-at time. Rebuilds are queued by `derived_data_queue` after a game's result changes;
the periodic `derived_data_reconcile` and `manage.py standings_rebuild --all` catch up on
anything missed (a broker that was down, a worker that died).
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import logging
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    models,
    transaction,
)
from django.db.models import Exists, Max, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from kaiser_league.inputs import InputError, name_check
from leagues.derived import LeftOut, counted_games, ratings_compute, standings_compute
from leagues.models import (
    Club,
    Invitation,
    InvitationUse,
    Membership,
    PartnershipStanding,
    Player,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    RebuildFailure,
    RebuildKind,
    Season,
    StandingFigures,
    StandingsSnapshot,
    name_key,
)
from leagues.roles import Role

log = logging.getLogger(__name__)

INVITATION_DAYS = 14


MAX_CLUB_NAME = 100  # Club.name
MAX_PLAYER_NAME = 80  # Player.name
MAX_SEASON_NAME = 100  # Season.name
MAX_SLUG_TRIES = 1000


class LeagueError(ValueError):
    """A refused club, member, player or season change; the message says why (translated);
    `field` names the form field it is about ("" for the whole form)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def _name(value: str, field: str, max_length: int) -> str:
    """A checked name (kaiser_league.inputs.name_check), refused as a LeagueError."""
    try:
        return name_check(value, field=field, max_length=max_length)
    except InputError as error:
        raise LeagueError(error.message, field) from None


# --- Derived data ---------------------------------------------------------------------------


def _rows_replace(
    queryset: models.QuerySet,
    key: Callable[[Any], Any],
    fields: Iterable[str],
    wanted: dict[Any, dict],
    build: Callable[[Any, dict], models.Model],
) -> bool:
    """Make the rows of `queryset` exactly `wanted` ({key: figures}); write nothing when they
    already are. Returns True if anything was written."""
    fields = tuple(fields)
    existing = {key(row): row for row in queryset}
    current = {k: {f: getattr(row, f) for f in fields} for k, row in existing.items()}
    if current == wanted:
        return False
    stale = [row.pk for k, row in existing.items() if k not in wanted]
    changed = []
    for k, figures in wanted.items():
        row = existing.get(k)
        if row is not None and current[k] != figures:
            for name, value in figures.items():
                setattr(row, name, value)
            changed.append(row)
    if stale:
        queryset.model.objects.filter(pk__in=stale).delete()
    if changed:
        queryset.model.objects.bulk_update(changed, fields, batch_size=500)
    new = [build(k, figures) for k, figures in wanted.items() if k not in existing]
    if new:
        queryset.model.objects.bulk_create(new, batch_size=500)
    return True


def _newer_snapshot_exists(snapshot: models.Model | None, started: datetime.datetime) -> bool:
    # A rebuild that began reading later has seen everything this one saw and more: never let
    # an older computation overwrite it.
    return snapshot is not None and snapshot.computed_at > started


# A database that is away or busy: worth another try (the Celery task retries these). Anything
# else a rebuild raises is a fact about the data, recorded in RebuildFailure for people to see.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def _failure_record(
    *, kind: str, club_id: int, season_id: int | None, error: str, left_out: list[LeftOut]
) -> None:
    """Note (or refresh) why the rebuild of a season or club failed. Never raises: the note is
    for people; the season or club it is about may even be gone by now."""
    text = error or _("Games left out: the rules engine could not score them.")
    try:
        with transaction.atomic():
            RebuildFailure.objects.update_or_create(
                kind=kind,
                club_id=club_id,
                season_id=season_id,
                defaults={
                    "error": text[:4000],
                    "games_left_out": [
                        {"game": item.game_id, "error": item.error} for item in left_out
                    ],
                    "failed_at": timezone.now(),
                },
            )
    except DatabaseError:
        log.exception("could not record the failed %s rebuild of %s/%s", kind, club_id, season_id)


def _rebuild_isolated(
    kind: str, club_id: int, season_id: int | None, rebuild: Callable[[list[LeftOut]], Any]
) -> tuple[Any, str]:
    """Run `rebuild(left_out)`; on any error (but a transient one, re-raised for a retry) or
    when it left games out, record it. Returns (its result or None, the error text or "")."""
    left_out: list[LeftOut] = []
    try:
        result = rebuild(left_out)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:  # isolate: one season never stops the others
        log.exception("the %s rebuild of club %s season %s failed", kind, club_id, season_id)
        error = f"{type(exc).__name__}: {exc}"
        _failure_record(
            kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=left_out
        )
        return None, error
    if left_out:
        error = _("%(count)s game(s) left out: the rules engine could not score them.") % {
            "count": len(left_out)
        }
        _failure_record(
            kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=left_out
        )
        return result, error
    return result, ""


def standings_rebuild(*, season_id: int) -> StandingsSnapshot | None:
    """Recompute the standings of season `season_id` from its counted games and store them.

    Idempotent. The snapshot's computed_at is when the reading began. Returns the snapshot, or
    None if the season no longer exists, a newer rebuild already stored its result, or the
    rebuild failed. A failure never raises (but a transient database error, for a retry): it
    is recorded as a RebuildFailure, and the season keeps its last good standings. Games the
    engine cannot score are left out and recorded the same way."""
    season = Season.objects.filter(pk=season_id).only("pk", "club_id").first()
    if season is None:
        return None
    result, _error = _rebuild_isolated(
        RebuildKind.STANDINGS,
        season.club_id,
        season.pk,
        lambda left_out: _standings_write(season_id, left_out),
    )
    return result


def _standings_write(season_id: int, left_out: list[LeftOut]) -> StandingsSnapshot | None:
    started = timezone.now()
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        return None
    players, pairs, game_count, hand_count = standings_compute(
        counted_games(season.club, season, left_out)
    )
    fields = StandingFigures.FIGURES
    with transaction.atomic():
        snapshot = StandingsSnapshot.objects.select_for_update().filter(season=season).first()
        if _newer_snapshot_exists(snapshot, started):
            return None
        _rows_replace(
            PlayerStanding.objects.filter(season=season),
            lambda row: row.player_id,
            fields,
            players,
            lambda k, figures: PlayerStanding(season=season, player_id=k, **figures),
        )
        _rows_replace(
            PartnershipStanding.objects.filter(season=season),
            lambda row: (row.first_id, row.second_id),
            fields,
            pairs,
            lambda k, figures: PartnershipStanding(
                season=season, first_id=k[0], second_id=k[1], **figures
            ),
        )
        snapshot, _created = StandingsSnapshot.objects.update_or_create(
            season=season,
            defaults={"computed_at": started, "games": game_count, "hands": hand_count},
        )
        if not left_out:
            RebuildFailure.objects.filter(kind=RebuildKind.STANDINGS, season=season).delete()
    return snapshot


def ratings_rebuild(*, club_id: int) -> RatingSnapshot | None:
    """Recompute the OpenSkill ratings of club `club_id` from all its counted games, in game
    order, and store the final ratings and each player's rating after every game.

    Idempotent (the same games give the same numbers). Returns the snapshot, or None if the
    club no longer exists, a newer rebuild already stored its result, or the rebuild failed
    (recorded as a RebuildFailure, as for standings_rebuild)."""
    if not Club.objects.filter(pk=club_id).exists():
        return None
    result, _error = _rebuild_isolated(
        RebuildKind.RATINGS, club_id, None, lambda left_out: _ratings_write(club_id, left_out)
    )
    return result


def _ratings_write(club_id: int, left_out: list[LeftOut]) -> RatingSnapshot | None:
    started = timezone.now()
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return None
    final, history, game_count = ratings_compute(counted_games(club, left_out=left_out))
    points = {
        (after.player_id, after.game_id): {
            "seq": after.seq,
            "mu": after.mu,
            "sigma": after.sigma,
            "ordinal": after.ordinal,
        }
        for after in history
    }
    with transaction.atomic():
        snapshot = RatingSnapshot.objects.select_for_update().filter(club=club).first()
        if _newer_snapshot_exists(snapshot, started):
            return None
        _rows_replace(
            PlayerRating.objects.filter(club=club),
            lambda row: row.player_id,
            ("mu", "sigma", "ordinal", "games"),
            final,
            lambda k, values: PlayerRating(club=club, player_id=k, **values),
        )
        _rows_replace(
            RatingPoint.objects.filter(player__club=club),
            lambda row: (row.player_id, row.game_id),
            ("seq", "mu", "sigma", "ordinal"),
            points,
            lambda k, values: RatingPoint(player_id=k[0], game_id=k[1], **values),
        )
        snapshot, _created = RatingSnapshot.objects.update_or_create(
            club=club, defaults={"computed_at": started, "games": game_count}
        )
        if not left_out:
            RebuildFailure.objects.filter(kind=RebuildKind.RATINGS, club=club).delete()
    return snapshot


def derived_data_mark_stale(
    *, season_ids: Iterable[int] = (), club_ids: Iterable[int] = ()
) -> None:
    """Say that the standings of `season_ids` and the ratings of `club_ids` no longer match
    their games (a game was deleted, or stopped counting), and queue their rebuild after the
    current transaction commits. The snapshot rows go, so even with the broker down the periodic
    reconciliation sees them stale; the figures shown stay until the rebuild replaces them."""
    season_ids = sorted({s for s in season_ids if s is not None})
    club_ids = sorted({c for c in club_ids if c is not None})
    StandingsSnapshot.objects.filter(season_id__in=season_ids).delete()
    RatingSnapshot.objects.filter(club_id__in=club_ids).delete()
    transaction.on_commit(
        lambda: derived_data_send(season_ids=season_ids, club_ids=club_ids), robust=True
    )


def games_delete(*, games: Iterable[Any]) -> int:
    """Delete games (the admin's delete) and mark the standings and ratings they were part of
    stale, so the deleted games leave the standings. Returns how many games were deleted."""
    from scorecards.models import Game  # scorecards imports leagues models

    ids = [game.pk for game in games]
    with transaction.atomic():
        rows = list(Game.objects.filter(pk__in=ids).values_list("season_id", "club_id"))
        Game.objects.filter(pk__in=ids).delete()
        derived_data_mark_stale(
            season_ids=[season for season, _club in rows], club_ids=[club for _s, club in rows]
        )
    return len(rows)


def derived_data_send(*, season_ids: Iterable[int] = (), club_ids: Iterable[int] = ()) -> bool:
    """Queue the rebuilds now. Never raises: a broker that is down (or an eager rebuild that
    fails) is logged, and reconciliation catches up later. Returns True if all were queued."""
    from leagues import tasks  # the tasks module imports this one

    ok = True
    jobs = [(tasks.standings_rebuild, s) for s in season_ids]
    jobs += [(tasks.ratings_rebuild, c) for c in club_ids]
    if not jobs:
        return True
    with contextlib.ExitStack() as stack:
        connection = None
        if not tasks.standings_rebuild.app.conf.task_always_eager:
            connection = stack.enter_context(_publish_connection())
        for task, object_id in jobs:
            try:
                # No publish retries: a hand submit must never wait on a broker that is down.
                task.apply_async((object_id,), retry=False, connection=connection)
            except (BrokerError, *BROKER_SOCKET_ERRORS):
                # Down for one is down for all: do not pay the timeout again per job.
                log.exception("broker down: could not queue %s; reconciliation will catch up", jobs)
                return False
            except Exception:  # an eager rebuild that failed: the hand is saved, log and go on
                ok = False
                log.exception(
                    "could not run %s(%s); reconciliation will catch up", task.name, object_id
                )
    return ok


# A broker that hangs (stopped, overloaded, a half-open connection) rather than refusing.
BROKER_SOCKET_ERRORS = (OSError, TimeoutError)


def _publish_connection() -> Any:
    """A broker connection for publishing from a request, with short socket timeouts
    (BROKER_PUBLISH_TIMEOUT, default 0.5 s): a broker that refuses, or one that accepts and
    never answers, costs a hand submit at most about that, never the worker's long timeouts.
    Workers keep CELERY_BROKER_TRANSPORT_OPTIONS (their blocking reads need longer)."""
    from django.conf import settings

    from kaiser_league.celery import app

    timeout = settings.BROKER_PUBLISH_TIMEOUT
    options = {
        **app.conf.broker_transport_options,
        "max_retries": 0,
        "socket_connect_timeout": timeout,
        "socket_timeout": timeout,
    }
    return app.connection_for_write(connect_timeout=timeout, transport_options=options)


def derived_data_queue(*, game: Any) -> None:
    """After the current transaction commits, queue the rebuild of the standings of `game`'s
    season and the ratings of its club. Never raises (see derived_data_send)."""
    if game.club_id is None:
        return
    season_ids = [game.season_id] if game.season_id else []
    club_ids = [game.club_id]
    transaction.on_commit(
        lambda: derived_data_send(season_ids=season_ids, club_ids=club_ids), robust=True
    )


def derived_data_stale() -> tuple[list[int], list[int]]:
    """Seasons and clubs whose snapshot is missing or older than a change to their games
    (a hand entered, corrected, undone or confirmed, a game finished, abandoned or deleted).
    A season or club whose last rebuild failed is not retried until something changes."""
    from scorecards.models import Game  # scorecards imports leagues models

    changed = Max("games__updated_at")
    confirmed = Max("games__hands__confirmed_at")
    season_games = Game.objects.filter(season=OuterRef("pk"))
    season_rows = PlayerStanding.objects.filter(season=OuterRef("pk"))
    failed_season = RebuildFailure.objects.filter(
        kind=RebuildKind.STANDINGS, season=OuterRef("pk")
    ).values("failed_at")[:1]
    seasons = (
        Season.objects.filter(Exists(season_games) | Exists(season_rows))
        .annotate(changed=changed, confirmed=confirmed, failed=Subquery(failed_season))
        .values_list("pk", "changed", "confirmed", "standings__computed_at", "failed")
    )
    club_games = Game.objects.filter(club=OuterRef("pk"))
    club_rows = PlayerRating.objects.filter(club=OuterRef("pk"))
    failed_club = RebuildFailure.objects.filter(
        kind=RebuildKind.RATINGS, club=OuterRef("pk")
    ).values("failed_at")[:1]
    clubs = (
        Club.objects.filter(Exists(club_games) | Exists(club_rows))
        .annotate(changed=changed, confirmed=confirmed, failed=Subquery(failed_club))
        .values_list("pk", "changed", "confirmed", "ratings__computed_at", "failed")
    )

    def stale(rows: Iterable[tuple]) -> list[int]:
        out = []
        for pk, changed_at, confirmed_at, computed_at, failed_at in rows:
            times = [t for t in (changed_at, confirmed_at) if t is not None]
            latest = max(times) if times else None
            if failed_at is not None and (latest is None or failed_at > latest):
                continue  # the same data would fail the same way: wait for a change
            if computed_at is None or (latest is not None and latest >= computed_at):
                out.append(pk)
        return sorted(set(out))

    return stale(seasons), stale(clubs)


def derived_data_reconcile() -> tuple[list[int], list[int]]:
    """Queue a rebuild of every stale season and club (the periodic beat job). Returns them."""
    season_ids, club_ids = derived_data_stale()
    if season_ids or club_ids:
        log.info("reconciling standings of seasons %s, ratings of clubs %s", season_ids, club_ids)
        derived_data_send(season_ids=season_ids, club_ids=club_ids)
    return season_ids, club_ids


@dataclass
class RebuildReport:
    """What derived_data_rebuild_all did: how many it rebuilt, and what it could not (as
    (what, why) pairs, e.g. ("standings of season 3 “2026” of club regina", "ValueError: ..."))."""

    seasons: int = 0
    clubs: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)


def derived_data_rebuild_all(
    *, season_ids: Iterable[int] | None = None, club_ids: Iterable[int] | None = None
) -> RebuildReport:
    """Rebuild now, in this process (manage.py standings_rebuild): the given seasons and clubs,
    or every one when None. Goes on past any failure, transient ones included, and reports
    them (they are also recorded as RebuildFailure rows)."""
    seasons = Season.objects.select_related("club").order_by("pk")
    if season_ids is not None:
        seasons = seasons.filter(pk__in=list(season_ids))
    clubs = Club.objects.order_by("pk")
    if club_ids is not None:
        clubs = clubs.filter(pk__in=list(club_ids))
    report = RebuildReport()
    jobs = [
        (
            _("standings of season %(id)s “%(name)s” of club %(club)s")
            % {"id": season.pk, "name": season.name, "club": season.club.slug},
            RebuildKind.STANDINGS,
            season.club_id,
            season.pk,
            functools.partial(_standings_write, season.pk),
        )
        for season in seasons
    ]
    jobs += [
        (
            _("ratings of club %(club)s") % {"club": club.slug},
            RebuildKind.RATINGS,
            club.pk,
            None,
            functools.partial(_ratings_write, club.pk),
        )
        for club in clubs
    ]
    for label, kind, club_id, season_id, rebuild in jobs:
        try:
            _result, error = _rebuild_isolated(kind, club_id, season_id, rebuild)
        except TRANSIENT_ERRORS as exc:
            error = f"{type(exc).__name__}: {exc}"
            _failure_record(
                kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=[]
            )
        if error:
            report.failures.append((label, error))
        if kind == RebuildKind.STANDINGS:
            report.seasons += 1
        else:
            report.clubs += 1
    return report


# --- Clubs, members, players, seasons -------------------------------------------------------


def club_create(*, name: str, owner: AbstractBaseUser, slug: str = "") -> Club:
    """A new club owned by `owner`. The short name comes from the name when not given; when it
    is taken (even by a club created at this very moment) the next free `-2`, `-3`... is used.
    An owner who already owns a club of that name (any case) is refused with LeagueError
    naming it: a double-tapped "Create" (or ten at once) makes one club."""
    from django.contrib.auth import get_user_model

    name = _name(name, "name", MAX_CLUB_NAME)
    base = slugify(slug or name)[:50] or "club"
    if base == "new":  # clubs/new/ is the page that creates a club
        base = "new-club"
    n = 1
    while True:
        candidate = base if n == 1 else f"{base}-{n}"
        if not Club.objects.filter(slug=candidate).exists():
            try:
                with transaction.atomic():
                    # One owner's creates take turns (their account row is locked; SQLite
                    # serialises writers anyway), so this check sees a club made a moment ago.
                    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
                    if Club.objects.filter(
                        memberships__user=owner, memberships__role=Role.OWNER, name__iexact=name
                    ).exists():
                        raise LeagueError(
                            _("You already have a club called %(name)s.") % {"name": name}, "name"
                        )
                    club = Club.objects.create(name=name, slug=candidate)
                    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
                    return club
            except IntegrityError:
                # Another request took this short name between the check and the insert.
                if not Club.objects.filter(slug=candidate).exists() or n > MAX_SLUG_TRIES:
                    raise
        n += 1


def club_settings_update(
    *,
    club: Club,
    name: str,
    standings_public: bool,
    hands_need_confirmation: bool,
    pot_per_set: int | None = None,
) -> Club:
    """Change the club's name and switches, and the pot its new games keep (cents per set
    bid, None: no pot). A change of what counts re-queues the rebuilds."""
    if pot_per_set is not None and not 0 <= pot_per_set <= 100_000:
        raise LeagueError(_("The pot per set bid is at most 1000."), "pot_per_set")
    name = _name(name, "name", MAX_CLUB_NAME)
    with transaction.atomic():
        counting_changed = club.hands_need_confirmation != hands_need_confirmation
        club.name = name
        club.standings_public = standings_public
        club.hands_need_confirmation = hands_need_confirmation
        club.pot_per_set = pot_per_set
        club.save(
            update_fields=["name", "standings_public", "hands_need_confirmation", "pot_per_set"]
        )
        if counting_changed:
            season_ids = list(club.seasons.values_list("pk", flat=True))
            transaction.on_commit(
                lambda: derived_data_send(season_ids=season_ids, club_ids=[club.pk]), robust=True
            )
    return club


def _club_lock(club_id: int) -> Club:
    """Lock the club row: every change to who holds which role in a club goes through it, so
    two changes never decide on the same stale picture (two owners demoting each other)."""
    return Club.objects.select_for_update().get(pk=club_id)


def invitation_create(
    *,
    club: Club,
    role: str = Role.MEMBER,
    created_by: AbstractBaseUser | None = None,
    max_uses: int = 1,
    days: int = INVITATION_DAYS,
) -> Invitation:
    """A link that lets up to `max_uses` people (1 to 100; one by default) join `club` as `role`
    (not owner) within `days` (1 to 60)."""
    if role not in Role.values or role == Role.OWNER:
        raise LeagueError(_("Invitations are for directors, scorers and members."))
    if not 1 <= max_uses <= 100:
        raise LeagueError(_("An invitation is used by 1 to 100 people."))
    if not 1 <= days <= 60:
        raise LeagueError(_("An invitation lasts 1 to 60 days."))
    return Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(24),
        role=role,
        created_by=created_by,
        max_uses=max_uses,
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )


def invitation_valid(token: str) -> Invitation | None:
    """The invitation behind `token` while it can still bring someone in (not revoked, not
    expired, uses left); None otherwise."""
    invitation = (
        Invitation.objects.select_related("club")
        .annotate(used=models.Count("uses"))
        .filter(token=token, revoked=False, expires_at__gt=timezone.now())
        .first()
        if token
        else None
    )
    if invitation is None or invitation.used >= invitation.max_uses:
        return None
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """Make `user` a member of the invitation's club (an existing member keeps their role and
    uses nothing). Each newcomer uses the link once, kept with their name; a link used up,
    revoked or expired is refused (LeagueError), also when two people race for its last use."""
    _club_lock(invitation.club_id)
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    existing = Membership.objects.filter(club_id=locked.club_id, user=user).first()
    if existing is not None:
        return existing
    if locked.revoked or locked.expires_at <= timezone.now():
        raise LeagueError(_("This invitation no longer works: ask for a new one."))
    if locked.uses.count() >= locked.max_uses:
        raise LeagueError(_("This invitation has been used up: ask for a new one."))
    membership = Membership.objects.create(club_id=locked.club_id, user=user, role=locked.role)
    InvitationUse.objects.create(invitation=locked, user=user, username=user.get_username())
    return membership


def invitation_revoke(*, invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(revoked=True)


@transaction.atomic
def membership_role_set(
    *, membership: Membership, role: str, by: AbstractBaseUser | None = None
) -> Membership:
    """Give a member another role; the club always keeps at least one owner. The club row is
    locked first, so concurrent changes are decided one after the other. `by`, when given, must
    be an owner of the club (checked on the locked picture)."""
    if role not in Role.values:
        raise LeagueError(_("Unknown role."))
    _club_lock(membership.club_id)
    locked = Membership.objects.filter(pk=membership.pk).first()
    if locked is None:
        raise LeagueError(_("This person is no longer a member."))
    if (
        by is not None
        and not Membership.objects.filter(club_id=locked.club_id, user=by, role=Role.OWNER).exists()
    ):
        raise LeagueError(_("Only an owner changes roles."))
    if locked.role == Role.OWNER and role != Role.OWNER:
        owners = Membership.objects.filter(club_id=locked.club_id, role=Role.OWNER)
        if not owners.filter(~Q(pk=locked.pk)).exists():
            raise LeagueError(_("The club must keep at least one owner."))
    locked.role = role
    locked.save(update_fields=["role"])
    return locked


@transaction.atomic
def membership_remove(*, membership: Membership, by: AbstractBaseUser) -> None:
    """Remove a member from the club. Owners remove anyone, directors anyone but an owner; the
    last owner stays. Every power over the club's games ends with it (access goes through the
    membership), and the club's players linked to the account are unlinked."""
    _club_lock(membership.club_id)
    locked = Membership.objects.filter(pk=membership.pk).first()
    if locked is None:
        return  # removed already: nothing more to do
    remover = Membership.objects.filter(club_id=locked.club_id, user=by).first()
    if remover is None or remover.role not in (Role.OWNER, Role.DIRECTOR):
        raise LeagueError(_("Only an owner or a director removes members."))
    if locked.role == Role.OWNER:
        if remover.role != Role.OWNER:
            raise LeagueError(_("Only an owner removes an owner."))
        if (
            not Membership.objects.filter(club_id=locked.club_id, role=Role.OWNER)
            .exclude(pk=locked.pk)
            .exists()
        ):
            raise LeagueError(_("The club must keep at least one owner."))
    Player.objects.filter(club_id=locked.club_id, user_id=locked.user_id).update(user=None)
    locked.delete()


def player_save(*, club: Club, name: str, player: Player | None = None) -> Player:
    """Add a player to the club, or rename `player`. Names are unique in a club under their
    case-folded key: a clash, even with a player added at this very moment, raises LeagueError
    naming it."""
    name = _name(name, "name", MAX_PLAYER_NAME)
    clash = Player.objects.filter(club=club, name_key=name_key(name))
    if player is not None:
        clash = clash.exclude(pk=player.pk)
    taken = LeagueError(_("The club already has a player called %(name)s.") % {"name": name})
    if clash.exists():
        raise taken
    try:
        with transaction.atomic():
            if player is None:
                return Player.objects.create(club=club, name=name)
            player.name = name
            player.save(update_fields=["name"])
            return player
    except IntegrityError:
        # The database's unique constraint caught a rival request that won the race.
        if clash.exists():
            raise taken from None
        raise


@transaction.atomic
def player_link(*, player: Player, user: AbstractBaseUser | None) -> Player:
    """Link the player to an account that is a member of the club (None unlinks)."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise LeagueError(_("Only a member of the club can be linked to one of its players."))
        if Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk).exists():
            raise LeagueError(_("That account is already linked to another player."))
    player.user = user
    player.save(update_fields=["user"])
    return player


def season_create(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    rules: dict | None = None,
) -> Season:
    """A new season of the club with a rules preset (validated by the engine)."""
    from scorecards.rules import KaiserError, rules_build

    name = _name(name, "name", MAX_SEASON_NAME)
    if ends_on is not None and ends_on < starts_on:
        raise LeagueError(_("A season cannot end before it starts."))
    taken = LeagueError(_("The club already has a season called %(name)s.") % {"name": name})
    if Season.objects.filter(club=club, name=name).exists():
        raise taken
    rules = dict(rules or {"preset": "standard"})
    try:
        rules_build(rules)
    except KaiserError as exc:
        raise LeagueError(str(exc)) from exc
    try:
        with transaction.atomic():
            return Season.objects.create(
                club=club, name=name, starts_on=starts_on, ends_on=ends_on, rules=rules
            )
    except IntegrityError:
        if Season.objects.filter(club=club, name=name).exists():
            raise taken from None
        raise


def account_create(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A new account (the sign-up page has validated the fields). A username taken meanwhile,
    by a sign-up at this very moment, raises LeagueError naming it."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    taken = LeagueError(_("A user with that username already exists."))
    if model.objects.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            return model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        if model.objects.filter(username=username).exists():
            raise taken from None
        raise
