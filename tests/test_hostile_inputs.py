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

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from django import forms
from django.conf import settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.test_url_sweep import (  # noqa: F401 - `world` is a fixture used here
    CAPABILITY,
    OPEN,
    all_patterns,
    database_fingerprint,
    fill,
    path_args,
    world,
)

EXAMPLES = 15  # per view: about 800 requests in all, about half a minute on SQLite

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
]

hostile_value = st.one_of(
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


class _Fields(HTMLParser):
    """The named fields of a page with a valid value each (what the browser would send)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag in ("input", "textarea", "button") and name:
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self.values.setdefault(name, "")
                return
            self.values.setdefault(name, a.get("value") or "")
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, "")
        elif (
            tag == "option"
            and self._select
            and (not self.values.get(self._select) or "selected" in a)
        ):
            self.values[self._select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


_PAGE_FIELDS: dict[str, dict[str, str]] = {}


def page_fields(client: Client, url: str) -> dict[str, str]:
    if url not in _PAGE_FIELDS:
        response = client.get(url)
        parser = _Fields()
        if response.get("Content-Type", "").startswith("text/html"):
            parser.feed(response.content.decode())
        parser.values.pop("csrfmiddlewaretoken", None)
        _PAGE_FIELDS[url] = parser.values
    return _PAGE_FIELDS[url]


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
def test_hostile_values_never_break_a_view(world, route, name, data) -> None:  # noqa: F811
    open_url = name in OPEN | CAPABILITY
    who = data.draw(st.sampled_from(["director", "anonymous"] if open_url else ["director"]))
    url = fill(route, path_args(world, world["director"]))
    client = _client(world, who)
    base = page_fields(_client(world, "director"), url)
    names = sorted(base) + [n for n in GLOBAL_NAMES if n not in base]
    hostile = data.draw(
        st.dictionaries(st.sampled_from(names), hostile_value, min_size=1, max_size=6),
        label="hostile",
    )
    method = data.draw(st.sampled_from(["get", "post"]), label="method")
    keep_base = data.draw(st.booleans(), label="keep the page's valid values")
    sent = ({**base} if keep_base else {}) | hostile
    headers = data.draw(st.sampled_from(HEADERS), label="headers")
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
