"""Free text written into an export, made harmless for the program that will read it.

Display names (and table names) are typed by strangers; every export writes them through
``neutral`` so that no name can pass for part of the file's format or run as a formula.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

Format = Literal["csv", "text", "phh"]

# A cell starting with one of these is run as a formula by spreadsheet programs (Excel,
# LibreOffice, Google Sheets), the full-width forms included (Excel reads them in East Asian
# locales); a tab or a carriage return before them is skipped by some importers.
_FORMULA_STARTS = frozenset("=+-@\t\r＝＋－＠")
# A plain number is data, not a formula, even when it starts with a minus sign.
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
# Characters that would let a name pass for part of the PokerStars layout: the colon after a
# name ("Sam: folds"), card brackets, the quotes around a table's name.
_TEXT_SWAPS = str.maketrans({":": ".", "[": "(", "]": ")", "'": "’", '"': "”"})
# Words that open a line of the PokerStars layout; a name starting with one would make a line
# a tracker reads as a header, a seat, a board or a summary.
_TEXT_LINE_STARTS = (
    "pokerstars", "table ", "seat ", "dealt to", "uncalled bet", "total pot", "board ",
    "main pot", "side pot", "*",
)


def _one_line(text: str) -> str:
    """Control characters (newlines, tabs, escapes) as spaces, runs of spaces as one, trimmed."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def neutral(text: str, fmt: Format) -> str:
    """``text`` (a display name, a table name) made safe to write into an export of ``fmt``.

    What "safe" means for each format:

    - ``"csv"`` (a spreadsheet cell): control characters become spaces (one line per row);
      a cell whose first character (leading spaces ignored) would start a formula (``=``,
      ``+``, ``-``, ``@``, tab, carriage return, or their full-width forms) gets a leading
      apostrophe, which spreadsheets read as "this is text" (the OWASP advice for CSV
      injection). A plain number such as ``-12`` or ``0.50`` is left as it is.
    - ``"text"`` (PokerStars hand history): one line; a colon becomes a full stop, square
      brackets round ones, quotes typographic ones (the layout's separators: ``Name: folds``,
      ``[Ah Kd]``, ``Table 'x'``); a name that would open a line a tracker reads as part of
      the layout (``Seat 2``, ``*** SUMMARY ***``, ``PokerStars Hand #``, ``Dealt to``, ``Board``,
      ...) gets a leading underscore. An empty result stays empty: the caller picks a fallback.
    - ``"phh"`` (a TOML string of a PHH file): one line (control characters become spaces);
      the quotes and backslashes left are escaped by the PHH writer's TOML string, so the name
      can never end the string early or add a field.
    """
    line = _one_line(text)
    if fmt == "csv":
        if _PLAIN_NUMBER.fullmatch(line) or not line or line[0] not in _FORMULA_STARTS:
            return line
        return "'" + line
    if fmt == "text":
        line = line.translate(_TEXT_SWAPS)
        if line.casefold().startswith(_TEXT_LINE_STARTS) or line.casefold() == "board":
            line = "_" + line
        return line
    return line


def csv_row(values: Iterable[object]) -> list[object]:
    """One CSV row with every text cell through ``neutral(..., "csv")``; numbers stay numbers."""
    return [neutral(v, "csv") if isinstance(v, str) else v for v in values]
