"""A game's results and statistics, from its rows and stored hands.

``counted(tables)`` keeps each game's ``GameStats`` row up to date: it replays only the finished
hands after the last one counted (never a hand in progress or called off), reduces each to what
a spectator saw (``engine.stats.PublicHand``) and adds it up. A finished game counted to its
end is marked final and never read again. ``results(table)`` gives each seat's place and chips.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from engine.blinds import STARTING_STACK
from engine.game import Game
from engine.history import replay
from engine.stats import PublicHand, Tally, summarize
from tables.models import GameStats, Hand, Seat, Table

KEEP_POTS = 5  # a game keeps its biggest pots and best hands shown, for the season's lists
DONE = (Table.Status.FINISHED, Table.Status.CLOSED)


@dataclass
class Result:
    """One seat of a game: who holds it, where they finished (None: still playing or never
    started) and their chips."""

    seat: int
    name: str
    computer: bool
    claim_hash: str
    place: int | None
    chips: int
    net: int


def results(table: Table, seats: Iterable[Seat] | None = None) -> list[Result]:
    """Every seat by place (the standings, R34; provisional while the game runs)."""
    rows = {s.position: s for s in (seats if seats is not None else table.seats.all())}
    if not table.state:
        return [
            Result(s.position, s.name, s.is_computer, s.claim_hash, None, STARTING_STACK, 0)
            for s in rows.values()
        ]
    # The standings need only the seats: the running hand is not replayed.
    game = Game.from_dict({**table.state, "hand": None})
    finished = table.status in DONE
    out = []
    for standing in game.standings():
        seat = rows.get(standing.seat)
        out.append(Result(
            standing.seat, seat.name if seat else "?", seat.is_computer if seat else True,
            seat.claim_hash if seat else "", standing.place if finished else None,
            standing.chips, standing.chips - STARTING_STACK,
        ))
    return out


def _count(row: GameStats, table: Table) -> None:
    data: dict[str, Any] = dict(row.data or {})
    tallies = {int(k): Tally.from_dict(v) for k, v in data.get("tallies", {}).items()}
    pots: list[dict[str, Any]] = list(data.get("pots", []))
    shown: list[dict[str, Any]] = list(data.get("shown", []))
    hands = int(data.get("hands", 0))
    done = table.status in DONE  # read before the hands: a hand after it cannot be missed
    new = Hand.objects.filter(
        table=table, ended_at__isnull=False, cancelled=False, number__gt=row.through
    ).order_by("number")
    for hand in new:
        summary = summarize(PublicHand.of(replay(hand.record)))
        names = {int(p["seat"]): str(p["name"]) for p in hand.players}
        hands += 1
        for seat, t in summary.tallies.items():
            tallies.setdefault(seat, Tally()).add(t)
        if summary.pot:
            pots.append({
                "hand": hand.number, "pot": summary.pot,
                "winners": [names.get(s, "?") for s in summary.winners],
            })
        for x in summary.shown:
            shown.append({
                "hand": hand.number, "name": names.get(x.seat, "?"), "seat": x.seat,
                "best": list(x.best), "hand_name": x.name, "key": x.key, "value": x.value,
            })
        row.through = hand.number
    pots = sorted(pots, key=lambda p: (-p["pot"], p["hand"]))[:KEEP_POTS]
    shown = sorted(shown, key=lambda s: (-s["value"], s["hand"]))[:KEEP_POTS]
    row.data = {
        "tallies": {str(k): v.to_dict() for k, v in tallies.items()},
        "pots": pots, "shown": shown, "hands": hands, "final": done,
    }


def counted(tables: Iterable[Table]) -> dict[int, GameStats]:
    """Each table's statistics, counted up to its last finished hand (table id -> row)."""
    tables = list(tables)
    rows = {r.table_id: r for r in GameStats.objects.filter(table__in=tables)}
    for table in tables:
        row = rows.get(table.pk)
        if row is not None and row.data.get("final"):
            continue
        with transaction.atomic():
            # One count at a time per game: two pages opened at once add each hand once.
            GameStats.objects.get_or_create(table=table)
            row = GameStats.objects.select_for_update().get(table=table)
            _count(row, table)
            row.save()
        rows[table.pk] = row
    return rows


def tally_of(row: GameStats | None, seat: int) -> Tally:
    if row is None:
        return Tally()
    return Tally.from_dict(row.data.get("tallies", {}).get(str(seat), {}))
