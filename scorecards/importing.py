"""Importing a `kaiser-game/1` record: the form of the import page, the checks that turn any
bytes into either a JSON object or one clear message, and the import itself (`game_import`).

    game = game_import(club=club, record=record, season=season, created_by=user)

Contract of `game_import`:
- the whole record is read and scored by the rules engine (`scorecards.rules`) once, before and
  outside any transaction: time linear in the number of hands, and a refused record (RecordError,
  HandError: both KaiserError, naming the place) writes nothing;
- the writes (new players, the game, its seats, every hand and its "entered" version, the
  engine's totals) then go in ONE short transaction of bulk inserts, so the database write lock
  (SQLite) is held for milliseconds even for thousands of hands and other clubs' phones keep
  entering hands; nothing is ever half-imported;
- players are matched by `leagues.clubs.models.name_key` (Unicode NFKC + case folding) and
  created if new; a name that only looks like a player (accents, case) is never silently a new
  player: the caller says who it is, or the import is refused (`scorecards.import_names`);
  when another request creates the same new player at the same moment, the
  import tries again once with the player now there, and otherwise refuses naming `seats`
  (never a 500);
- the record's `played_on` is kept as the game's day (refused naming `played_on` when after
  tomorrow); a record without one gives a game whose day is not known (None), never the day
  of the import;
- the returned game carries its cached totals (`hand_count`, `status`, ...) as stored.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Model
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from kaiser_league.inputs import InputError, ObjectChoiceField, model_choice_field, name_check
from kaiser_league.json_read import JsonRefused, json_read
from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.selectors import players_by_name
from scorecards.import_names import players_settle
from scorecards.models import Game, Hand, HandAction, HandVersion
from scorecards.played_on import played_on_recent
from scorecards.rules import RecordError, game_score, record_parse

MAX_SEAT_NAME = 80  # Seat.name and Player.name: a longer name is refused, never cut

# A real record of a long game is about 20 kB; anything much larger is not a game.
MAX_RECORD_BYTES = 256 * 1024
# The engine shows the value at fault in its message; a hostile value must not flood the page.
MAX_MESSAGE_CHARS = 300


def message_shorten(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def _has_nul(value: Any) -> bool:
    """True if any text in the JSON value (keys included) holds a NUL character. Iterative: a
    deeply nested value must not exhaust the stack here."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def record_from_text(text: str) -> dict[str, Any]:
    """The JSON object in `text`, or ValidationError with a message for the person importing:
    not JSON, or over a bound of `kaiser_league.json_read` (depth, a number's length), checked
    before parsing and naming the place."""
    try:
        value = json_read(text)
    except JsonRefused as exc:
        raise ValidationError(
            _("This is not a JSON record we can read: %(error)s"),
            code="json",
            params={"error": message_shorten(str(exc))},
        ) from None
    if not isinstance(value, dict):
        raise ValidationError(
            _("A game record is a JSON object ({…}) with its rules, seats and hands."),
            code="not_object",
        )
    if _has_nul(value):
        raise ValidationError(_("The record contains a NUL character."), code="nul")
    return value


