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
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError

from leagues.derived import counted_games, ratings_compute, standings_compute
from leagues.models import (
    Club,
    Invitation,
    Membership,
    PartnershipStanding,
    Player,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    Season,
    StandingFigures,
    StandingsSnapshot,
    name_key,
)
from leagues.roles import Role

log = logging.getLogger(__name__)

INVITATION_DAYS = 14


class LeagueError(ValueError):
    """A refused club, member, player or season change; the message says why (translated)."""


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


def standings_rebuild(*, season_id: int) -> StandingsSnapshot | None:
    """Recompute the standings of season `season_id` from its counted games and store them.

    Idempotent. The snapshot's computed_at is when the reading began. Returns the snapshot, or
    None if the season no longer exists (or a newer rebuild already stored its result)."""
    started = timezone.now()
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        return None
    players, pairs, game_count, hand_count = standings_compute(counted_games(season.club, season))
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
    return snapshot


def ratings_rebuild(*, club_id: int) -> RatingSnapshot | None:
    """Recompute the OpenSkill ratings of club `club_id` from all its counted games, in game
    order, and store the final ratings and each player's rating after every game.

    Idempotent (the same games give the same numbers). Returns the snapshot, or None if the
    club no longer exists (or a newer rebuild already stored its result)."""
    started = timezone.now()
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return None
    final, history, game_count = ratings_compute(counted_games(club))
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
    return snapshot


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
    (a hand entered, corrected, undone or confirmed, a game finished)."""
    from scorecards.models import Game  # scorecards imports leagues models

    changed = Max("games__updated_at")
    confirmed = Max("games__hands__confirmed_at")
    seasons = (
        Season.objects.filter(games__isnull=False)
        .annotate(changed=changed, confirmed=confirmed)
        .values_list("pk", "changed", "confirmed", "standings__computed_at")
        .distinct()
    )
    clubs = (
        Club.objects.filter(pk__in=Game.objects.filter(club__isnull=False).values("club_id"))
        .annotate(changed=changed, confirmed=confirmed)
        .values_list("pk", "changed", "confirmed", "ratings__computed_at")
    )

    def stale(rows: Iterable[tuple]) -> list[int]:
        out = []
        for pk, changed_at, confirmed_at, computed_at in rows:
            latest = max(t for t in (changed_at, confirmed_at) if t is not None)
            if computed_at is None or latest >= computed_at:
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


def derived_data_rebuild_all(
    *, season_ids: Iterable[int] | None = None, club_ids: Iterable[int] | None = None
) -> tuple[int, int]:
    """Rebuild now, in this process (manage.py standings_rebuild): the given seasons and clubs,
    or every one when None. Returns how many seasons and clubs were rebuilt."""
    seasons = (
        list(Season.objects.values_list("pk", flat=True)) if season_ids is None else season_ids
    )
    clubs = list(Club.objects.values_list("pk", flat=True)) if club_ids is None else club_ids
    seasons, clubs = list(seasons), list(clubs)
    for season_id in seasons:
        standings_rebuild(season_id=season_id)
    for club_id in clubs:
        ratings_rebuild(club_id=club_id)
    return len(seasons), len(clubs)


# --- Clubs, members, players, seasons -------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, owner: AbstractBaseUser, slug: str = "") -> Club:
    """A new club owned by `owner`. The short name comes from the name when not given."""
    name = name.strip()
    if not name:
        raise LeagueError(_("A club needs a name."))
    base = slugify(slug or name)[:50] or "club"
    if base == "new":  # clubs/new/ is the page that creates a club
        base = "new-club"
    candidate, n = base, 1
    while Club.objects.filter(slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    club = Club.objects.create(name=name[:100], slug=candidate)
    Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def club_settings_update(
    *, club: Club, name: str, standings_public: bool, hands_need_confirmation: bool
) -> Club:
    """Change the club's name and switches. A change of what counts re-queues the rebuilds."""
    name = name.strip()
    if not name:
        raise LeagueError(_("A club needs a name."))
    with transaction.atomic():
        counting_changed = club.hands_need_confirmation != hands_need_confirmation
        club.name = name[:100]
        club.standings_public = standings_public
        club.hands_need_confirmation = hands_need_confirmation
        club.save(update_fields=["name", "standings_public", "hands_need_confirmation"])
        if counting_changed:
            season_ids = list(club.seasons.values_list("pk", flat=True))
            transaction.on_commit(
                lambda: derived_data_send(season_ids=season_ids, club_ids=[club.pk]), robust=True
            )
    return club


def invitation_create(
    *, club: Club, role: str = Role.MEMBER, created_by: AbstractBaseUser | None = None
) -> Invitation:
    """A link that lets its holder join `club` as `role` (not owner) for INVITATION_DAYS."""
    if role not in Role.values or role == Role.OWNER:
        raise LeagueError(_("Invitations are for directors, scorers and members."))
    return Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(24),
        role=role,
        created_by=created_by,
        expires_at=timezone.now() + datetime.timedelta(days=INVITATION_DAYS),
    )


def invitation_valid(token: str) -> Invitation | None:
    return (
        Invitation.objects.select_related("club")
        .filter(token=token, revoked=False, expires_at__gt=timezone.now())
        .first()
        if token
        else None
    )


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """Make `user` a member of the invitation's club. An existing member keeps their role."""
    membership, _created = Membership.objects.get_or_create(
        club=invitation.club, user=user, defaults={"role": invitation.role}
    )
    return membership


def invitation_revoke(*, invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk).update(revoked=True)


@transaction.atomic
def membership_role_set(*, membership: Membership, role: str) -> Membership:
    """Give a member another role; the club always keeps at least one owner."""
    if role not in Role.values:
        raise LeagueError(_("Unknown role."))
    locked = Membership.objects.select_for_update().get(pk=membership.pk)
    if locked.role == Role.OWNER and role != Role.OWNER:
        owners = Membership.objects.filter(club_id=locked.club_id, role=Role.OWNER)
        if not owners.filter(~Q(pk=locked.pk)).exists():
            raise LeagueError(_("The club must keep at least one owner."))
    locked.role = role
    locked.save(update_fields=["role"])
    return locked


def player_save(*, club: Club, name: str, player: Player | None = None) -> Player:
    """Add a player to the club, or rename `player`. Names are unique in a club (any case)."""
    name = name.strip()[:80]
    if not name:
        raise LeagueError(_("A player needs a name."))
    clash = Player.objects.filter(club=club, name_key=name_key(name))
    if player is not None:
        clash = clash.exclude(pk=player.pk)
    if clash.exists():
        raise LeagueError(_("The club already has a player called %(name)s.") % {"name": name})
    with transaction.atomic():
        if player is None:
            return Player.objects.create(club=club, name=name)
        player.name = name
        player.save(update_fields=["name"])
        return player


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

    name = name.strip()[:100]
    if not name:
        raise LeagueError(_("A season needs a name."))
    if ends_on is not None and ends_on < starts_on:
        raise LeagueError(_("A season cannot end before it starts."))
    if Season.objects.filter(club=club, name=name).exists():
        raise LeagueError(_("The club already has a season called %(name)s.") % {"name": name})
    rules = dict(rules or {"preset": "standard"})
    try:
        rules_build(rules)
    except KaiserError as exc:
        raise LeagueError(str(exc)) from exc
    with transaction.atomic():
        return Season.objects.create(
            club=club, name=name, starts_on=starts_on, ends_on=ends_on, rules=rules
        )
