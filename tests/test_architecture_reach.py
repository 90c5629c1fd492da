"""The arrows that are not imports (CONTRIBUTING.md, "Map"): what a room reads through the ORM,
and what its templates link to and walk through.

A module reads only its own room's tables and those of rooms below, like its imports
(tests/test_architecture.py). Django lets a module reach a higher room's tables without
importing it, so the test reads:

- ORM paths: the keywords of `filter`, `exclude`, `get`, `Q`... and the strings of `values`,
  `order_by`, `select_related`, `prefetch_related`, `F`, `Max`, `Prefetch`... (`seats__game`,
  `"standings"`); each `__` segment is followed from model to model.
- Relation attributes in Python (`club.games`, `season.standings`).
- Templates: every dotted variable in `{{ }}` and `{% %}` (`season.standings.computed_at`),
  every `{% url 'name' %}` (the room of a url name is the room of its view), and every
  `{% include %}` / `{% extends %}`.

A path starts at a model of a room the module may see (a query of any other model is already an
upward import or an upward path) and is followed segment by segment through the models'
relations as Django declares them (`_meta`), so a name is checked against what it really reaches.

A template belongs to the room of the module that renders it (the test finds its name in the
source: `render(request, "leagues/standings.html", ...)`); one rendered by several rooms, by
Django alone or only included belongs to the room TEMPLATE_ROOMS gives its folder, and every
module that names it must be able to see that room. The frame every page extends or includes
(`base.html`, the club's navigation) is the assembly's: any page may use it, and it links
anywhere.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from django.apps import apps
from django.db import models
from django.db.models import ForeignObjectRel
from django.urls import URLPattern, URLResolver, get_resolver

from tests.test_architecture import MODULES, ROOT, room_of

TEMPLATES = ROOT / "templates"

# Not the project's: Django's own apps and views (auth, admin, i18n). Every room may see them.
OUTSIDE = ("outside", -1)

# The room of a template no project module renders (Django's own views render the error and
# registration pages) or that is only included, by its path under templates/ (the longest
# matching prefix wins). A template a module renders belongs to that module's room, unless
# named here in full.
TEMPLATE_ROOMS: dict[str, str] = {
    "": "assembly",  # the error pages Django renders (400, 403, 404, 500): they link home
    "base.html": "assembly",  # the frame: every page extends it
    "sw.js": "kaiser_league",  # the service worker (its url path is the same string)
    "_error_page.html": "assembly",  # the error pages' frame (it links home)
    "registration/": "leagues.clubs",  # accounts: login and password reset (Django's views)
    "leagues/": "leagues.clubs",  # fragments of the club pages (`_form_fields.html`)
    "leagues/_club_nav.html": "assembly",  # the club's navigation: it lists every room's pages
    "scorecards/": "scorecards",
    "tournaments/": "leagues.tournaments",
}
# Templates any page may extend or include whatever its room: the frame, which is where the
# rooms' pages are put together (the assembly's own).
FRAME = frozenset({"base.html", "_error_page.html", "leagues/_club_nav.html"})

QUERY_KEYWORDS = frozenset(
    {"filter", "exclude", "get", "get_or_create", "update_or_create", "Q", "FilteredRelation"}
)
QUERY_STRINGS = frozenset(
    {
        "values",
        "values_list",
        "order_by",
        "select_related",
        "prefetch_related",
        "only",
        "defer",
        "distinct",
        "F",
        "OuterRef",
        "Count",
        "Sum",
        "Max",
        "Min",
        "Avg",
        "Prefetch",
        "FilteredRelation",
    }
)


@dataclass(frozen=True)
class Reach:
    path: str  # file, relative to the repository
    line: int
    room: str  # the room of the file
    what: str  # what was read: the ORM path, the variable, the url name, the template

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}, from {self.room}"


def _room(name: str) -> tuple[str, int]:
    for room, layer, _prefixes in _rooms():
        if room == name:
            return room, layer
    raise AssertionError(f"no room {name}")


@cache
def _rooms() -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    from tests.test_architecture import ROOMS

    return ROOMS


def may_see(room: str, target: tuple[str, int]) -> bool:
    """A room sees itself and the rooms on lower layers (and what is not the project's)."""
    return target[0] == room or target[1] < _room(room)[1]


def model_room(model: type[models.Model]) -> tuple[str, int]:
    module = model.__module__
    if not any(module == p or module.startswith(p + ".") for p in ("leagues", "scorecards")):
        return OUTSIDE
    return room_of(module)


@dataclass(frozen=True)
class Relation:
    source: type[models.Model]
    name: str
    target: type[models.Model]


@cache
def relations(kind: str) -> dict[str, tuple[Relation, ...]]:
    """Every relation of every model by name: `kind` "query" for the names of ORM paths
    (`related_query_name`), "attribute" for the names on an instance (`seats`, `game_set`)."""
    found: dict[str, list[Relation]] = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            target = field.related_model
            if not field.is_relation or not isinstance(target, type):
                continue
            if isinstance(field, ForeignObjectRel):  # the reverse side of a relation
                name = field.name if kind == "query" else field.get_accessor_name()
                if field.hidden or not name:  # related_name="+": no way back
                    continue
            else:
                name = field.name
            found.setdefault(name, []).append(Relation(model, name, target))
    return {name: tuple(rels) for name, rels in found.items()}


def path_reach(room: str, segments: list[str], kind: str) -> str | None:
    """How `segments` reach a room `room` may not see (`Season.standings -> StandingsSnapshot`),
    or None. The first segment starts at any model `room` sees; the next ones follow the
    models reached; a segment that is no relation (a field, a lookup) ends the path."""
    table = relations(kind)
    starts = [r for r in table.get(segments[0], ()) if may_see(room, model_room(r.source))]
    frontier = [(r, [r]) for r in starts]
    while frontier:
        relation, walked = frontier.pop()
        if not may_see(room, model_room(relation.target)):
            return " -> ".join(
                f"{r.source.__name__}.{r.name} ({model_room(r.target)[0]})" for r in walked
            )
        if len(walked) < len(segments):
            following = segments[len(walked)]
            frontier += [
                (r, [*walked, r]) for r in table.get(following, ()) if r.source is relation.target
            ]
    return None


# --- Python: ORM paths and relation attributes -------------------------------------------------


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def python_reach(room: str, rel: str, source: str) -> Iterator[Reach]:
    """Every ORM path and relation attribute in `source` that reaches above `room`."""
    for node in ast.walk(ast.parse(source)):
        paths: list[tuple[str, int, str]] = []  # (path, line, kind)
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in QUERY_KEYWORDS:
                paths += [(k.arg, node.lineno, "query") for k in node.keywords if k.arg]
            if name in QUERY_STRINGS:
                paths += [
                    (arg.value.lstrip("-"), node.lineno, "query")
                    for arg in node.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ]
        elif isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
            paths.append((node.attr, node.lineno, "attribute"))
        for path, line, kind in paths:
            segments = path.split("__") if kind == "query" else [path]
            if segments[0] in relations(kind) and (how := path_reach(room, segments, kind)):
                yield Reach(rel, line, room, f"{path!r} reads {how}")


def test_python_orm_paths_stay_in_reach() -> None:
    wrong = [
        str(reach)
        for module, path in MODULES.items()
        for reach in python_reach(
            room_of(module)[0], str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
        )
    ]
    assert not wrong, "\n".join(wrong)


# --- Templates ---------------------------------------------------------------------------------

TAG = re.compile(r"{{(.*?)}}|{%(.*?)%}", re.S)
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.\w+)+)")
URL = re.compile(r"^\s*url\s+[\"']([\w:-]+)[\"']")
INCLUDE = re.compile(r"^\s*(?:include|extends)\s+[\"']([^\"']+)[\"']")


