"""Hand histories and results to take away: PokerStars text, PHH and CSV.

Every export is written from one viewer's point of view (P3): a seat number sees its own hole
cards and the hands shown at the showdown; ``SPECTATOR`` (or any seat not dealt in) sees only
the shown hands; ``None`` is the complete record, for staff. Only finished hands are exported.

- ``pokerstars``: hand histories in PokerStars text, the format tracking tools import;
- ``results``: a game's results as CSV for spreadsheets;
- ``neutral``: every name made harmless for the format it goes into (a spreadsheet formula, a
  line a tracker would misread), the one helper every export uses;
- PHH comes from the engine's own writer (``engine.phh``), wrapped here per hand and per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC

from engine.export.neutral import csv_row, neutral
from engine.export.pokerstars import (
    HAND_SEPARATOR,
    SPECTATOR,
    HandMeta,
    describe,
    export_names,
    format_time,
    pokerstars_game,
    pokerstars_hand,
)
from engine.export.results import CSV_HEADER, game_results_csv
from engine.hand import Hand
from engine.phh.write import to_phh

__all__ = [
    "CSV_HEADER",
    "HAND_SEPARATOR",
    "SPECTATOR",
    "HandMeta",
    "csv_row",
    "describe",
    "export_names",
    "format_time",
    "game_results_csv",
    "neutral",
    "phh_game",
    "phh_hand",
    "pokerstars_game",
    "pokerstars_hand",
]


def phh_hand(
    hand: Hand, names: Mapping[int, str], meta: HandMeta, viewer: int | None = None
) -> str:
    """One finished hand as a PHH file (through the engine's PHH writer); names and the table's
    name through ``neutral(..., "phh")``."""
    if not hand.finished:
        raise ValueError("only a finished hand can be exported: its cards are still hidden")
    moment = meta.started_at.astimezone(UTC) if meta.started_at.tzinfo else meta.started_at
    extra: dict[str, object] = {
        "hand": meta.hand_id,
        "table": neutral(meta.table_name, "phh"),
        "seat_count": meta.max_seats,
        "year": moment.year,
        "month": moment.month,
        "day": moment.day,
        "time_zone": "UTC",
    }
    safe = {seat: neutral(name, "phh") for seat, name in names.items()}
    return to_phh(hand, viewer=viewer, names=safe, extra=extra)


def phh_game(
    hands: Iterable[tuple[Hand, HandMeta, Mapping[int, str]]], viewer: int | None = None
) -> str:
    """Several hands as one ``.phhs`` file: each hand is a TOML table ``[1]``, ``[2]``, ...,
    with its own names (as ``pokerstars_game``)."""
    return "\n".join(
        f"[{k}]\n{phh_hand(hand, names, meta, viewer)}"
        for k, (hand, meta, names) in enumerate(hands, start=1)
    )
