"""Hostile values to every form field, query parameter and JSON key of every view.

The views come from the URL patterns (a new view is swept without editing this file); the field
names from three places, so that a new field is swept too: the forms the page itself shows (its
`<input>`, `<select>`, `<textarea>` and `<button>` names, with their values as a valid base),
every Django form class of the project, and every name the project's code reads from request
data (`.get("name")`, `_text(data, "name")`, `f"seat_{seat}"`...). Hypothesis then replaces
some of them by hostile values: Unicode digits, 5,000-digit numbers, numbers beyond a database
integer, control, zero-width and bidi characters, lone surrogates, formulas, very long text,
hostile rules overrides (JSON)...

No answer may be a 500 or show a traceback (the test client re-raises any exception a view
lets through), and a refusal (4xx) writes nothing. Runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from django import forms
from django.conf import settings
from django.test import Client
from django.urls import Resolver404, resolve
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leagues.clubs.models import Player, Season
from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, game_token_issue, hand_record
from tests.test_url_sweep import (  # noqa: F401 - `world` is a fixture used here
    CAPABILITY,
    OPEN,
    all_patterns,
    database_fingerprint,
    fill,
    path_args,
    world,
)

EXAMPLES = 8  # per view, on top of the worst values sent to every field one by one

HOSTILE = [
    "²",
    "٣",
    "𝟘",
    "１２",
    "9" * 5000,
    "-" + "9" * 5000,
    "0" * 5000 + "1",
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "-1",
    "0",
    "1e309",
    "NaN",
    "inf",
    "0x10",
    "1.5",
    "+3",
    " 7 ",
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfff",
    "\u202eevil",
    "zero\u200bwidth",
    "\ufeffbom",
    "line\nbreak",
    "tab\there",
    "quote\"name'",
    '=HYPERLINK("http://example.com","x")',
    "@SUM(1+1)",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "a" * 5000,
    "é" * 101,
    "true",
    "on",
    "null",
    "[]",
    "{}",
    '{"heart_bonus": 3000000000}',
    '{"max_bid": 1200000}',
    '{"target": 1, "min_bid": 1}',
    '{"seats": 99}',
    '{"target": "²"}',
    '{"preset": "standard", "target": 1e400}',
    '{"a": ' * 500 + "1" + "}" * 500,
    "2026-02-30",
    "0001-01-01",
    "9999-12-31",
    "99999-01-01",
    "00000000-0000-0000-0000-000000000000",
    "owner",
    "director",
    "csv",
    "xlsx",
]

hostile_value = st.one_of(
    st.sampled_from(HOSTILE),
    st.sampled_from(HOSTILE),
    st.text(max_size=40),  # anything at all, surrogates included below
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)

HEADERS = [
    {},
    {"HX-Request": "true"},
    {"Accept": "application/json"},
    {"HX-Request": "true", "HX-Target": "standings-table"},
]

# --- Field names --------------------------------------------------------------------------


def _project_form_names() -> set[str]:
    names: set[str] = set()
    todo = list(forms.BaseForm.__subclasses__())
    while todo:
        form = todo.pop()
        todo.extend(form.__subclasses__())
        if form.__module__.split(".")[0] in {"leagues", "scorecards", "kaiser_league"}:
            names.update(getattr(form, "base_fields", {}))
    return names


READ = [
    re.compile(r"""\.get(?:list)?\(\s*["']([A-Za-z_][\w-]*)["']"""),
    re.compile(r"""\(\s*(?:form,\s*)?data,\s*["']([A-Za-z_]\w*)["']"""),
    re.compile(r"""\bin\s+(?:data|request\.(?:POST|GET))\b.*?["']([A-Za-z_]\w*)["']"""),
]
READ_PREFIX = re.compile(r"""f["']([a-z_]+_)\{""")


def _source_names() -> set[str]:
    names: set[str] = set()
    for app in ("leagues", "scorecards", "kaiser_league"):
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            if "migrations" in path.parts or "rules" in path.parts:
                continue
            text = path.read_text()
            for pattern in READ:
                names.update(pattern.findall(text))
            for prefix in READ_PREFIX.findall(text):
                names.update(f"{prefix}{i}" for i in range(6))
    return names


class _Page(HTMLParser):
    """The forms of a page (where each posts, its named fields with the value the browser would
    send) and its links' query strings."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self.links: list[dict[str, str]] = []
        self._fields: dict[str, str] = {}
        self._action = ""
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {key: value or "" for key, value in attrs}
        name = a.get("name")
        if tag == "form":
            self._fields, self._action = {}, a.get("hx-post") or a.get("action") or ""
            self.forms.append((self._action, self._fields))
        elif tag == "a" and "?" in a.get("href", ""):
            self.links.append(dict(parse_qsl(a["href"].split("?", 1)[1])))
        elif tag in ("input", "textarea", "button") and name:
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self._fields.setdefault(name, "")
            else:
                self._fields.setdefault(name, a.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            self._fields.setdefault(name, "")
        elif (
            tag == "option"
            and self._select
            and (not self._fields.get(self._select) or "selected" in a)
        ):
            self._fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


# URL name -> the field sets of every form that targets it, and the query strings of links.
FORMS: dict[str, list[dict[str, str]]] = defaultdict(list)
LINKS: dict[str, list[dict[str, str]]] = defaultdict(list)


def _url_name(path: str) -> str | None:
    try:
        return resolve(urlsplit(path).path).url_name
    except Resolver404:
        return None


def site_map(objects: dict) -> None:
    """Read every page (as the director) once: which forms post where, with which fields."""
    if FORMS:
        return
    client = Client()
    client.force_login(objects["director"])
    for route, name in PATTERNS:
        if name in ("logout",):
            continue
        url = fill(route, path_args(objects, objects["director"]))
        response = client.get(url)
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        page = _Page()
        page.feed(response.content.decode())
        for action, fields in page.forms:
            fields.pop("csrfmiddlewaretoken", None)
            FORMS[_url_name(action) if action else name].append(fields)
        for query in page.links:
            LINKS[name].append(query)


def encode(data: dict[str, str]) -> str:
    """Form-encode as a browser would, except that lone surrogates go through as the bytes
    a broken client would send."""

    def one(text: str) -> str:
        return quote(text.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{one(key)}={one(value)}" for key, value in data.items())


# --- The sweep ----------------------------------------------------------------------------

PATTERNS = [
    (route, pattern.name) for route, pattern, namespace in all_patterns() if namespace != "admin:"
]
# After the URL patterns: they import every view, and so every form class.
GLOBAL_NAMES = sorted(
    (_project_form_names() | _source_names() | {"page", "sort", "_export", "next"})
    - {"csrfmiddlewaretoken"}
)


@pytest.fixture
def hostile_world(world) -> dict:  # noqa: F811 - the fixture of tests/test_url_sweep.py
    """The URL sweep's world, with the names old data (before names were checked) can hold:
    what exports and download names must survive."""
    Season.objects.filter(pk=world["season"].pk).update(name='Fall "26"\nÉté 李\u202e')
    Player.objects.filter(pk=world["player"].pk).update(name='=HYPERLINK("http://x","y")')
    # A game still being played (with its first hand), so that the hand views go past "over".
    club = world["club"]
    game = game_start(
        seats=list(club.players.order_by("pk")[:4]),
        rules=rules_build({"preset": "standard"}),
        club=club,
        season=world["season"],
        created_by=world["director"],
    )
    hand_record(game=game, hand=HandInput(**json.loads(VALID_HAND_INPUT)))
    game_token_issue(game=game)
    # A hand at a table of the night too: its delete button is then refused, and the night
    # every example needs stays (as the game above, with a hand, is never deleted).
    hand_record(game=world["table"].game, hand=HandInput(**json.loads(VALID_HAND_INPUT)))
    return {**world, "game": game}


VALID_HAND_INPUT = (
    '{"bidder": 0, "bid": 8, "kind": "trump", "tricks": [6, 2], '
    '"five_hearts": 0, "three_spades": 1}'
)
VALID_HAND = {
    "bidder": "1",
    "bid": "8",
    "kind": "trump",
    "tricks_bidder": "6",
    "five_hearts": "1",
    "three_spades": "0",
    "entered_as": "1",
}
SEATS = {"seat_0": "Ann", "seat_1": "Bob", "seat_2": "Cat", "seat_3": "Dan", "rules": "standard"}
# Known-good requests of the views whose forms are hard to fill at random, so that a hostile
# value can replace one field of an otherwise valid request (any other view is swept from the
# forms and links found on the pages).
VALID = {
    "hand_submit": lambda o: {**VALID_HAND, "idempotency_key": str(uuid.uuid4())},
    "hand_preview": lambda o: VALID_HAND,
    "hand_detail": lambda o: {**VALID_HAND, "bidder": "0", "reason": "typo"},
    "hand_confirm": lambda o: {"seat": "1"},
    "club_game_new": lambda o: {**SEATS, "start": "1", "first_dealer": "2", "table_label": "T1"},
    "quick_game_new": lambda o: {**SEATS, "start": "1", "move": "1"},
    "tournament_list": lambda o: {
        "name": "Night",
        "date": "2026-11-27",
        "format": "rotating",
        "rounds": "3",
        "round_end": "hands",
        "hands_per_round": "10",
        "preset": "standard",
        "sitout_score": "fixed",
        "sitout_points": "5",
        "season": str(o["season"].pk),
    },
    "tournament_entry_add": lambda o: {"name": "Walk-in", "checked_in": "on"},
    "tournament_draw": lambda o: {"confirm": "1", "number": "2"},
    "club_players": lambda o: {"name": "New player"},
    "player_edit": lambda o: {"name": "Renamed", "user": ""},
    "club_seasons": lambda o: {"name": "Next", "starts_on": "2027-01-01", "preset": "standard"},
    "club_settings": lambda o: {"name": "Renamed club", "standings_public": "on"},
    "club_create": lambda o: {"name": "Another club"},
    "signup": lambda o: {
        "username": "newcomer",
        "email": "n@example.com",
        "password1": "Kaiser-night-2026!",
        "password2": "Kaiser-night-2026!",
    },
    "standings": lambda o: {"season": str(o["season"].pk), "min_games": "1", "_export": "csv"},
    "standings_partnerships": lambda o: {"season": str(o["season"].pk), "_export": "xlsx"},
    "ratings": lambda o: {"_export": "xlsx", "page": "1", "sort": "-ordinal"},
}


def _client(objects: dict, who: str) -> Client:
    client = Client()
    if who == "director":
        client.force_login(objects["director"])
    return client


@pytest.mark.parametrize(("route", "name"), PATTERNS, ids=[name for _r, name in PATTERNS])
@hypothesis_settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_values_never_break_a_view(hostile_world, route, name, data) -> None:
    objects = hostile_world
    site_map(objects)
    open_url = name in OPEN | CAPABILITY
    who = data.draw(st.sampled_from(["director", "anonymous"] if open_url else ["director"]))
    url = fill(route, path_args(objects, objects["director"]))
    client = _client(objects, who)
    method = data.draw(st.sampled_from(["get", "post"]), label="method")
    # A valid base to break one field of (what the page's own form or link sends), or nothing.
    valid = [VALID[name](objects)] if name in VALID else []
    bases = valid + FORMS[name] + LINKS[name]
    base = data.draw(st.sampled_from([*valid, {}, *bases]), label="base")
    own = sorted({key for fields in bases for key in fields})
    keys = st.sampled_from(GLOBAL_NAMES)
    if own:
        keys = st.one_of(st.sampled_from(own), st.sampled_from(own), keys)
    hostile = data.draw(
        st.dictionaries(keys, hostile_value, min_size=1, max_size=3), label="hostile"
    )
    if name not in _WORST_DONE:
        worst_values_to_every_field(objects, name, url, bases)
    sent = {**base} | hostile
    headers = data.draw(st.sampled_from(HEADERS), label="headers")
    send_and_check(client, method, url, sent, headers)


def send_and_check(client: Client, method: str, url: str, sent: dict, headers: dict) -> int:
    """Send `sent` by `method`; no 500, no traceback, and nothing written on a refusal."""
    before = database_fingerprint()
    if method == "get":
        response = client.get(f"{url}?{encode(sent)}", headers=headers)
    else:
        response = client.post(
            url, encode(sent), content_type="application/x-www-form-urlencoded", headers=headers
        )
    status = response.status_code
    assert status < 500, (method, url, sent, status)
    body = b"" if getattr(response, "streaming", False) else response.content
    assert b"Traceback" not in body, (method, url, sent)
    if 400 <= status < 500:
        assert database_fingerprint() == before, ("partial write", method, url, sent, status)
    return status


# The worst values, sent to every field the view's forms and links have, one field at a time
# (on the first example of each view), before hypothesis mixes hostile values at random.
WORST = ["²", "9" * 5000, "3000000000", "x\ud800\u202e"]
_WORST_DONE: set[str] = set()


def worst_values_to_every_field(objects: dict, name: str, url: str, bases: list[dict]) -> None:
    base = bases[0] if bases else {}
    fields = sorted({key for fields in bases for key in fields}) or ["page", "name"]
    users = ["director", "anonymous"] if name in OPEN | CAPABILITY else ["director"]
    for user in users:
        client = _client(objects, user)
        for method in ("post", "get"):
            for field in fields:
                for value in WORST:
                    status = send_and_check(client, method, url, {**base, field: value}, {})
                    if status == 405:
                        break  # the view does not take this method at all
                else:
                    continue
                break
    _WORST_DONE.add(name)


def test_the_sweep_knows_the_fields_of_the_forms():
    """The name discovery finds fields of each kind of source (page, form class, code)."""
    for expected in (
        "entered_as",
        "seat",
        "first_dealer",
        "move",
        "number",
        "sitout_points",
        "seat_0",
        "overrides",
        "min_games",
        "name",
        "username",
    ):
        assert expected in GLOBAL_NAMES, expected
    assert len(PATTERNS) >= 50