def template_room(name: str) -> str:
    renderers = template_renderers().get(name, set())
    if len(renderers) == 1 and name not in TEMPLATE_ROOMS:
        return next(iter(renderers))
    best = max((p for p in TEMPLATE_ROOMS if name.startswith(p)), key=len)
    return TEMPLATE_ROOMS[best]


@cache
def template_names_in_code() -> tuple[tuple[str, str, int, str], ...]:
    """(module, file, line, template) for every string of the code that names a template
    (`"scorecards/game_sheet.html#table"` names `scorecards/game_sheet.html`)."""
    names = set(template_names())
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                name = node.value.partition("#")[0]
                if name in names:
                    found.append((module, str(path.relative_to(ROOT)), node.lineno, name))
    return tuple(found)


@cache
def template_renderers() -> dict[str, set[str]]:
    rooms: dict[str, set[str]] = {}
    for module, _path, _line, name in template_names_in_code():
        rooms.setdefault(name, set()).add(room_of(module)[0])
    return rooms


def template_names() -> list[str]:
    return sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.is_file())


@cache
def url_rooms() -> dict[str, tuple[str, int]]:
    """Each url name's room: the room of the module of its view."""
    found: dict[str, tuple[str, int]] = {}

    def walk(patterns: Iterable[URLPattern | URLResolver]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif pattern.name:
                view = getattr(pattern.callback, "view_class", pattern.callback)
                module = view.__module__
                project = module.split(".")[0] in ("leagues", "scorecards", "kaiser_league")
                found[pattern.name] = room_of(module) if project else OUTSIDE

    walk(get_resolver().url_patterns)
    return found


def template_reach(room: str, rel: str, text: str) -> Iterator[Reach]:
    """Every link, include and relation walk in a template of `room` that reaches above it."""
    for match in TAG.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        body = match.group(1) or match.group(2)
        if url := URL.match(body):
            target = url_rooms().get(url.group(1))
            if target is None:
                yield Reach(rel, line, room, f"url {url.group(1)!r} names no page")
            elif not may_see(room, target):
                yield Reach(rel, line, room, f"url {url.group(1)!r} links to {target[0]}")
        if (included := INCLUDE.match(body)) and included.group(1) not in FRAME:
            other = template_room(included.group(1))
            if not may_see(room, _room(other)):
                yield Reach(rel, line, room, f"{included.group(1)} is {other}'s")
        for variable in DOTTED.findall(QUOTED.sub("", body)):
            segments = variable.split(".")[1:]  # the first is a name of the context
            for start in range(len(segments)):
                if how := path_reach(room, segments[start:], "attribute"):
                    yield Reach(rel, line, room, f"{variable} reads {how}")
                    break


def test_every_template_has_a_room_its_renderers_see() -> None:
    wrong = [
        f"{path}:{line}: {module} ({room_of(module)[0]}) names {name}, which belongs to "
        f"{template_room(name)}: give its folder a room in TEMPLATE_ROOMS that all see"
        for module, path, line, name in template_names_in_code()
        if not may_see(room_of(module)[0], _room(template_room(name)))
    ]
    assert not wrong, "\n".join(wrong)


def test_templates_stay_in_reach() -> None:
    wrong = [
        str(reach)
        for name in template_names()
        for reach in template_reach(
            template_room(name),
            f"templates/{name}",
            (TEMPLATES / name).read_text(encoding="utf-8"),
        )
    ]
    assert not wrong, "\n".join(wrong)


# --- The checks can fail -----------------------------------------------------------------------


def test_the_reach_checks_find_a_bad_example() -> None:
    # The reads this test was written for, as clubs code and a clubs template would make them.
    bad_python = (
        "def f(club, season):\n"
        "    club.players.annotate(last=Max('seats__game__created_at'))\n"
        "    Season.objects.select_related('standings')\n"
        "    return club.games.filter(status='in_progress'), season.standings\n"
    )
    found = sorted(str(r) for r in python_reach("leagues.clubs", "x.py", bad_python))
    assert found == [
        "x.py:2: 'seats__game__created_at' reads Player.seats (scorecards), from leagues.clubs",
        "x.py:3: 'standings' reads Season.standings (leagues.standings), from leagues.clubs",
        "x.py:4: 'games' reads Season.games (scorecards), from leagues.clubs",
        "x.py:4: 'standings' reads Season.standings (leagues.standings), from leagues.clubs",
    ]
    bad_template = (
        "{% load i18n %}\n"
        "{{ season.standings.computed_at|date:'SHORT_DATE_FORMAT' }}\n"
        "<a href=\"{% url 'standings' club.slug %}\">x</a>\n"
        "{% include 'tournaments/_standings_table.html' %}{% include 'base.html' %}\n"
    )
    assert [str(r) for r in template_reach("leagues.clubs", "t.html", bad_template)] == [
        "t.html:2: season.standings.computed_at reads Season.standings (leagues.standings), "
        "from leagues.clubs",
        "t.html:3: url 'standings' links to leagues.standings, from leagues.clubs",
        "t.html:4: tournaments/_standings_table.html is leagues.tournaments's, from leagues.clubs",
    ]
    # The same reads are in reach of the rooms above, and a plain field is no relation.
    assert not list(python_reach("leagues.standings", "x.py", bad_python))
    assert not list(template_reach("assembly", "t.html", bad_template))
    assert not list(python_reach("leagues.clubs", "x.py", "Player.objects.filter(club__name='a')"))
