"""What the chaos soak's checker reads and what it reports: the database after the run
(``Database``: read from PostgreSQL, saved as JSON next to the record and loaded again), each
stored hand replayed action by action (``replay_steps``), and the report (``Report``: its
breaches, each naming its invariant, table, hand and version, and its figures)."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.hand import Hand
from engine.history import replay


@dataclass(frozen=True)
class Breach:
    invariant: str
    table: int | None
    hand: int | None
    version: int | None
    detail: str

    def __str__(self) -> str:
        return (f"[{self.invariant}] table {self.table} hand {self.hand} version "
                f"{self.version}: {self.detail}")


@dataclass
class Report:
    breaches: list[Breach] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, invariant: str, table: int | None, hand: int | None, version: int | None,
            detail: str) -> None:
        self.breaches.append(Breach(invariant, table, hand, version, detail))


@dataclass
class Database:
    """What the checker reads from the database (plain data, so tests can plant breaches)."""

    tables: dict[int, dict[str, Any]]  # id -> code, status, version, state, turn_seconds,
    # recent_actions, seats: {position: is_computer}
    hands: dict[int, list[dict[str, Any]]]  # table id -> hands by number (number, record,
    # players, final_stacks, cancelled)


def read_database(url: str) -> Database:
    import psycopg

    tables: dict[int, dict[str, Any]] = {}
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    with psycopg.connect(url, connect_timeout=10) as conn:
        for row in conn.execute(
            "SELECT id, code, status, version, state, turn_seconds, recent_actions "
            "FROM tables_table"
        ):
            tables[row[0]] = {"code": row[1], "status": row[2], "version": row[3],
                              "state": row[4], "turn_seconds": row[5], "recent_actions": row[6],
                              "seats": {}}
        for table_id, position, is_computer, away, timeouts in conn.execute(
            "SELECT table_id, position, is_computer, away, timeouts_in_row FROM tables_seat"
        ):
            if table_id in tables:
                tables[table_id]["seats"][position] = is_computer
                # the seats' away state at the end (P1), for reading a record by hand
                tables[table_id].setdefault("away", {})[position] = {
                    "away": away, "timeouts_in_row": timeouts}
        for row in conn.execute(
            "SELECT table_id, number, record, players, final_stacks, cancelled "
            "FROM tables_hand ORDER BY table_id, number"
        ):
            hands[row[0]].append({"number": row[1], "record": row[2], "players": row[3],
                                  "final_stacks": row[4], "cancelled": row[5]})
    for table_id, table in tables.items():
        # A running hand's row holds the record of its deal; its actions so far are in the
        # table's state (the row is written again when the hand ends).
        state = table["state"] or {}
        running = state.get("hand")
        for hand in hands.get(table_id, []):
            if running and hand["final_stacks"] is None and not hand["cancelled"] and (
                hand["number"] == state.get("hand_number")
            ):
                hand["record"] = running
    return Database(tables, dict(hands))


def save_database(db: Database, path: Path) -> None:
    """What the checker read, as JSON next to the record: the check can be run again, and the
    hands read, after the stack is gone (``load_database``)."""
    path.write_text(json.dumps({"tables": db.tables, "hands": db.hands}, default=str))


def load_database(path: Path) -> Database:
    raw = json.loads(path.read_text())
    tables = {int(k): {**t, "seats": {int(p): c for p, c in t["seats"].items()},
                       "away": {int(p): a for p, a in (t.get("away") or {}).items()}}
              for k, t in raw["tables"].items()}
    return Database(tables, {int(k): hs for k, hs in raw["hands"].items()})


@dataclass
class Replayed:
    hand: Hand
    events_after: list[int]  # event count after 0, 1, 2... actions
    actions: list[Action]


def replay_steps(record: dict[str, Any]) -> Replayed:
    """The hand replayed action by action (the live checks), with its event counts."""
    actions = [Action.from_dict(a) for a in record["actions"]]
    hand = replay({**record, "actions": []})
    counts = [len(hand.events)]
    for action in actions:
        hand.act(action.seat, action.kind, action.amount)
        counts.append(len(hand.events))
    return Replayed(hand, counts, actions)
