"""The layout shows the design: no import circle anywhere, no oversized module in tables/, the
rooms a newcomer looks for (the write side, the live side, the cache) where they guess, each room
importing only the rooms below it, and no private name imported from another module; and in the
tests, no test module taking a helper from another test module (helpers live in helper modules)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tables", "engine", "config")
MAX_LINES = 500
# Generated data, not code a person reads: the preflop tables, migrations.
DATA = ("engine/bots/preflop_data.py",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def sources() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every project module ``name`` imports, at the top or inside a function (a lazy import
    that closes a circle is still a circle)."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` imports the module; ``from module import name``
            # the module.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            # The module itself, or the nearest package that is one of ours.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = sources()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_tables_engine_or_config_imports_itself_through_others() -> None:
    assert circles(graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_package_importing_a_name_of_its_own_module_is_no_circle() -> None:
    # tables.cache re-exports from its modules: an edge from the package to them only.
    edges = graph()
    assert "tables.cache.versions" in edges["tables.cache"]
    assert "tables.cache" not in edges["tables.cache.versions"]


def test_no_module_is_longer_than_a_newcomer_can_read() -> None:
    """tables/, engine/ and config/ alike (migrations and generated data apart)."""
    long = {
        name: lines
        for name, path in sources().items()
        if str(path.relative_to(ROOT)) not in DATA
        and (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_rooms_are_where_a_newcomer_looks_for_them() -> None:
    where = {
        "a player raises": "tables/write/play.py",
        "the one write path": "tables/write/path.py",
        "a spectator connects": "tables/live/consumer.py",
        "what a spectator sees": "tables/live/frames.py",
        "a deadline fires": "tables/clock.py",
        "an admin closes a table": "tables/write/moderation.py",
        "a hand is exported as PHH": "tables/pages/history.py",
        "what is cached": "tables/cache/__init__.py",
        "a tournament moves a player to another table": "tables/write/tournament_between_hands.py",
        "a group is renamed": "tables/write/groups.py",
        "a tournament's page": "tables/pages/tournament.py",
        "a group's season page": "tables/pages/season.py",
        "the chip graph": "tables/draw/chip_graph.py",
        "a tournament's rows": "tables/models/tournament.py",
        "a new websocket message": "tables/live/protocol.py",
        "the table's seat styles": "static/css/table.css",
    }
    for feature, file in where.items():
        assert (ROOT / file).is_file(), feature
    assert "def act(" in (ROOT / "tables/write/play.py").read_text()
    assert "def close_table(" in (ROOT / "tables/write/moderation.py").read_text()
    assert "def tick(" in (ROOT / "tables/clock.py").read_text()
    assert "phh" in (ROOT / "tables/pages/history.py").read_text()
    assert "def rename(" in (ROOT / "tables/write/groups.py").read_text()
    assert "def move(" in (ROOT / "tables/write/tournament_between_hands.py").read_text()
    assert "def parse(" in (ROOT / "tables/live/protocol.py").read_text()
    assert "\n.seat {" in (ROOT / "static/css/table.css").read_text()


def test_only_the_cache_reaches_into_the_cache() -> None:
    """The rest of the code uses ``tables.cache``'s interface, never its modules."""
    offenders = sorted(
        f"{name} -> {target}"
        for name, targets in graph().items()
        if not name.startswith("tables.cache")
        for target in targets
        if target.startswith("tables.cache.")
    )
    assert offenders == []


def test_every_module_of_tables_opens_by_saying_what_it_is_for() -> None:
    missing = sorted(
        name
        for name, path in sources().items()
        if name.startswith("tables")
        and path.read_text().strip()
        and ast.get_docstring(ast.parse(path.read_text())) is None
    )
    assert missing == []


