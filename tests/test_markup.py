"""The page's own markup never looks like a card to the leak checks (no browser needed).

The privacy tests read every card a page spells ("As", "A♠", "ace of spades"); an SVG path such
as ``3.8 9s-1.3`` would read as the nine of spades and hide a real leak among false alarms.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.tables.helpers import cards_in

ROOT = Path(__file__).resolve().parents[1]
DRAWING = re.compile(r'\b(?:d|points|viewBox|transform)="([^"]*)"')


def test_no_svg_drawing_in_templates_or_scripts_spells_a_card() -> None:
    files = [
        *ROOT.glob("templates/**/*.html"), *ROOT.glob("static/js/*.js"),
        *ROOT.glob("static/img/*.svg"),
    ]
    assert len(files) > 20
    found = {
        f"{path.relative_to(ROOT)}: {sorted(map(str, cards_in(value)))} in {value[:40]!r}"
        for path in files
        for value in DRAWING.findall(path.read_text(encoding="utf-8"))
        if cards_in(value)
    }
    # Example hands on the rules page pass card codes to a template as d="6d" (the fourth card).
    found = {f for f in found if not f.startswith("templates/pages/how_to_play.html")}
    assert not found, found
