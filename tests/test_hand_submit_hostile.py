"""Bad input on the hand entry endpoint (`POST /games/<id>/hands/`): random and hostile data
driven by hypothesis (huge numbers, wrong types, garbage keys, wrong hand numbers, other clubs'
games, missing CSRF). Never a 500, never a partial write (rows and versions counted), and a
refused hand always says which field is wrong."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Club, Player
from scorecards.models import Game, Hand, HandVersion
from scorecards.rules import HandInput
from scorecards.services import game_start, game_token_issue, hand_record
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
FIELDS = [
    "idempotency_key", "number", "thrown_in", "bidder", "bid", "kind", "tricks_0", "tricks_1",
    "tricks_bidder", "seat_tricks_0", "five_hearts", "three_spades", "insult", "auction",
    "entered_as",
]  # fmt: skip
HOSTILE = st.one_of(
    st.text(max_size=30),
    st.integers().map(str),
    st.integers(min_value=10**18, max_value=10**80).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(
        ["", " ", "-0", "+3", "0x10", "1e3", "٣", "８", "null", "None", "true", "[]", "{}",
         "'; DROP TABLE scorecards_hand; --", "<script>", "\x00", "\ud7ff" * 3, "8" * 5000,
         "trump", "no", "low", "kaiser", "kaiser40", "pass", str(uuid.uuid4())]
    ),
)  # fmt: skip
FORMS = st.dictionaries(
    st.one_of(st.sampled_from(FIELDS), st.text(max_size=12)),
    st.one_of(HOSTILE, st.lists(HOSTILE, min_size=2, max_size=4)),
    max_size=12,
)
VALID = {
    "bidder": "0", "bid": "8", "kind": "trump", "tricks_bidder": "6",
    "five_hearts": "0", "three_spades": "1",
}  # fmt: skip


@pytest.fixture
def game(club, players, standard_rules, alice) -> Game:
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


@pytest.fixture
def other_game(standard_rules) -> Game:
    """A game of another club that none of our users belongs to."""
    other = Club.objects.create(name="Saskatoon", slug="saskatoon")
    seats = [Player.objects.create(club=other, name=n) for n in "WXYZ"]
    return game_start(seats=seats, rules=standard_rules, club=other)


def _table_phone(game: Game) -> Client:
    phone = Client()
    phone.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    return phone


def _counts() -> tuple[int, int, list]:
    return (
        Hand.objects.count(),
        HandVersion.objects.count(),
        list(Game.objects.order_by("pk").values_list("hand_count", "scores", "updated_at")),
    )


def _check_answer(response, before, *, expect_refused: bool = False) -> None:
    """The invariants of every answer: no 5xx; only a 201 writes (one hand, one version); a
    refused JSON answer names the field(s) with a message each."""
    assert response.status_code < 500, response.content[:500]
    after = _counts()
    if response.status_code == 201:
        assert not expect_refused, response.content[:500]
        assert after[0] == before[0] + 1 and after[1] == before[1] + 1
    else:
        assert after == before, f"HTTP {response.status_code} wrote something"
    if response.status_code == 422 and "json" in response.get("Content-Type", ""):
        body = json.loads(response.content)
        assert body["status"] == "invalid"
        assert body["errors"] and all(
            name and messages and all(isinstance(m, str) and m.strip() for m in messages)
            for name, messages in body["errors"].items()
        ), body


def _post(client: Client, game_id: int | str, data, **extra):
    return client.post(f"/games/{game_id}/hands/", data, **extra)


KNOWN_NAMES = {
    "hand", "number", "thrown_in", "bidder", "bid", "kind", "tricks", "seat_tricks",
    "five_hearts", "three_spades", "insult", "auction", "idempotency_key",
}  # fmt: skip


def _well_formed(field: str, value: str) -> bool:
    raw = value.strip()
    if field == "kind":
        return raw in ("trump", "no", "low", "kaiser", "kaiser40")
    if field == "idempotency_key":
        try:
            uuid.UUID(raw)
        except ValueError:
            return False
        return raw.isascii()
    digits = raw.removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) <= 4


SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SETTINGS
@given(form=FORMS, as_json=st.booleans(), htmx=st.booleans())
def test_random_forms_never_500_and_never_half_write(game, alice, form, as_json, htmx) -> None:
    headers = {**(JSON if as_json else {}), **({"HX-Request": "true"} if htmx else {})}
    before = _counts()
    response = _post(client_for(alice), game.pk, form, headers=headers)
    _check_answer(response, before)


@SETTINGS
@given(
    field=st.sampled_from(
        ["number", "bidder", "bid", "kind", "tricks_bidder", "five_hearts", "three_spades",
         "idempotency_key"]
    ),
    value=HOSTILE,
)  # fmt: skip
def test_one_hostile_field_in_a_good_hand_is_named(game, alice, field, value) -> None:
    """A good hand with one field replaced: either still a valid hand (201) or a 422 whose
    errors name that field (or the hand as a whole, when only the combination is wrong)."""
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": "1", field: value}
    before = _counts()
    response = _post(client_for(alice), game.pk, data, headers=JSON)
    _check_answer(response, before)
    if response.status_code == 422:
        errors = json.loads(response.content)["errors"]
        assert set(errors) <= KNOWN_NAMES, errors
        if value.strip() and not _well_formed(field, value):
            # A value of the wrong shape is named as that field (the sheet shows the bidding
            # side's tricks as "tricks").
            assert ("tricks" if field == "tricks_bidder" else field) in errors, errors
    if response.status_code == 201:
        Hand.objects.all().delete()  # start the next example from hand 1 again
        HandVersion.objects.all().delete()
        Game.objects.filter(pk=game.pk).update(hand_count=0, scores=[0, 0])


@SETTINGS
@given(game_id=st.one_of(st.integers(min_value=0, max_value=10**30), st.just(-1)))
def test_any_game_id_is_404_or_the_game(game, alice, game_id) -> None:
    before = _counts()
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": "1"}
    path_id = str(game_id).replace("-", "")  # the URL takes digits only
    response = _post(client_for(alice), path_id, data, headers=JSON)
    _check_answer(response, before)
    if path_id != str(game.pk):
        assert response.status_code == 404


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", "anonymous", "table"])
def test_another_clubs_game_is_404_for_everyone_and_nothing_is_written(
    who, game, other_game, alice, bob, charlie
) -> None:
    clients = {
        "alice": client_for(alice),
        "bob": client_for(bob),
        "charlie": client_for(charlie),
        "anonymous": Client(),
        "table": _table_phone(game),  # the link of our game opens only our game
    }
    before = _counts()
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": "1"}
    response = _post(clients[who], other_game.pk, data, headers=JSON)
    assert response.status_code == 404
    assert _counts() == before


@pytest.mark.parametrize("who", ["alice", "bob", "charlie", "anonymous", "table"])
def test_our_game_by_role(who, game, alice, bob, charlie) -> None:
    clients = {
        "alice": client_for(alice),
        "bob": client_for(bob),
        "charlie": client_for(charlie),
        "anonymous": Client(),
        "table": _table_phone(game),
    }
    before = _counts()
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": "1"}
    response = _post(clients[who], game.pk, data, headers=JSON)
    if who in ("charlie", "anonymous"):
        assert response.status_code == 404
        assert _counts() == before
    else:
        assert response.status_code == 201
        assert Hand.objects.count() == before[0] + 1


def test_missing_csrf_is_refused_with_a_clear_message_and_writes_nothing(game, alice) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    before = _counts()
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": "1"}
    response = _post(client, game.pk, data, headers=JSON)
    assert response.status_code == 403
    body = json.loads(response.content)
    assert body["status"] == "forbidden" and "csrf" in body["errors"]
    assert _counts() == before
    # The page (no JSON asked) still gets Django's page, which says why.
    response = _post(client, game.pk, data)
    assert response.status_code == 403 and b"CSRF" in response.content
    assert _counts() == before


@pytest.mark.parametrize(
    ("number", "status", "field"),
    [("0", 422, "number"), ("-1", 422, "number"), ("99", 422, "number"),
     ("3", 422, "number"), ("9" * 40, 422, "number"), ("x", 422, "number"),
     ("1", 409, None)],
)  # fmt: skip
def test_wrong_hand_numbers(game, alice, number, status, field) -> None:
    hand_record(game=game, hand=HandInput(thrown_in=True))
    data = {**VALID, "idempotency_key": str(uuid.uuid4()), "number": number}
    before = _counts()
    response = _post(client_for(alice), game.pk, data, headers=JSON)
    assert response.status_code == status, response.content
    body = json.loads(response.content)
    if field:
        assert field in body["errors"], body
    else:
        assert body["hand"]["number"] == 1
    assert _counts() == before


@pytest.mark.parametrize(
    "key", ["", "not-a-uuid", "1" * 33, "{" + str(uuid.uuid4()) + "x", "0" * 5000, "٣" * 32]
)
def test_garbage_idempotency_keys_are_named(game, alice, key) -> None:
    data = {**VALID, "idempotency_key": key, "number": "1"}
    before = _counts()
    response = _post(client_for(alice), game.pk, data, headers=JSON)
    assert response.status_code == 422
    assert "idempotency_key" in json.loads(response.content)["errors"]
    assert _counts() == before


def test_a_key_of_another_game_is_refused_by_name(game, other_game, alice) -> None:
    key = uuid.uuid4()
    hand_record(
        game=other_game,
        hand=HandInput(thrown_in=True),
        idempotency_key=key,
    )
    data = {**VALID, "idempotency_key": str(key), "number": "1"}
    before = _counts()
    response = _post(client_for(alice), game.pk, data, headers=JSON)
    assert response.status_code == 422
    assert "idempotency_key" in json.loads(response.content)["errors"]
    assert _counts() == before


MULTIPART = b'--x\r\nContent-Disposition: form-data; name="bid"\r\n\r\n8'


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b'{"bidder": 0, "bid": 8}', "application/json"),
        (b"\xff\xfe\x00garbage", "application/x-www-form-urlencoded"),
        (MULTIPART, "multipart/form-data; boundary=x"),
        (b"bid=8&" * 2000, "application/x-www-form-urlencoded"),
        (b"", "text/plain"),
    ],
)  # fmt: skip
def test_wrong_body_types(game, alice, body, content_type) -> None:
    before = _counts()
    response = client_for(alice).generic(
        "POST", f"/games/{game.pk}/hands/", body, content_type=content_type, headers=JSON
    )
    assert response.status_code in (400, 422), response.content[:300]
    _check_answer(response, before)
    if response.status_code == 422:
        assert "idempotency_key" in json.loads(response.content)["errors"]
