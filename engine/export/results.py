"""A game's results as CSV for spreadsheets: places, chips, hands played and won."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

from engine.export.neutral import csv_row
from engine.hand import Hand
from engine.seats import Standing

CSV_HEADER = ("place", "name", "chips", "hands played", "hands won", "out in hand")


def game_results_csv(
    standings: Sequence[Standing], names: Mapping[int, str], hands: Iterable[Hand]
) -> str:
    """One row per player in standing order (R34). A hand is won when the player took chips
    from any of its pots, a share of a split pot included; "out in hand" is empty for players
    who still had chips at the end."""
    played: dict[int, int] = {}
    won: dict[int, int] = {}
    for hand in hands:
        for seat in hand.seats:
            played[seat] = played.get(seat, 0) + 1
        for seat in {a.seat for a in hand.awards if a.amount > 0}:
            won[seat] = won.get(seat, 0) + 1
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for st in standings:
        name = names.get(st.seat) or f"Seat {st.seat + 1}"
        writer.writerow(
            csv_row([
                st.place,
                name,
                st.chips,
                played.get(st.seat, 0),
                won.get(st.seat, 0),
                "" if st.out_hand is None else st.out_hand,
            ])
        )
    return out.getvalue()
