"""Statements compiled once per process (`kaiser_league.query_memo.compiled_once`): what they
read is what the ORM reads, row for row and value for value, every time they run (a write
between two runs shows on the next one: only the SQL is kept, never a row), and a query whose
SQL would change with a value is refused rather than kept."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.db import DatabaseError, connection, transaction
from django.db.models.signals import post_save
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from kaiser_league import query_memo
from kaiser_league.query_memo import compiled_once, row_insert, row_update, rows_insert_then_update
from leagues.clubs.models import Membership, Role, Season
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards import poll
from scorecards.access import SESSION_TABLE_TOKENS, Locking, _games_query, game_for_member
from scorecards.models import Game, Hand, HandAction, HandVersion, Seat, SeatClaim, SpentKey
from scorecards.rules import HandInput
from scorecards.services import game_start, game_token_issue, hand_record
from scorecards.services.state import hands_so_far
from scorecards.table_phone import game_names
from tests.conftest import client_for, table_phone
from tests.test_table_sheet import JSON, submit

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


@pytest.fixture
def game(club, players, standard_rules, alice) -> Game:
    season = Season.objects.create(club=club, name="Fall", starts_on=datetime.date(2026, 9, 1))
    game = game_start(
        seats=players, rules=standard_rules, club=club, season=season, created_by=alice
    )
    hand_record(game=game, hand=MADE)
    return game


def _request(user=None, game: Game | None = None):
    request = RequestFactory().post("/")
    request.user = user or AnonymousUser()
    request.session = SessionStore()
    if game is not None:
        request.session[SESSION_TABLE_TOKENS] = {str(game.pk): game.table_token}
    return request


def _fields(game: Game) -> dict:
    """Every column and annotation read onto `game`, with the related rows' columns."""
    values = {key: value for key, value in vars(game).items() if not key.startswith("_state")}
    for name in ("club", "season"):
        related = game._state.fields_cache.get(name)
        values[name] = None if related is None else _fields(related)
    return values


SHAPES = [
    {"place": True, "user_seat": False, "related": True, "locking": False},
    {"place": False, "user_seat": True, "related": False, "locking": True},
    {"place": False, "user_seat": True, "related": True, "locking": True},
]


def _both(request, game: Game, key: uuid.UUID | None, shape: dict) -> tuple[dict, dict]:
    """The game as `game_for_member` reads it, and as the ORM evaluates the same query."""
    user_id = request.user.pk
    with transaction.atomic():
        access = game_for_member(
            request,
            game.pk,
            seats=False,
            place=shape["place"],
            user_seat=shape["user_seat"],
            related=shape["related"],
            lock=Locking(key) if shape["locking"] else None,
        )
        orm = _games_query(game.pk, user_id, key, **shape).get()
    read = _fields(access.game)
    read.pop("_key_asked", None)
    return read, _fields(orm)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("who", ["owner", "member", "phone"])
def test_the_game_read_by_the_access_check_is_what_the_orm_reads(
    game, alice, bob, players, who, shape
) -> None:
    user = {"owner": alice, "member": bob}.get(who)
    game_token_issue(game=game)
    game.refresh_from_db()
    if user is not None:
        players[2].user = user
        players[2].save()
        SeatClaim.objects.create(game=game, seat=2, phone="p", user=user)
    request = _request(user, game)
    key = uuid.uuid4()
    SpentKey.objects.create(key=key, game=game, number=1)
    for asked in (key, uuid.uuid4(), None):
        read, orm = _both(request, game, asked, shape)
        assert read == orm
        assert read["rules"] == game.rules and isinstance(read["updated_at"], datetime.datetime)
    if user is not None:
        assert read.get("_claim") == 2 and (read.get("_seat") == 2 or not shape["user_seat"])


@pytest.mark.parametrize("shape", SHAPES)
def test_a_tournament_table_is_read_with_where_it_stands(club, bob, shape) -> None:
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), rounds=2, hands_per_round=4
    )
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    round_draw(tournament=night)
    table_game = Game.objects.filter(club=club).order_by("pk").first()
    assert table_game is not None
    read, orm = _both(_request(bob), table_game, uuid.uuid4(), shape)
    assert read == orm
    if shape["place"] or shape["locking"]:
        assert read["_place_round"] == 1 and read["_place_hands_per_round"] == 4


def _asked(game: Game) -> tuple:
    """The role, the seat claimed and whether the key is spent, read with the game."""
    return tuple(vars(game)[name] for name in ("_by_role", "_claim", "_key_spent"))