# The rooms of tables/, from the ground up, and the rooms each may import (besides itself,
# engine/ and config/). A room is a package of tables/ or one of the small shared modules.
SHARED = (
    "action_log", "bot_names", "claims", "codes", "commitments", "lookups", "metrics", "ratelimit",
)
BELOW: dict[str, set[str]] = {
    "models": set(),
    "cache": {"models"},
    "shared": {"models", "cache"},
    "read": {"models", "cache", "shared"},
    "draw": {"models", "cache", "shared", "read"},
    "write": {"models", "cache", "shared", "read"},
    "clock": {"models", "cache", "shared", "read", "write"},
    "live": {"models", "cache", "shared", "read", "draw", "write"},
    "pages": {"models", "cache", "shared", "read", "draw", "write", "live"},
    "admin": {"models", "cache", "shared", "read", "draw", "write"},
    "templatetags": {"models", "cache", "shared", "read", "draw", "write", "live"},
    "management": {"models", "cache", "shared", "read", "write", "clock"},
}


def room_of(module: str) -> str | None:
    """The room of a module of tables/ (None outside tables/, and for the app's own files)."""
    parts = module.split(".")
    if parts[0] != "tables" or len(parts) == 1 or parts[1] in ("apps", "migrations"):
        return None
    if parts[1] in SHARED:
        return "shared"
    if parts[1] == "computer":  # the computer players' decisions, asked by the clock
        return "clock"
    return parts[1]


def test_every_module_of_tables_is_in_a_room() -> None:
    lost = sorted(
        name for name in sources()
        if name.startswith("tables.") and (room := room_of(name)) is not None
        and room not in BELOW
    )
    assert lost == []


def test_each_room_imports_only_the_rooms_below_it() -> None:
    against = sorted(
        f"{name} -> {target}"
        for name, targets in graph().items()
        if (room := room_of(name)) is not None
        for target in targets
        if (other := room_of(target)) is not None
        and other != room
        and other not in BELOW[room]
    )
    assert against == []


def test_the_rooms_rule_finds_an_import_against_the_rooms() -> None:
    assert room_of("tables.write.path") == "write"
    assert room_of("tables.codes") == "shared"
    assert "pages" not in BELOW["write"] and "live" not in BELOW["read"]


def private_imports() -> list[str]:
    """``from module import _name`` of a module of tables/, engine/ or config/ from another."""
    found = []
    for name, path in sources().items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in PACKAGES:
                found += [
                    f"{name}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    return sorted(found)


def test_no_private_name_is_imported_from_another_module() -> None:
    assert private_imports() == []


def is_test_module(dotted: str) -> bool:
    return dotted.startswith("tests.") and dotted.rsplit(".", 1)[-1].startswith("test_")


def borrowed_from_test_modules(files: dict[str, str] | None = None) -> list[str]:
    """Each name a test module (``test_*.py``) takes from another test module, but a test:
    a module may name another's tests to run them again (on PostgreSQL, say), never take its
    helpers, which belong in a helper module (tests/helpers/, tests/tables/helpers/...).
    ``files``: dotted name to source (default: every test module of tests/)."""
    if files is None:
        files = {
            module_name(path): path.read_text()
            for path in sorted((ROOT / "tests").rglob("test_*.py"))
        }
    found = []
    for name, text in files.items():
        tree = ast.parse(text)
        aliases: dict[str, str] = {}  # a test module imported whole, by the name it is used as
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    if is_test_module(whole):
                        aliases[alias.asname or alias.name] = whole
                    elif is_test_module(node.module) and not alias.name.startswith("test_"):
                        found.append(f"{name}: {node.module}.{alias.name}")
            elif isinstance(node, ast.Import):
                found += [f"{name}: {a.name}" for a in node.names if is_test_module(a.name)]
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and not node.attr.startswith("test_")
            ):
                found.append(f"{name}: {aliases[node.value.id]}.{node.attr}")
    return sorted(found)


def test_no_test_module_takes_a_helper_from_another_test_module() -> None:
    assert borrowed_from_test_modules() == []


def test_the_test_module_rule_finds_a_borrowed_helper() -> None:
    files = {
        "tests.a.test_one": "from tests.b.test_two import started, test_it_plays\n",
        "tests.a.test_three": "from tests.b import test_two\nx = test_two.page_text\n"
                              "y = test_two.test_it_plays\n",
        "tests.a.test_four": "from tests.b.helpers import started\n",
    }
    assert borrowed_from_test_modules(files) == [
        "tests.a.test_one: tests.b.test_two.started",
        "tests.a.test_three: tests.b.test_two.page_text",
    ]
