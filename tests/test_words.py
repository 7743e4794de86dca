"""Words that tell the truth: what a docstring, a comment or a template header names exists, a
package's docstring names each of its modules, and the history of the work (issue numbers)
stays in git, not in the product."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The product: code, templates, front end, scripts and the deployment. tests/, benchmarks/, the
# READMEs and docs may tell history; they are not scanned for issue numbers.
PRODUCT = (
    "tables", "engine", "config", "templates", "static/js", "static/css", "scripts", "deploy"
)
SUFFIXES = {".py", ".html", ".js", ".css", ".sh", ".conf", ".service", ".timer", ".target"}
PRODUCT_FILES = ("manage.py", "pyproject.toml", "deploy/env.example")
# The tests and benchmarks may tell history, but what they name must exist too.
ALSO_NAMED = ("tests", "benchmarks")

# Files another engineer is rewriting right now (the computer players); their words are put right
# with that work: the package docstring lists none of its modules, and three modules open with
# an issue number. Each entry must still exist and have a finding (a test below says when one
# can go).
NOT_YET: frozenset[str] = frozenset()

# A module of this project, perhaps followed by a name in it: ``tables.write.path.apply_change``.
DOTTED = re.compile(r"(?<![\w./-])((?:tables|engine|config)(?:\.[A-Za-z_]\w*)+)")
# A file of this project: ``tables/write/path.py``, ``templates/table/page.html``,
# ``benchmarks/bench_frames.py`` (a template's name alone, ``table/page.html``, too).
PATH = re.compile(
    r"(?<![\w./-])((?:tables|engine|config|templates|static|scripts|deploy|benchmarks|tests)"
    r"/[\w./-]*\.(?:py|html|js|css|sh|md|conf|service|timer|target|json|txt|po))(?![\w/])"
)
ISSUE = re.compile(r"\bissues? ?#?\d+|\bissue-\d+|hook\(issue-\d+\)", re.IGNORECASE)


def product_files(also: tuple[str, ...] = ()) -> Iterator[Path]:
    for top in (*PRODUCT, *also):
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                yield path
    for name in PRODUCT_FILES:
        yield ROOT / name


def words(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each comment and docstring of a Python file; of every line elsewhere (a
    template, a script or a style sheet names a module or file only to say something of it)."""
    text = path.read_text()
    if path.suffix != ".py":
        yield from enumerate(text.splitlines(), start=1)
        return
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                value = body[0].value.value
                if isinstance(value, str):
                    for offset, line in enumerate(value.splitlines()):
                        yield body[0].lineno + offset, line


def module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


@cache
def names_in(path: Path) -> dict[str, ast.AST]:
    """The names a module defines or imports at its top, each with its node."""
    found: dict[str, ast.AST] = {}
    for node in ast.parse(path.read_text(), str(path)).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = node
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                found[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        elif isinstance(node, ast.If | ast.Try):
            continue
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name):
                    found[leaf.id] = node
    return found


def class_names(node: ast.ClassDef) -> set[str]:
    found = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(item.name)
        elif isinstance(item, ast.Assign):
            found |= {t.id for t in item.targets if isinstance(t, ast.Name)}
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            found.add(item.target.id)
    return found