class GameImportForm(forms.Form):
    """A record file or pasted record (exactly one), and optionally a season of the club."""

    file = forms.FileField(label=_("Record file"), required=False)
    text = forms.CharField(
        label=_("or paste the record"),
        required=False,
        strip=False,
        max_length=MAX_RECORD_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    season = ObjectChoiceField(label=_("Season"), queryset=Season.objects.none(), required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only this club's open seasons: another club's season id, or a closed season's (an
        # archive takes no new game), is "not one of the choices".
        season = model_choice_field(self.fields, "season")
        season.queryset = Season.objects.filter(club=club, closed_at__isnull=True)
        season.empty_label = _("no season")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        text = cleaned.get("text") or ""
        if self.errors:
            return cleaned
        if upload and text.strip():
            raise ValidationError(_("Upload a file or paste a record, not both."), code="both")
        if not upload and not text.strip():
            raise ValidationError(_("Upload a record file or paste a record."), code="empty")
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise ValidationError(
                    _("The file is too large for a game record (at most %(kb)s kB)."),
                    code="too_large",
                    params={"kb": MAX_RECORD_BYTES // 1024},
                )
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise ValidationError(
                    _("The file is not UTF-8 text: a record is a JSON text file."), code="utf8"
                ) from exc
        cleaned["record"] = record_from_text(text)
        return cleaned


# Hands per INSERT statement: far below SQLite's variable limit, few round trips.
_BATCH = 500
IMPORT_BY_NAME = "import"


def _rows_prepare(model: type[Model], objects: Iterable[Any]) -> tuple[str, list[list[Any]]]:
    """An INSERT of `model` rows (all but the id, the game's column first) and each object's
    values as the database takes them (the ORM's own conversion: JSON, UUID, times). Objects
    have no game yet; `_rows_insert` puts it in."""
    columns = [
        f for f in model._meta.concrete_fields if not f.primary_key and f.attname != "game_id"
    ]
    quote = connection.ops.quote_name
    game_field = model._meta.get_field("game")
    assert isinstance(game_field, models.Field)
    names = ", ".join(quote(f.column) for f in [game_field, *columns])
    marks = ", ".join(["%s"] * (len(columns) + 1))
    statement = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({marks})"
    rows = [
        [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in columns] for obj in objects
    ]
    return statement, rows


def _rows_insert(statement: str, rows: list[list[Any]], game_id: int) -> None:
    with connection.cursor() as cursor:
        for start in range(0, len(rows), _BATCH):
            cursor.executemany(statement, [[game_id, *row] for row in rows[start : start + _BATCH]])


def _players_get_or_create(
    club: Club, names: list[str], same: Mapping[str, str], alike_match: bool
) -> list[Player]:
    """The club's players for `names` (matched by name key; a name that only looks like a
    player is settled by `import_names.players_settle`), creating the missing ones. Must run
    inside the import's transaction; an IntegrityError means another request won a race."""
    keys = [name_key(name) for name in names]
    found = players_by_name(club, names)
    settled = players_settle(
        club, [n for n in names if name_key(n) not in found], same=same, alike_match=alike_match
    )
    players = []
    for name, key in zip(names, keys, strict=True):
        player = found.get(key) or settled.get(name)
        if player is None:
            player = Player.objects.create(club=club, name=name)
            found[key] = player
        players.append(player)
    return players


def game_import(
    *,
    club: Club,
    record: Mapping,
    season: Season | None = None,
    created_by: User | None = None,
    same: Mapping[str, str] | None = None,
    alike_match: bool = False,
    hand_keys: Sequence[uuid.UUID] | None = None,
) -> Game:
    """Store a kaiser-game/1 record as a game of `club` (see the module docstring). A seat name
    that only looks like a player of the club (accents, case: "Jerome" for "Jérôme") is that
    player or a new one as `same` answers (name -> player id or "new"); with `alike_match` it
    is the one player it looks like; else PlayersAlike (a RecordError naming `seats`) says
    which names are in doubt, and nothing is written. `hand_keys` are the hands' idempotency
    keys when the record comes from another server of ours (a hall laptop's night), so the same
    hand is the same row everywhere; new keys otherwise."""
    # Late import: services imports this module's neighbours; the helpers below are the ones the
    # table uses, so an imported hand is stored exactly like a hand entered at the table.
    from scorecards.services import game_start, hand_fields, score_apply

    parsed = record_parse(record)
    played_on_recent(parsed.played_on)
    score = game_score(parsed.rules, parsed.hands, parsed.first_dealer)
    names = [name.strip() for name in parsed.seats]
    for name in names:
        try:
            name_check(name, field="seats", max_length=MAX_SEAT_NAME)
        except InputError as error:
            raise RecordError("seats", error.message) from None
    if len({name_key(name) for name in names}) != len(names):
        raise RecordError("seats", gettext("the same player appears in two seats"))
    if season is not None and season.club_id != club.pk:
        raise RecordError("season", gettext("the season belongs to another club"))
    fields = [
        hand_fields(hand, scored) for hand, scored in zip(parsed.hands, score.hands, strict=True)
    ]
    if hand_keys is not None and len(hand_keys) != len(fields):
        raise RecordError("hands", gettext("one key per hand is expected"))
    keys = list(hand_keys) if hand_keys is not None else [uuid.uuid4() for _ in fields]
    by_name = IMPORT_BY_NAME
    # Every row is turned into database values here, before the transaction: inside it only
    # the INSERTs run, so the write lock is held for the database's work alone.
    inserts = [
        _rows_prepare(
            Hand,
            (
                Hand(
                    number=number,
                    idempotency_key=key,
                    entered_by=created_by,
                    entered_by_name=by_name,
                    **row,
                )
                for number, (row, key) in enumerate(zip(fields, keys, strict=True), 1)
            ),
        ),
        _rows_prepare(
            HandVersion,
            (
                HandVersion(
                    number=number,
                    action=HandAction.ENTER,
                    before=None,
                    after=row["record"],
                    by=created_by,
                    by_name=by_name,
                )
                for number, row in enumerate(fields, 1)
            ),
        ),
    ]

    for attempt in range(2):
        try:
            with transaction.atomic():
                players = _players_get_or_create(club, names, same or {}, alike_match)
                game = game_start(
                    seats=players,
                    rules=parsed.rules,
                    club=club,
                    season=season,
                    first_dealer=parsed.first_dealer,
                    created_by=created_by,
                    habits=parsed.habits_dict(),
                    played_on=parsed.played_on,
                )
                for statement, rows in inserts:
                    _rows_insert(statement, rows, game.pk)
                score_apply(game, score)
            return game
        except IntegrityError as exc:
            # Only a new player can clash (the game, hands and keys are all new): another
            # request created one of these names a moment ago. Once more finds it.
            if attempt == 0:
                continue
            raise RecordError(
                "seats", gettext("another import is adding these players; try again")
            ) from exc
    raise AssertionError("unreachable")
