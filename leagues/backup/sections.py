"""The sections of a club backup: one declaration per model, with their export, check and
restore (see `leagues.backup` for the contract)."""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import QuerySet
from django.utils import timezone

from leagues.backup.batches import Batches, rows_insert
from leagues.backup.columns import _field_check, _model_check
from leagues.backup.constraints import row_constraints_check, unique_constraints_check
from leagues.backup.fields import (
    Accounts,
    BackupError,
    _list,
    _obj,
)
from leagues.backup.limits import count_check
from leagues.clubs.models import (
    Club,
    Invitation,
    InvitationUse,
    PlayerMerge,
)
from leagues.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSitOut,
    TournamentTable,
)
from scorecards.models import HandVersion, SeatClaim, SeatRelease, SpentKey

# What a reference points at when it is not another section: the restored club, or a member.
CLUB = "club"
USER = "user"
# The sections built by hand above (their lists are the reference targets).
CORE_LISTS = ("players", "seasons", "games")


@dataclass(frozen=True)
class Section:
    """One model in the document (see the module docstring for the contract)."""

    key: str
    model: type[models.Model]
    fields: tuple[str, ...]
    refs: Mapping[str, str]
    rows: Callable[[Club], QuerySet]
    fresh: Mapping[str, Callable[[], Any]] = field(default_factory=dict)


SECTIONS: tuple[Section, ...] = (
    Section(
        key="tournaments",
        model=Tournament,
        fields=(
            "name",
            "date",
            "format",
            "rounds",
            "round_end",
            "hands_per_round",
            "extra_hand_on_tie",
            "minutes_per_round",
            "rules",
            "hands_need_confirmation",
            "movement",
            "sitout_score",
            "sitout_points",
            "status",
            "created_at",
        ),
        refs={"club": CLUB, "season": "seasons", "created_by": USER},
        rows=lambda club: Tournament.objects.filter(club=club).order_by("date", "pk"),
    ),
    Section(
        key="tournament_entries",
        model=TournamentEntry,
        fields=("pair_number", "checked_in", "first_round", "last_round", "created_at"),
        refs={"tournament": "tournaments", "player": "players"},
        rows=lambda club: TournamentEntry.objects.filter(tournament__club=club).order_by(
            "tournament__date", "tournament_id", "pk"
        ),
    ),
    Section(
        key="tournament_rounds",
        model=TournamentRound,
        fields=("number", "status", "drawn_at", "closed_at"),
        refs={"tournament": "tournaments"},
        rows=lambda club: TournamentRound.objects.filter(tournament__club=club).order_by(
            "tournament__date", "tournament_id", "number"
        ),
    ),
    Section(
        key="tournament_tables",
        model=TournamentTable,
        fields=("number",),
        refs={"round": "tournament_rounds", "game": "games"},
        rows=lambda club: TournamentTable.objects.filter(round__tournament__club=club).order_by(
            "round__tournament__date", "round__tournament_id", "round__number", "number"
        ),
    ),
    Section(
        key="tournament_sitouts",
        model=TournamentSitOut,
        fields=(),
        refs={"round": "tournament_rounds", "entry": "tournament_entries"},
        rows=lambda club: TournamentSitOut.objects.filter(round__tournament__club=club).order_by(
            "round__tournament__date", "round__tournament_id", "round__number", "entry_id"
        ),
    ),
    Section(
        key="invitations",
        model=Invitation,
        fields=("token", "role", "created_at", "expires_at", "revoked", "max_uses"),
        refs={"club": CLUB, "created_by": USER},
        rows=lambda club: Invitation.objects.filter(club=club).order_by("created_at", "pk"),
        fresh={"token": lambda: secrets.token_urlsafe(32)},
    ),
    Section(
        key="hand_versions",
        model=HandVersion,
        fields=("number", "action", "before", "after", "by_name", "reason", "at"),
        refs={"game": "games", "by": USER},
        rows=lambda club: HandVersion.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "at", "pk"
        ),
    ),
    Section(
        key="invitation_uses",
        model=InvitationUse,
        fields=("username", "at"),
        refs={"invitation": "invitations", "user": USER},
        rows=lambda club: InvitationUse.objects.filter(invitation__club=club).order_by("at", "pk"),
    ),
    Section(
        key="seat_claims",
        model=SeatClaim,
        fields=("seat", "phone", "at"),
        refs={"game": "games", "user": USER},
        rows=lambda club: SeatClaim.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "seat"
        ),
    ),
    # The trace of a seat claim let go: which seat, held since when, let go by whom.
    Section(
        key="seat_releases",
        model=SeatRelease,
        fields=("seat", "claimed_at", "holder_name", "by_name", "at"),
        refs={"game": "games", "by": USER},
        rows=lambda club: SeatRelease.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "at", "pk"
        ),
    ),
    Section(
        key="spent_keys",
        model=SpentKey,
        fields=("key", "number", "by_name", "at"),
        refs={"game": "games"},
        rows=lambda club: SpentKey.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "at", "pk"
        ),
        fresh={"key": uuid.uuid4},
    ),
    # The trace of two players made one. The merged player is gone; its id on the server that
    # made the backup is kept as written (a trace, not a reference).
    Section(
        key="player_merges",
        model=PlayerMerge,
        fields=("merged_name", "merged_player_id", "by_name", "moved", "at"),
        refs={"club": CLUB, "kept": "players", "by": USER},
        rows=lambda club: PlayerMerge.objects.filter(club=club).order_by("at", "pk"),
    ),
)


