"""The rooms of the codebase and the way their arrows point (CONTRIBUTING.md, "Map").

Every project module (not migrations, not tests) belongs to one room; a room sits on a layer. A
module may import its own room and any room on a lower layer, never a room on its own layer or
above: `leagues.standings` and `leagues.tournaments` share a layer and do not import each other.
The imports are read from the source (module level and inside functions, `import x` and
`from x import y`, relative ones resolved), so an import hidden in a function to dodge a cycle
counts like any other, and the imports between files, wherever they sit, form no cycle.

Imports are not the only arrows (tests/test_architecture_reach.py): an ORM path (`seats__game`,
`select_related("standings")`, `club.games`) reads a higher room's tables without importing it,
and a template links to pages and walks relations. That file reads those too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kaiser_league", "scorecards", "leagues", "bench", "tools")
MAX_LINES = 400

# (room, layer, module prefixes), lowest layer first. A module belongs to the room of its
# longest matching prefix.
ROOMS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("kaiser_league", 0, ("kaiser_league",)),
    # The rules engine, with its model-free Django face for pot amounts. The rules form reads
    # its numbers through kaiser_league.inputs, so it is scorecards' (the rooms above use it).
    ("rules engine", 0, ("scorecards.rules", "scorecards.pot")),
    ("leagues.clubs", 1, ("leagues.clubs",)),
    ("scorecards", 2, ("scorecards",)),
    ("leagues.standings", 3, ("leagues.standings",)),
    ("leagues.tournaments", 3, ("leagues.tournaments",)),
    (
        "assembly",
        4,
        (
            "kaiser_league.urls",
            "leagues",  # the package itself and what no room claims: apps, admin
            "leagues.apps",
            "leagues.admin",
            "leagues.backup",
            "leagues.demo",
            "leagues.views",
            "leagues.urls",
            "leagues.templatetags",
            "leagues.management",
            "scorecards.management",
            "tools",
            "bench",
        ),
    ),
)


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the project module imported
    path: str  # the importing file, relative to the repository
    line: int
    module_level: bool
    runs: bool = True  # False under `if TYPE_CHECKING:`: read by the type checker alone


def _project_files() -> dict[str, Path]:
    """Every project module by dotted name (package `__init__` under the package's name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or "tests" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _project_files()


def _resolve(name: str) -> str | None:
    """The project module `name` refers to: itself, or the nearest project package holding it
    (`from x import y` with `y` a name, not a module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    rel = str(path.relative_to(ROOT))
    out: list[Import] = []

    def add(target: str | None, node: ast.stmt, module_level: bool, runs: bool) -> None:
        if target is not None and target != module:
            out.append(Import(module, target, rel, node.lineno, module_level, runs))

    def visit(node: ast.AST, module_level: bool, runs: bool) -> None:
        for child in ast.iter_child_nodes(node):
            level, running = module_level, runs
            # Run only when called (functions) or never (type checking): no module-level arrow.
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                level = False
            elif isinstance(child, ast.If) and _is_type_checking(child):
                level = running = False
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(_resolve(alias.name), child, level, running)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    origin = ".".join([*base, child.module] if child.module else base)
                else:
                    origin = child.module or ""
                for alias in child.names:
                    add(
                        _resolve(f"{origin}.{alias.name}") or _resolve(origin),
                        child,
                        level,
                        running,
                    )
            visit(child, level, running)

    visit(tree, True, True)
    return out


IMPORTS = [imp for module, path in MODULES.items() for imp in _imports_of(module, path)]


def room_of(module: str) -> tuple[str, int]:
    best: tuple[int, str, int] | None = None
    for room, layer, prefixes in ROOMS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[0]
            ):
                best = (len(prefix), room, layer)
    assert best is not None, f"{module} belongs to no room: add it to ROOMS"
    return best[1], best[2]


def _upward(imp: Import) -> bool:
    room, layer = room_of(imp.module)
    target_room, target_layer = room_of(imp.target)
    return target_room != room and target_layer >= layer


def test_every_module_belongs_to_a_room() -> None:
    for module in MODULES:
        room_of(module)


def test_the_rooms_are_seen() -> None:
    # The walk must find the rooms and their imports, or every other test here passes vacuously.
    rooms = {room_of(module)[0] for module in MODULES}
    assert rooms == {room for room, _layer, _prefixes in ROOMS}
    assert any(
        i.module == "leagues.tournaments.views" and i.target == "leagues.clubs.access"
        for i in IMPORTS
    )
    assert any(not i.module_level for i in IMPORTS)  # imports inside functions are read


def test_no_module_imports_from_a_room_above_it() -> None:
    wrong = [
        f"{imp.path}:{imp.line}: {imp.module} ({room_of(imp.module)[0]}) imports {imp.target} "
        f"({room_of(imp.target)[0]}), a room on its layer or above"
        for imp in IMPORTS
        if _upward(imp)
    ]
    assert not wrong, "\n".join(wrong)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def cycle_messages(imports: list[Import]) -> list[str]:
    """One message per cycle between files, naming each import of it (file:line). Imports inside
    functions count: deferring an import to call time hides a cycle from Python, not from the
    reader, and the two files still cannot be understood apart. Imports under TYPE_CHECKING do
    not (they never run and annotations are strings)."""
    edges: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    for imp in imports:
        edges.setdefault(imp.target, set())
        if imp.runs:
            edges.setdefault(imp.module, set()).add(imp.target)
            where.setdefault((imp.module, imp.target), f"{imp.path}:{imp.line}")
    messages = []
    for component in _cycles(edges):
        members = set(component)
        lines = [
            f"  {where[(a, b)]}: {a} imports {b}"
            for a in component
            for b in sorted(edges[a] & members)
        ]
        messages.append("cycle between " + ", ".join(component) + "\n" + "\n".join(lines))
    return messages


def test_a_cycle_through_an_import_inside_a_function_is_found() -> None:
    # Two files of one room, each importing the other from inside a function.
    services = Import("r.services", "r.tasks", "r/services.py", 69, module_level=False)
    tasks = Import("r.tasks", "r.services", "r/tasks.py", 12, module_level=False)
    assert cycle_messages([services, tasks]) == [
        "cycle between r.services, r.tasks\n"
        "  r/services.py:69: r.services imports r.tasks\n"
        "  r/tasks.py:12: r.tasks imports r.services"
    ]
    hint = Import("r.tasks", "r.services", "r/tasks.py", 3, module_level=False, runs=False)
    assert cycle_messages([services, hint]) == []


def test_no_cycle_between_files() -> None:
    messages = cycle_messages(IMPORTS)
    assert not messages, "\n".join(messages)


def _line_counts() -> dict[str, int]:
    return {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in MODULES.values()
    }


def test_no_module_is_over_the_line_limit() -> None:
    long = [
        f"{path}: {count} lines (at most {MAX_LINES})"
        for path, count in sorted(_line_counts().items())
        if count > MAX_LINES
    ]
    assert not long, "\n".join(long)