def test_each_run_reads_the_rows_as_they_are_now(game, bob, club) -> None:
    """Only the SQL is kept: a role changed, a seat claimed, a key spent or a hand added
    between two reads shows on the second."""
    request = _request(bob)

    def read(key: uuid.UUID) -> Game:
        with transaction.atomic():
            return game_for_member(
                request, game.pk, seats=False, place=False, user_seat=True, lock=Locking(key)
            ).game

    key = uuid.uuid4()
    first = read(key)
    assert _asked(first) == (Role.MEMBER, None, False)
    Membership.objects.filter(club=club, user=bob).update(role=Role.SCORER)
    SeatClaim.objects.create(game=game, seat=1, phone="p", user=bob)
    SpentKey.objects.create(key=key, game=game, number=1)
    second = read(key)
    assert _asked(second) == (Role.SCORER, 1, True)
    assert [hand.number for hand in hands_so_far(game, rows=False)] == [1]
    hand_record(game=game, hand=MADE)
    assert [hand.number for hand in hands_so_far(game)] == [1, 2]
    assert [hand.number for hand in hands_so_far(game, rows=False)] == [1, 2]


def test_the_hands_so_far_are_the_orm_rows(game) -> None:
    hand_record(game=game, hand=MADE)
    rows = hands_so_far(game)
    stored = list(Hand.objects.filter(game=game).order_by("number"))
    assert [vars(row) | {"_state": None} for row in rows] == [
        vars(row) | {"_state": None, "corrected": False} for row in stored
    ]
    values = hands_so_far(game, rows=False)
    assert [(v.number, v.record, v.idempotency_key) for v in values] == [
        (h.number, h.record, h.idempotency_key) for h in stored
    ]


def test_outsiders_and_ids_no_column_holds_are_404(game, charlie) -> None:
    for game_id in (game.pk + 1000, 2**63, 10**30):
        with pytest.raises(Http404):
            game_for_member(_request(charlie), game_id)
    with pytest.raises(Http404):
        game_for_member(_request(charlie), game.pk)


def test_a_query_whose_sql_changes_with_a_value_is_refused(game) -> None:
    def by_limit(limit: int):
        return Seat.objects.filter(game_id=game.pk)[:limit]

    with pytest.raises(ValueError, match="changes with"):
        compiled_once(("test", "limit"), by_limit, limit=(1, 2))

    def unused(game_id: int):
        return Seat.objects.filter(game_id=game.pk)

    with pytest.raises(ValueError, match="no parameter carries"):
        compiled_once(("test", "unused"), unused, game_id=(1, 2))