def _sections_export(
    club: Club, index: dict[str, dict[int, int]], accounts: Accounts
) -> dict[str, list]:
    """Every section's rows; `index` maps a list's key to {pk: position} and grows as we go."""
    out: dict[str, list] = {}
    for section in SECTIONS:
        rows = []
        positions: dict[int, int] = {}
        related = [name for name, target in section.refs.items() if target == USER]
        for position, obj in enumerate(section.rows(club).select_related(*related)):
            positions[obj.pk] = position
            row: dict[str, Any] = {}
            for name in section.fields:
                value = getattr(obj, name)
                if isinstance(value, datetime.date):
                    value = value.isoformat()
                elif isinstance(value, uuid.UUID):
                    value = str(value)
                row[name] = value
            for name, target in section.refs.items():
                if target == CLUB:
                    continue
                if target == USER:
                    row[name] = accounts.name(getattr(obj, name))
                else:
                    pk = getattr(obj, f"{name}_id")
                    row[name] = index[target][pk] if pk is not None else None
            rows.append(row)
        index[section.key] = positions
        out[section.key] = rows
    return out


def _sections_check(data: Mapping[str, Any], sizes: dict[str, int], usernames: set[str]) -> dict:
    """Every section's rows checked (types, ranges, references); missing sections are empty."""
    checked: dict[str, list] = {}
    for section in SECTIONS:
        rows = []
        for i, raw in enumerate(
            count_check(_list(data.get(section.key, []), section.key), section.key)
        ):
            path = f"{section.key}[{i}]"
            row = _obj(raw, path)
            values: dict[str, Any] = {}
            for name in section.fields:
                model_field = section.model._meta.get_field(name)
                assert isinstance(model_field, models.Field)
                if name not in row and model_field.has_default():
                    continue
                values[name] = _field_check(model_field, row.get(name), f"{path}.{name}")
            _model_check(section.model, values, path)
            row_constraints_check(section.model, values, path)
            refs: dict[str, Any] = {}
            for name, target in section.refs.items():
                if target == CLUB:
                    continue
                value = row.get(name)
                ref_field = section.model._meta.get_field(name)
                assert isinstance(ref_field, models.Field)
                nullable = ref_field.null
                if value is None and nullable:
                    refs[name] = None
                elif target == USER:
                    if value not in usernames:
                        raise BackupError(
                            f"{path}.{name}", f"{value!r} is not a member of the club"
                        )
                    refs[name] = value
                elif isinstance(value, bool) or not isinstance(value, int):
                    raise BackupError(f"{path}.{name}", f"expected a position in {target}")
                elif not 0 <= value < sizes[target]:
                    raise BackupError(f"{path}.{name}", f"no entry {value} in {target}")
                else:
                    refs[name] = value
            rows.append((values, refs))
        unique_constraints_check(section.model, rows, section.key)
        sizes[section.key] = len(rows)
        checked[section.key] = rows
    return checked


def _sections_restore(
    club: Club, checked: dict, made: dict[str, list], users: Mapping[str, Any], batches: Batches
) -> None:
    """Write every section's rows, in chunks (one step of `batches` each); `made` maps a list's
    key to its restored objects in order."""
    for section in SECTIONS:
        rows = checked[section.key]
        objects: list[models.Model] = []
        for start in range(0, len(rows), _CHUNK):
            with batches.step():
                objects.extend(_chunk_restore(section, rows, start, club, made, users))
        made[section.key] = objects


# Rows written by one statement.
_CHUNK = 500


def _chunk_restore(
    section: Section,
    rows: list,
    start: int,
    club: Club,
    made: dict[str, list],
    users: Mapping[str, Any],
) -> list[models.Model]:
    manager = section.model._default_manager
    chunk = rows[start : start + _CHUNK]
    objects = []
    now = timezone.now()
    for values, refs in chunk:
        kwargs = dict(values)
        for name, target in section.refs.items():
            if target == CLUB:
                kwargs[name] = club
            elif target == USER:
                kwargs[name] = users.get(refs[name]) if refs[name] is not None else None
            else:
                kwargs[name] = made[target][refs[name]] if refs[name] is not None else None
        objects.append(section.model(**kwargs))
    for name, make in section.fresh.items():
        # A globally unique value taken on this server already gets a new one.
        taken = set(
            manager.filter(**{f"{name}__in": [getattr(obj, name) for obj in objects]}).values_list(
                name, flat=True
            )
        )
        for obj in objects:
            if getattr(obj, name) in taken:
                setattr(obj, name, make())
    for column in section.model._meta.concrete_fields:
        # An automatic time the document leaves out is the time of the restore.
        if getattr(column, "auto_now_add", False) or getattr(column, "auto_now", False):
            for obj in objects:
                if getattr(obj, column.attname) is None:
                    setattr(obj, column.attname, now)
    try:
        with transaction.atomic():
            rows_insert(section.model, objects)
    except IntegrityError as exc:
        raise BackupError(
            f"{section.key}[{start}:{start + len(chunk)}]", f"refused by the database: {exc}"
        ) from exc
    return objects
