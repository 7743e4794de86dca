"""What a page shows a reader, and the Latin words in it: the guard that a page in Nepali is
Nepali throughout (names, codes, card ranks and an explicit allow-list let through)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Attributes a person reads or hears (a screen reader says aria-label and alt).
SPOKEN = ("aria-label", "title", "placeholder", "alt")
# Not read as the page's language: scripts, styles, drawings, and keys on a keyboard (<kbd>,
# printed in Latin on every keyboard).
HIDDEN_BLOCKS = {"script", "style", "svg", "template", "noscript", "title", "kbd"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "use", "path", "line", "rect", "circle"}
# A word: letters and digits; one with a Latin letter in it is Latin.
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
LATIN = re.compile(r"[A-Za-z]")
URL = re.compile(r"https?://\S+")
# A card as text ("A♠", "10♥", "T♦"): its rank is a code the deck prints, not a word.
CARD = re.compile(r"(?<![A-Za-z])(?:10|[2-9AKQJT])[♠♥♦♣]")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []  # the open tags whose text is not read as this language's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        english = (values.get("lang") or "").startswith("en")  # marked English on purpose
        if (tag in HIDDEN_BLOCKS or english or self.skipping) and tag not in VOID:
            self.skipping.append(tag)
        if self.skipping or english:
            return
        for name, value in attrs:
            if name in SPOKEN and value:
                self.parts.append(value)
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.parts.append(data)


def shown_text(html: str) -> list[str]:
    """The page's text as a reader meets it: text and spoken attributes, no scripts, styles
    or drawings."""
    reader = _Reader()
    reader.feed(html)
    return [" ".join(p.split()) for p in reader.parts]


# The explicit allow-list: each Latin word a Nepali page may show, and why.
ALLOWED = {
    "CSV": "a file format's name, as spreadsheets call it",
    "PHH": "a file format's name (the Poker Hand History standard), as poker software calls it",
    "PokerStars": "a product's name: the text format of hand histories is called after it",
    "PokerKit": "a product's name: the library whose PHH files the export follows",
    "JSON": "a file format's name: the proof's file is downloaded as JSON",
    "QR": "the square code is called a QR code in Nepali too",
    "ABC234": "the join-code box's example code",
}
# Codes: the deck's short code ("3f9a 1c27 b0e4"), in groups of four hex digits.
DECK_CODE = re.compile(r"[0-9a-f]{4}")
# Card ranks, alone ("A") or in a run ("A-K-Q-J-10", "5-4-3-2-A").
RANKS = re.compile(r"(?:10|[2-9AKQJT])(?:-(?:10|[2-9AKQJT]))*")


def allowed_for(names: list[str], code: str) -> set[str]:
    """What a page may show in Latin beside the allow-list: the players' names and their
    initials (the seat's avatar), the table's code and its two halves as it is displayed."""
    words = {w for n in names for w in WORD.findall(n)} | {n[:1].upper() for n in names}
    return words | {code, code[:3], code[3:]} | set(ALLOWED)


def latin_words(html: str, allowed: set[str]) -> dict[str, str]:
    """Each Latin word the page shows that is not in ``allowed`` (compared case-blind), not a
    code nor card ranks, with the text it was found in."""
    folded = {a.casefold() for a in allowed}
    found: dict[str, str] = {}
    for part in shown_text(html):
        for word in WORD.findall(CARD.sub(" ", URL.sub(" ", part))):
            word = word.strip("'’-")
            if DECK_CODE.fullmatch(word) or RANKS.fullmatch(word):
                continue
            if LATIN.search(word) and word.casefold() not in folded:
                found.setdefault(word, part[:120])
    return found
