"""The front end by screen: templates in a folder per screen, each stylesheet's selectors defined
once, and every page linking only the files of its screen (README "Layout")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = ROOT / "static" / "css"
TEMPLATES = ROOT / "templates"

SCREENS = {"table", "history", "season", "tournament", "pages"}
"""Folders of templates/ that hold one screen each."""
SHARED = {"components", "errors", "admin"}
LOOSE = {"base.html", "500.html", "503.html"}


def _rules(text: str) -> list[tuple[str | None, str]]:
    """(media condition or None, selector list) of each rule of a stylesheet, in order."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found: list[tuple[str | None, str]] = []
    media: str | None = None
    depth = 0
    prelude = ""
    raw = 0  # depth of an at-rule kept whole (@keyframes, @font-face)
    for ch in text:
        if ch == "{":
            head = " ".join(prelude.split())
            prelude = ""
            depth += 1
            if raw:
                continue
            if head.startswith(("@media", "@supports")):
                media = head
            elif head.startswith("@"):
                raw = depth
            else:
                found.append((media, head))
        elif ch == "}":
            if raw == depth:
                raw = 0
            depth -= 1
            if depth == 0:
                media = None
            prelude = ""
        elif ch == ";" and depth == 0:
            prelude = ""
        else:
            prelude += ch
    return found


def _selectors(selector_list: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in selector_list:
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and not depth:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [" ".join(p.split()) for p in parts if p.strip()]


def test_each_selector_is_defined_once_and_its_media_queries_beside_it() -> None:
    where: dict[tuple[str | None, str], str] = {}
    top_file: dict[str, str] = {}
    media_files: dict[str, set[str]] = {}
    twice = []
    sheets = sorted(CSS.glob("*.css"))
    assert {p.stem for p in sheets} >= {"core", "table"}, sheets
    for sheet in sheets:
        for media, selector_list in _rules(sheet.read_text(encoding="utf-8")):
            for selector in _selectors(selector_list):
                key = (media, selector)
                if key in where:
                    context = media or "no media query"
                    twice.append(f"{selector} ({context}): {where[key]}, {sheet.name}")
                where[key] = sheet.name
                if media is None:
                    top_file[selector] = sheet.name
                else:
                    media_files.setdefault(selector, set()).add(sheet.name)
    assert not twice, "\n".join(twice)
    apart = [
        f"{selector}: {top_file[selector]} and media queries in {sorted(files)}"
        for selector, files in media_files.items()
        if selector in top_file and files != {top_file[selector]}
    ]
    assert not apart, "\n".join(apart)


def test_the_parser_sees_a_selector_defined_twice() -> None:
    rules = _rules("a{x:1}@media (min-width: 1px){.b, a{y:2}}@keyframes k{from{z:0}}a{x:2}")
    assert rules == [(None, "a"), ("@media (min-width: 1px)", ".b, a"), (None, "a")]


def test_templates_sit_in_a_folder_per_screen() -> None:
    loose = {p.name for p in TEMPLATES.iterdir() if p.suffix == ".html"}
    assert loose == LOOSE, loose
    folders = {p.name for p in TEMPLATES.iterdir() if p.is_dir()}
    assert folders == SCREENS | SHARED, folders
    # The admin's overrides keep the admin's own names (admin/tables/...); nothing else of the
    # old flat templates/tables/ is left.
    assert not (TEMPLATES / "tables").exists()


_LINK = re.compile(r"""\{% static '((?:css|js)/[\w.-]+)' %\}""")


def _linked(template: str) -> set[str]:
    return set(_LINK.findall((TEMPLATES / template).read_text(encoding="utf-8")))


def test_each_page_links_only_the_files_of_its_screen() -> None:
    # Every page: the core stylesheet and app.js; nothing of the table's.
    assert _linked("base.html") == {"css/core.css", "js/app.js"}
    table = _linked("table/page.html")
    assert {"css/table.css", "js/live.js", "js/chat.js", "js/odds.js", "js/bet-sheet.js",
            "js/countdown.js", "js/pre-actions.js", "js/turn-alert.js", "js/keys.js"} <= table
    for page in ("pages/home.html", "pages/how_to_play.html", "history/hands.html",
                 "season/group.html", "tournament/page.html"):
        assert not _linked(page) & {"css/table.css", "js/live.js", "js/bet-sheet.js"}, page
    # Every file named exists, and every stylesheet and script is linked by some page.
    named = set()
    for path in TEMPLATES.rglob("*.html"):
        named |= _linked(str(path.relative_to(TEMPLATES)))
    for name in named:
        assert (ROOT / "static" / name).is_file(), name
    files = {f"css/{p.name}" for p in CSS.glob("*.css")} | {
        f"js/{p.name}" for p in (ROOT / "static" / "js").glob("*.js")
    }
    assert files <= named, files - named


def test_scripts_are_collected_without_their_comment_lines_and_nothing_else() -> None:
    from config.static import _own_js, minify_js

    assert _own_js("js/live.js") and not _own_js("django_htmx/htmx.min.js")
    sample = (
        "/* A note\n   over lines. */\n(function () {\n  // a line of comment\n"
        '  var a = "/* kept */"; // kept after code\n  /* x */ var b = 1;\n}());\n'
    )
    assert minify_js(sample) == (
        '(function () {\nvar a = "/* kept */"; // kept after code\n/* x */ var b = 1;\n}());\n'
    )
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        small = minify_js(source)
        assert minify_js(small) == small, path
        assert len(small) < len(source), path
        # No string runs over several lines (a template literal would lose its indentation).
        assert "`" not in small, path
        # Every line of code is kept, in order, only its indentation gone.
        code = [line.strip() for line in small.splitlines() if line.strip()]
        rest = iter(line.strip() for line in source.splitlines())
        assert all(any(line == other for other in rest) for line in code), path
