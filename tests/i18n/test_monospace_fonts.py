"""Every monospace line falls back to the bundled Devanagari font before the generic family:
a monospace font has no Devanagari, and the system's fallback drew "तास" as empty boxes."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
FAMILIES = re.compile(r"font(?:-family)?\s*:\s*([^;}]*monospace[^;}]*)", re.S)


def test_every_monospace_font_list_names_the_bundled_devanagari_font_first() -> None:
    lists = [
        (sheet.name, " ".join(found.split()))
        for sheet in sorted(CSS.glob("*.css"))
        for found in FAMILIES.findall(sheet.read_text(encoding="utf-8"))
    ]
    assert lists, "no monospace font list found"
    missing = [
        (name, text) for name, text in lists
        if '"Holdem Devanagari"' not in text
        or text.index('"Holdem Devanagari"') > text.rindex("monospace")
    ]
    assert not missing, missing
