"""The project's stylesheets are collected minified (config/static.py): comments and spaces go,
every rule stays."""

from __future__ import annotations

import re
from pathlib import Path

from config.static import _own_css, minify_css

CSS = Path(__file__).resolve().parents[2] / "static" / "css"


def test_comments_and_spaces_go_but_a_descendant_space_before_a_colon_stays() -> None:
    source = "/* a note */\n.seat  >  .card ,\n.me :focus {\n  color : red ; /* why */\n}\n"
    assert minify_css(source) == ".seat>.card,.me :focus{color : red;}\n"


def test_every_stylesheet_keeps_its_rules_and_declarations() -> None:
    for path in CSS.glob("*.css"):
        source = path.read_text()
        small = minify_css(source)
        bare = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
        assert "/*" not in small, path
        for mark in "{}:;":
            assert small.count(mark) == bare.count(mark), (path, mark)
        # The same words in the same order: only white space went.
        assert re.sub(r"\s+", "", small) == re.sub(r"\s+", "", bare), path
        assert len(small) < len(source), path
        assert minify_css(small) == small, path  # collectstatic may store a file twice


def test_only_the_projects_own_stylesheets_are_minified() -> None:
    assert _own_css("css/app.css")
    assert not _own_css("admin/css/base.css")
    assert not _own_css("js/app.js")