def dotted_exists(dotted: str) -> bool:
    """The longest prefix that is a module of ours, then the rest a name in it (and, for a
    class, a name in the class)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        path = module_file(".".join(parts[:cut]))
        if path is None:
            continue
        rest = parts[cut:]
        if not rest:
            return True
        node = names_in(path).get(rest[0])
        if node is None:
            return False
        if len(rest) == 1 or not isinstance(node, ast.ClassDef):
            return True
        return rest[1] in class_names(node)
    return False


def path_exists(name: str) -> bool:
    return any((ROOT / base / name).exists() for base in ("", "templates", "static"))


def dead_names() -> list[str]:
    found = []
    for path in product_files(ALSO_NAMED):
        where = path.relative_to(ROOT)
        if str(where) in NOT_YET:
            continue
        for line, text in words(path):
            for dotted in DOTTED.findall(text):
                if not dotted_exists(dotted):
                    found.append(f"{where}:{line}: {dotted}")
            for name in PATH.findall(text):
                if not path_exists(name):
                    found.append(f"{where}:{line}: {name}")
    return sorted(set(found))


def issue_markers() -> list[str]:
    found = []
    for path in product_files():
        where = path.relative_to(ROOT)
        if str(where) in NOT_YET:
            continue
        for line, text in enumerate(path.read_text().splitlines(), start=1):
            found += [f"{where}:{line}: {marker}" for marker in ISSUE.findall(text)]
    return found


def test_docstrings_comments_and_templates_name_only_modules_and_files_that_exist() -> None:
    assert dead_names() == []


def test_no_issue_number_in_product_code_or_templates() -> None:
    assert issue_markers() == []


def test_the_name_checks_catch_a_dead_name() -> None:
    assert dotted_exists("tables.write.path.apply_change")
    assert dotted_exists("tables.live.consumer.TableConsumer")
    assert dotted_exists("tables.cache")
    assert not dotted_exists("tables.services")
    assert not dotted_exists("tables.services.deal")
    assert not dotted_exists("tables.write.path.no_such_function")
    assert not dotted_exists("tables.live.consumer.TableConsumer.no_such_method")
    assert path_exists("tables/write/path.py")
    assert path_exists("table/page.html")
    assert not path_exists("tables/chat.py")
    assert DOTTED.findall("see ``tables.history_views.hand``.") == ["tables.history_views.hand"]
    assert PATH.findall("(tables/chat.py)") == ["tables/chat.py"]
    assert ISSUE.findall("# hook(issue-19) and Issue 26, issue #3") == [
        "hook(issue-19)",
        "Issue 26",
        "issue #3",
    ]


def listed_in(docstring: str, package: str, child: str) -> bool:
    """``child`` is named in a code span: ``child``, ``child/``, ``child.py``,
    ``child.name`` or ``package.child...``."""
    for span in re.findall(r"``(.+?)``", docstring, re.DOTALL):
        for token in re.split(r"[\s,()]+", span):
            token = token.removeprefix(f"{package}.")
            if token in (child, f"{child}/", f"{child}.py") or token.startswith(f"{child}."):
                return True
    return False


def packages() -> Iterator[Path]:
    for top in ("tables", "engine", "config"):
        for init in sorted((ROOT / top).rglob("__init__.py")):
            if "migrations" not in init.parts:
                yield init.parent


def children(package: Path) -> list[str]:
    return sorted(
        child.stem if child.is_file() else child.name
        for child in package.iterdir()
        if (child.suffix == ".py" and child.name != "__init__.py")
        or (child / "__init__.py").is_file()
    )


def unlisted_modules() -> list[str]:
    missing = []
    for package in packages():
        where = str(package.relative_to(ROOT))
        if f"{where}/__init__.py" in NOT_YET:
            continue
        dotted = where.replace("/", ".")
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        missing += [
            f"{where}/__init__.py: {child}"
            for child in children(package)
            if not listed_in(docstring, dotted, child)
        ]
    return missing


def test_every_package_docstring_names_each_of_its_modules() -> None:
    assert unlisted_modules() == []


def test_the_package_check_reads_code_spans() -> None:
    text = "- ``path``: the write path; ``tables.write.late`` and ``seat_moves.py``."
    assert listed_in(text, "tables.write", "path")
    assert listed_in(text, "tables.write", "late")
    assert listed_in(text, "tables.write", "seat_moves")
    assert not listed_in(text, "tables.write", "play")
    assert not listed_in("the path is short", "tables.write", "path")


def test_what_waits_for_other_work_still_has_a_finding() -> None:
    """An entry of NOT_YET goes as soon as its file is put right."""
    for where in NOT_YET:
        path = ROOT / where
        assert path.is_file(), f"{where} is gone: take it out of NOT_YET"
        found = [
            text
            for _, text in words(path)
            if any(not dotted_exists(d) for d in DOTTED.findall(text))
            or any(not path_exists(p) for p in PATH.findall(text))
        ]
        found += ISSUE.findall(path.read_text())
        if path.name == "__init__.py":
            dotted = str(path.parent.relative_to(ROOT)).replace("/", ".")
            docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
            found += [c for c in children(path.parent) if not listed_in(docstring, dotted, c)]
        assert found, f"{where} has nothing left to put right: take it out of NOT_YET"