def _columns(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_a_row_inserted_once_compiled_is_the_row_save_writes(game, monkeypatch) -> None:
    # From its first insert in a process, when the statement is compiled.
    monkeypatch.setattr(query_memo, "_inserts", {})

    def version(number: int) -> HandVersion:
        return HandVersion(
            game=game, number=number, action=HandAction.ENTER, after={"bid": 7}, by_name="Ann"
        )

    saved, inserted = version(1), version(2)
    saved.save(force_insert=True)
    row_insert(inserted)
    assert inserted.pk is not None and inserted.pk != saved.pk
    assert not inserted._state.adding and inserted.at is not None
    stored = {pk: _columns(row) for pk, row in HandVersion.objects.in_bulk().items()}
    assert stored[inserted.pk] == _columns(inserted)
    assert stored[inserted.pk] | {"id": 0, "number": 0, "at": 0} == stored[saved.pk] | {
        "id": 0,
        "number": 0,
        "at": 0,
    }


def test_a_row_whose_id_is_given_is_saved_by_save(game) -> None:
    given = HandVersion(pk=9_000, game=game, number=1, action=HandAction.ENTER, by_name="Ann")
    row_insert(given)
    assert HandVersion.objects.get(pk=9_000).by_name == "Ann"


def test_a_row_updated_once_compiled_saves_its_fields_and_says_so(game) -> None:
    """The poll's version follows the game row (`post_save`): an update that skipped it would
    leave the other phones' sheets unchanged."""
    sent: list[frozenset] = []

    def heard(sender, instance, update_fields, **kwargs) -> None:
        sent.append(update_fields)

    post_save.connect(heard, sender=Game, dispatch_uid="test_row_update")
    try:
        before = game.updated_at
        game.hand_count, game.scores, game.winner = 7, [12, 30], None
        row_update(game, ["hand_count", "scores", "winner", "updated_at"])
    finally:
        post_save.disconnect(dispatch_uid="test_row_update", sender=Game)
    assert sent == [frozenset({"hand_count", "scores", "winner", "updated_at"})]
    stored = Game.objects.get(pk=game.pk)
    assert (stored.hand_count, stored.scores, stored.winner) == (7, [12, 30], None)
    assert stored.updated_at == game.updated_at > before
    game.pk = game.pk + 1000
    with pytest.raises(DatabaseError):
        row_update(game, ["hand_count"])


def test_rows_written_together_are_the_rows_save_writes(game) -> None:
    """`rows_insert_then_update`: the rows `save()` would write, their ids set, the game's
    `post_save` sent (the poll's version follows it), in one statement on PostgreSQL."""
    sent: list[frozenset] = []

    def heard(sender, instance, update_fields, **kwargs) -> None:
        sent.append(update_fields)

    def version(number: int) -> HandVersion:
        return HandVersion(
            game=game, number=number, action=HandAction.ENTER, after={"bid": 7}, by_name="Ann"
        )

    saved = version(5)
    saved.save(force_insert=True)
    together = (version(6), version(7))
    before = game.updated_at
    game.hand_count, game.scores = 9, [40, 12]
    post_save.connect(heard, sender=Game, dispatch_uid="test_rows_insert_then_update")
    try:
        with CaptureQueriesContext(connection) as queries:
            rows_insert_then_update(together, game, ["hand_count", "scores", "updated_at"])
    finally:
        post_save.disconnect(dispatch_uid="test_rows_insert_then_update", sender=Game)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)
    assert sent == [frozenset({"hand_count", "scores", "updated_at"})]
    stored = {pk: _columns(row) for pk, row in HandVersion.objects.in_bulk().items()}
    for row in together:
        assert not row._state.adding and stored[row.pk] == _columns(row)
        assert stored[row.pk] | {"id": 0, "number": 0, "at": 0} == stored[saved.pk] | {
            "id": 0,
            "number": 0,
            "at": 0,
        }
    assert together[0].pk != together[1].pk
    game_now = Game.objects.get(pk=game.pk)
    assert (game_now.hand_count, game_now.scores) == (9, [40, 12])
    assert game_now.updated_at == game.updated_at > before


def test_rows_written_together_for_no_game_row_are_refused_whole(game) -> None:
    count = HandVersion.objects.count()
    game.pk = game.pk + 1000
    with pytest.raises(DatabaseError), transaction.atomic():
        rows_insert_then_update(
            [HandVersion(game_id=game.pk - 1000, number=3, by_name="Ann")], game, ["target"]
        )
    assert HandVersion.objects.count() == count


def test_each_entered_hand_publishes_the_polls_version(game, monkeypatch) -> None:
    published: list[tuple[int, int]] = []
    monkeypatch.setattr(
        poll, "version_publish", lambda saved: published.append((saved.pk, saved.hand_count))
    )
    hand_record(game=game, hand=MADE)
    assert published == [(game.pk, 2)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["member", "phone"])
def test_the_session_and_the_account_are_read_before_the_transaction(game, bob, who) -> None:
    """On SQLite a write transaction holds the database's lock from its start: what every
    request reads of its own is read before it."""
    game_token_issue(game=game)
    game.refresh_from_db()
    client = client_for(bob) if who == "member" else table_phone(game)
    with CaptureQueriesContext(connection) as queries:
        assert submit(client, game, headers=JSON).status_code == 201
    statements = [query["sql"] for query in queries.captured_queries]
    own = [
        i
        for i, sql in enumerate(statements)
        if sql.startswith(('SELECT "django_session"', 'SELECT "auth_user"'))
    ]
    opened = [i for i, sql in enumerate(statements) if sql.startswith(("BEGIN", "SAVEPOINT"))]
    game_read = next(i for i, sql in enumerate(statements) if 'FROM "scorecards_game"' in sql)
    assert own and max(own) < min([*opened, game_read]), statements
    assert len(own) == (2 if who == "member" else 1), statements


def test_a_seat_renamed_shows_on_the_next_request(game) -> None:
    assert game_names(Game.objects.get(pk=game.pk)) == ["Ann", "Cat", "Bob", "Dan"]
    Seat.objects.filter(game=game, seat=1).update(name="Catherine")
    assert game_names(Game.objects.get(pk=game.pk)) == ["Ann", "Catherine", "Bob", "Dan"]
