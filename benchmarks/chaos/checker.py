"""The checker: the record of what every client was told, against the database after the run.

Each breach names its invariant, the table, the hand and the version. The invariants:

- ``chips``: at every table the chips of every hand's start and end, of the table's state, and
  from one hand to the next, add up to what the table began with;
- ``replay``: every stored hand replays through ``engine`` (the live checks) to its stored
  final stacks;
- ``lost``: every action a client was told counted (no refusal before the ``pong`` behind it,
  "already counted", or "your last tap counted" after a drop) is the table's action at the
  version it was sent on: same seat, same kind (and amount, for a bet or a raise);
- ``twice``: no action counted twice: no action id applied fresh on two sends, no two ids on
  one action of the history, and no action of a person's seat that neither one of their taps
  nor their own time-out explains (a time-out only after the turn's full time, or at once for
  a seat marked away, P1: the frames at that version draw the seat away; a record without
  that falls back on counting two time-outs in a row seen whole);
- ``deadline``: every deadline fired once: no table overdue when play stopped, no table still
  (no new version) for more than a turn's time plus 10 s after the last fault, no two
  time-outs recorded for one version;
- ``converge``: every player has the table's version of a fault's end within 5 s of it (the
  bound holds for the last fault; the slowest of all is reported); after a ``redis_failover``
  (whose end is the Sentinel's promotion) within 3 s, every time;
- ``hole_cards``: no frame shows a card of another player's hand before that hand was shown;
- ``http``: no 5xx (nor no answer) outside the fault windows; inside them any 5xx is the app's
  own error page, and /healthz says 503 while PostgreSQL or Redis is away.

Which version an action was made at comes from the frames: each carries the hand's event
count (``#last-line``'s ``data-announce-id``), and replaying the hand gives the event count after
each action, so a version maps to (hand, actions so far).
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.actions import Action, ActionKind
from engine.events import SHOW
from engine.game import STARTING_STACK
from engine.hand import Hand
from engine.history import HistoryError, replay

CONVERGE_BOUND = 5.0  # seconds after a fault's end
REDIS_CONVERGE_BOUND = 3.0  # seconds after a Sentinel promoted the Redis replica
STUCK_SLACK = 10.0  # seconds beyond a turn's time
HTTP_GRACE = 5.0  # seconds after a fault's end still inside its window (pools reconnect)
TIMEOUT_SLACK = 1.5  # a time-out fires a turn's time after the turn began, give or take this


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
class Report:
    breaches: list[Breach] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, invariant: str, table: int | None, hand: int | None, version: int | None,
            detail: str) -> None:
        self.breaches.append(Breach(invariant, table, hand, version, detail))


# ------------------------------------------------------------------------------ replays
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


def _stacks(value: Any) -> dict[int, int]:
    if isinstance(value, dict):
        return {int(k): int(v) for k, v in value.items()}
    return {}


# ------------------------------------------------------------------------------ the check
def check(events: list[dict[str, Any]], db: Database) -> Report:
    report = Report()
    faults = [e for e in events if e["e"] == "fault"]
    end = next((e for e in events if e["e"] == "end"), None)
    end_t = end["t"] if end else max((e["t"] for e in events), default=0.0)
    replays = _check_hands(db, report)
    frames_by_table: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e["e"] == "frame":
            frames_by_table[e["table"]].append(e)
    at_version = _version_map(frames_by_table, replays, report)
    _check_actions(events, db, replays, at_version, frames_by_table, report)
    _check_deadlines(events, db, frames_by_table, faults, end, end_t, report)
    _check_convergence(events, faults, report)
    _check_hole_cards(frames_by_table, replays, report)
    _check_http(events, faults, report)
    _fill_places(report, at_version)
    sent = [e for e in events if e["e"] == "sent" and e["kind"] != "sync"]
    kinds: dict[str, int] = defaultdict(int)
    for f in faults:
        kinds[f["kind"]] += 1
    report.figures.update({
        "minutes": round(end_t / 60, 2),
        "tables": len(db.tables),
        "hands": sum(1 for hs in db.hands.values() for h in hs if h["final_stacks"] is not None),
        "actions_sent": len(sent),
        "actions_told_counted": len({e["id"] for e in events
                                     if e["e"] == "fate" and e["fate"] == "applied"}),
        "history_actions": sum(len(h["record"]["actions"]) for hs in db.hands.values()
                               for h in hs),
        "faults": dict(sorted(kinds.items())),
        "socket_drops": sum(1 for e in events if e["e"] == "conn" and e["state"] == "drop"),
        "frames": sum(len(f) for f in frames_by_table.values()),
        "breaches": len(report.breaches),
    })
    return report


def _check_hands(db: Database, report: Report) -> dict[tuple[int, int], Replayed]:
    replays: dict[tuple[int, int], Replayed] = {}
    for table_id, table in db.tables.items():
        hands = db.hands.get(table_id, [])
        expected = None
        if hands:
            expected = sum(int(p["stack"]) for p in hands[0]["players"])
        state = table.get("state") or {}
        seats = state.get("seats") or []
        if seats:
            total = sum(int(s.get("stack", 0)) for s in seats)
            # the running hand's chips are in its pots, not yet in the stacks
            hand_state = state.get("hand")
            if expected is None:
                expected = STARTING_STACK * len(seats)
            if hand_state is None and total != expected:
                report.add("chips", table_id, state.get("hand_number"), table["version"],
                           f"the table's stacks hold {total} chips, not {expected}")
        previous: dict[int, int] | None = None
        for hand in hands:
            number = hand["number"]
            start = {int(p["seat"]): int(p["stack"]) for p in hand["players"]}
            if expected is not None and sum(start.values()) != expected:
                report.add("chips", table_id, number, None,
                           f"hand starts with {sum(start.values())} chips, not {expected}")
            if previous is not None:
                for seat, chips in start.items():
                    if previous.get(seat, chips) != chips:
                        report.add("chips", table_id, number, None,
                                   f"seat {seat} starts with {chips}, ended the hand before "
                                   f"with {previous.get(seat)}")
            try:
                replayed = replay_steps(hand["record"])
            except (HistoryError, ValueError, KeyError, TypeError) as exc:
                report.add("replay", table_id, number, None, f"does not replay: {exc}")
                previous = None
                continue
            replays[(table_id, number)] = replayed
            final = _stacks(hand["final_stacks"])
            if hand["final_stacks"] is not None:
                if not replayed.hand.finished:
                    report.add("replay", table_id, number, None,
                               "stored as finished, the replay is not")
                elif replayed.hand.final_stacks != final:
                    report.add("replay", table_id, number, None,
                               f"replays to {replayed.hand.final_stacks}, stored {final}")
                if expected is not None and sum(final.values()) != expected:
                    report.add("chips", table_id, number, None,
                               f"hand ends with {sum(final.values())} chips, not {expected}")
                previous = final
            elif hand["cancelled"]:
                previous = start
            else:
                previous = None  # the hand still running
    return replays


def _version_map(
    frames: dict[int, list[dict[str, Any]]], replays: dict[tuple[int, int], Replayed],
    report: Report,
) -> dict[tuple[int, int], tuple[int, int]]:
    """(table, version) -> (hand, actions taken in that hand at that version)."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for table_id, seen in frames.items():
        for frame in seen:
            if frame["events"] is None or not frame["hand"]:
                continue
            replayed = replays.get((table_id, frame["hand"]))
            if replayed is None:
                continue
            try:
                taken = replayed.events_after.index(frame["events"])
            except ValueError:
                report.add("lost", table_id, frame["hand"], frame["version"],
                           f"a frame shows {frame['events']} events, which the stored hand "
                           "never had (an action shown, then lost?)")
                continue
            key = (table_id, frame["version"])
            if key in out and out[key] != (frame["hand"], taken):
                report.add("lost", table_id, frame["hand"], frame["version"],
                           f"two players were shown different states at one version: "
                           f"{out[key]} and {(frame['hand'], taken)}")
            out[key] = (frame["hand"], taken)
    return out


def _fill_places(report: Report, at_version: dict[tuple[int, int], tuple[int, int]]) -> None:
    """Every breach names its table, hand and version where the record can tell them: a hand's
    breach without a version gets the first version its table was seen at in that hand, a
    version's breach without a hand gets the hand shown at that version."""
    first: dict[tuple[int, int], int] = {}
    for (table_id, version), (hand_number, _taken) in sorted(at_version.items()):
        first.setdefault((table_id, hand_number), version)
    for n, b in enumerate(report.breaches):
        if b.table is None:
            continue
        if b.version is None and b.hand is not None:
            report.breaches[n] = Breach(b.invariant, b.table, b.hand,
                                        first.get((b.table, b.hand)), b.detail)
        elif b.hand is None and b.version is not None and (b.table, b.version) in at_version:
            report.breaches[n] = Breach(b.invariant, b.table, at_version[(b.table, b.version)][0],
                                        b.version, b.detail)


def _first_seen(frames: list[dict[str, Any]]) -> dict[int, float]:
    seen: dict[int, float] = {}
    for frame in frames:
        seen.setdefault(frame["version"], frame["t"])
    return seen


def _unanswered(sends: dict[str, list[dict[str, Any]]],
                fates: dict[str, list[dict[str, Any]]]) -> set[tuple[int, int, int, str]]:
    """(table, version, seat, kind) of the taps that have no fate at all: sent as play ended
    (the record stops before the answer), their action may well be in the history."""
    return {(s["table"], s["version"], s["seat"], s["kind"])
            for action_id, sent in sends.items() if action_id not in fates
            for s in sent[:1] if s["kind"] != "sync"}


def _check_actions(
    events: list[dict[str, Any]], db: Database, replays: dict[tuple[int, int], Replayed],
    at_version: dict[tuple[int, int], tuple[int, int]],
    frames: dict[int, list[dict[str, Any]]], report: Report,
) -> None:
    sends: dict[str, list[dict[str, Any]]] = defaultdict(list)
    fates: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e["e"] == "sent":
            sends[e["id"]].append(e)
        elif e["e"] == "fate":
            fates[e["id"]].append(e)
    # (table, hand, index) -> the ids told they counted there
    explained: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    unverified = 0
    for action_id, told in fates.items():
        if not any(f["fate"] == "applied" for f in told):
            continue
        fresh = [f for f in told if f["fate"] == "applied" and not f["code"]]
        sent = [s for s in sends[action_id] if s["kind"] != "sync"]
        first = sends[action_id][0]
        table_id, version, hand_number, seat = (first["table"], first["version"],
                                                first["hand"], first["seat"])
        if len(fresh) > 1:
            report.add("twice", table_id, hand_number, version,
                       f"action {action_id} was applied afresh on {len(fresh)} sends")
        where = at_version.get((table_id, version))
        replayed = replays.get((table_id, hand_number))
        if replayed is None:
            report.add("lost", table_id, hand_number, version,
                       f"action {action_id} counted, but hand {hand_number} is not stored")
            continue
        if where is None or where[0] != hand_number:
            unverified += 1
            if not any(a.seat == seat for a in replayed.actions):
                report.add("lost", table_id, hand_number, version,
                           f"action {action_id} counted; seat {seat} never acted in the hand")
            continue
        index = where[1]
        if index >= len(replayed.actions):
            report.add("lost", table_id, hand_number, version,
                       f"action {action_id} ({sent[0]['kind'] if sent else '?'}) was told it "
                       f"counted; the hand's history ends before it")
            continue
        done = replayed.actions[index]
        kind = sent[0]["kind"] if sent else None
        amount = sent[0].get("amount") if sent else None
        if done.seat != seat or (kind is not None and done.kind.value != kind) or (
            kind in (ActionKind.BET, ActionKind.RAISE) and done.amount != amount
        ):
            report.add("lost", table_id, hand_number, version,
                       f"action {action_id} (seat {seat} {kind} {amount or ''}) was told it "
                       f"counted; the history has seat {done.seat} {done.kind.value} "
                       f"{done.amount or ''} there")
            continue
        explained[(table_id, hand_number, index)].append(action_id)
    for (table_id, hand_number, index), ids in explained.items():
        if len(ids) > 1:
            report.add("twice", table_id, hand_number, None,
                       f"action {index + 1} of the hand is claimed by {len(ids)} taps: {ids}")
    report.figures["actions_not_placed"] = unverified
    # Actions of person seats nobody's tap explains: their own time-out, or a double.
    by_index: dict[tuple[int, int, int], int] = {}
    for (table_id, version), (hand_number, taken) in at_version.items():
        by_index.setdefault((table_id, hand_number, taken), version)
    catch_ups: set[int] = set()
    fresh_socket: set[str] = set()
    for e in events:
        if e["e"] == "conn" and e["state"] == "open":
            fresh_socket.add(e["player"])
        elif e["e"] == "frame" and e["player"] in fresh_socket:
            fresh_socket.discard(e["player"])
            catch_ups.add(id(e))
    unfated = _unanswered(sends, fates)
    timeouts = 0
    for table_id, table in db.tables.items():
        # Only frames received live: the first frame on a new socket is a catch-up, and two
        # versions first seen in one catch-up say nothing of how long the turn lasted.
        first_seen = _first_seen(sorted((f for f in frames.get(table_id, [])
                                         if id(f) not in catch_ups), key=lambda f: f["t"]))
        turn = float(table["turn_seconds"])
        shown_away = _away_by_version(frames.get(table_id, []))
        in_row: dict[int, int] = defaultdict(int)
        for hand in db.hands.get(table_id, []):
            replayed = replays.get((table_id, hand["number"]))
            if replayed is None:
                continue
            for index, action in enumerate(replayed.actions):
                if table["seats"].get(action.seat, True):
                    continue  # a computer player's
                if explained.get((table_id, hand["number"], index)):
                    in_row[action.seat] = 0
                    continue
                version = by_index.get((table_id, hand["number"], index))
                if (table_id, version, action.seat, action.kind.value) in unfated:
                    in_row[action.seat] = 0  # a tap the record ended before it was answered
                    continue
                if version is None or version not in first_seen or (
                    version + 1 not in first_seen
                ):
                    in_row[action.seat] = 0  # not seen whole: nothing to say
                    continue
                waited = first_seen[version + 1] - first_seen[version]
                # Away (P1: acted for after a short pause) as the players were shown it at that
                # version, the very state the deadline was set from; without frames that say,
                # two time-outs in a row (a count that misses those not seen whole).
                shown = shown_away.get(version)
                away = action.seat in shown if shown is not None else in_row[action.seat] >= 2
                timeouts += 1
                in_row[action.seat] += 1
                if action.kind not in (ActionKind.CHECK, ActionKind.FOLD):
                    report.add("twice", table_id, hand["number"], version,
                               f"seat {action.seat} {action.kind.value}: no tap of theirs "
                               "counted there, and a time-out only checks or folds")
                elif not away and waited < turn - TIMEOUT_SLACK:
                    report.add("twice", table_id, hand["number"], version,
                               f"seat {action.seat} {action.kind.value} after {waited:.1f} s: "
                               f"no tap of theirs counted there, and the turn lasts {turn:.0f} s "
                               "(a double or an early deadline)")
    report.figures["time_outs"] = timeouts


def _away_by_version(frames: list[dict[str, Any]]) -> dict[int, set[int]]:
    """version -> the seats drawn away in the frames of that version (only versions some frame
    drew its seats at: a record from before frames carried ``away`` has none)."""
    out: dict[int, set[int]] = {}
    for frame in frames:
        if frame.get("away") is not None:
            out.setdefault(frame["version"], set()).update(frame["away"])
    return out


def _check_deadlines(
    events: list[dict[str, Any]], db: Database, frames: dict[int, list[dict[str, Any]]],
    faults: list[dict[str, Any]], end: dict[str, Any] | None, end_t: float, report: Report,
) -> None:
    for e in events:
        if e["e"] == "stuck":
            for table_id, overdue in e["tables"].items():
                table = db.tables.get(int(table_id), {})
                report.add("deadline", int(table_id), None, table.get("version"),
                           f"its deadline was {overdue:.1f} s overdue when play stopped")
    for table_id, table in db.tables.items():
        seen_versions: dict[int, list[str]] = defaultdict(list)
        for entry in table.get("recent_actions") or []:
            if entry.startswith("timed-out-"):
                parts = entry.removeprefix("timed-out-").split("-")
                seen_versions[int(parts[0])].append(entry)
        for version, entries in seen_versions.items():
            if len(entries) > 1:
                report.add("deadline", table_id, None, version,
                           f"timed out twice at one version: {entries}")
    last_end = max((f["end"] for f in faults), default=0.0)
    for table_id, seen in frames.items():
        row = db.tables.get(table_id)
        if row is None:
            continue
        allowed = float(row["turn_seconds"]) + STUCK_SLACK
        moments = sorted(_first_seen(sorted(seen, key=lambda x: x["t"])).items())
        over = any(f["screen"] == "over" for f in seen)
        after = [t for _v, t in moments if t >= last_end]
        marks = [last_end, *after] + ([] if over else [end_t])
        for a, b in itertools.pairwise(marks):
            if b - a > allowed:
                stuck_at = max((v for v, t in moments if t <= a), default=None)
                report.add("deadline", table_id, None, stuck_at,
                           f"no new version for {b - a:.1f} s after the last fault "
                           f"(a turn lasts {row['turn_seconds']} s)")
                break
    if end is not None:
        report.figures["play_seconds"] = end["t"]


def _check_convergence(events: list[dict[str, Any]], faults: list[dict[str, Any]],
                       report: Report) -> None:
    frames: dict[str, list[tuple[float, int]]] = defaultdict(list)
    players: dict[int, set[str]] = defaultdict(set)
    for e in events:
        if e["e"] == "frame":
            frames[e["player"]].append((e["t"], e["version"]))
            players[e["table"]].add(e["player"])
    snapshots = [e for e in events if e["e"] == "snapshot"]
    slowest: list[float] = []
    for number, snap in enumerate(snapshots):
        worst, where = 0.0, None
        for table_key, version in snap["versions"].items():
            table_id = int(table_key)
            for player in players.get(table_id, ()):
                reached = next((t for t, v in frames[player] if v >= version), None)
                took = float("inf") if reached is None else max(0.0, reached - snap["t"])
                if took > worst:
                    worst, where = took, (table_id, player, version)
        slowest.append(worst)
        kind = faults[number]["kind"] if len(snapshots) == len(faults) else ""
        if kind == "redis_failover" and worst > REDIS_CONVERGE_BOUND and where is not None:
            report.add("converge", where[0], None, where[2],
                       f"{where[1]} reached the table's version {worst:.1f} s after the Redis "
                       f"replica's promotion (bound {REDIS_CONVERGE_BOUND:.0f} s)")
        elif number == len(snapshots) - 1 and worst > CONVERGE_BOUND and where is not None:
            report.add("converge", where[0], None, where[2],
                       f"{where[1]} reached the table's version {worst:.1f} s after the last "
                       f"fault's end (bound {CONVERGE_BOUND:.0f} s)")
    report.figures["converge_seconds"] = [round(s, 2) for s in slowest]
    if faults and len(snapshots) == len(faults):
        report.figures["converge_by_fault"] = {
            f"{f['kind']}@{f['start']:.0f}s": round(s, 2)
            for f, s in zip(faults, slowest, strict=True)
        }


def _check_hole_cards(frames: dict[int, list[dict[str, Any]]],
                      replays: dict[tuple[int, int], Replayed], report: Report) -> None:
    checked = 0
    for table_id, seen in frames.items():
        for frame in seen:
            replayed = replays.get((table_id, frame["hand"]))
            if replayed is None or frame["events"] is None or frame["you"] is None:
                continue
            hand = replayed.hand
            shown = {e.seat for e in hand.events[: frame["events"]] if e.kind == SHOW}
            cards = set(frame["cards"])
            checked += 1
            for index, seat in enumerate(hand.seats):
                if seat == frame["you"] or seat in shown:
                    continue
                hidden = {str(c) for c in hand.hole[index]}
                if cards & hidden:
                    report.add("hole_cards", table_id, frame["hand"], frame["version"],
                               f"{frame['player']} (seat {frame['you']}) was shown seat "
                               f"{seat}'s {sorted(cards & hidden)} before they were shown")
    report.figures["frames_checked_for_cards"] = checked


def _check_http(events: list[dict[str, Any]], faults: list[dict[str, Any]],
                report: Report) -> None:
    windows = [(f["start"], f["end"] + HTTP_GRACE, f["kind"]) for f in faults]
    # (the service answers a moment before its start command returns)
    away = [(f["start"] + 2.0, f["end"] - 1.0) for f in faults
            if f["kind"] in ("redis_stop", "pg_fast", "pg_immediate")]
    by_path = {f"/t/{t['code']}/": t["id"] for e in events if e["e"] == "tables"
               for t in e["tables"]}
    asked = bad = 0
    for e in events:
        if e["e"] != "http":
            continue
        asked += 1
        table = by_path.get(e["path"])
        asked_at, answered_at = e["t"], e["t"] + e.get("took", 0.0)
        inside = any(a <= answered_at and asked_at <= b for a, b, _k in windows)
        status = e["status"]
        healthz = e["path"] == "/healthz"
        if not inside and (status >= 500 or status == 0):
            bad += 1
            report.add("http", table, None, None,
                       f"{e['path']} answered {status or 'nothing'} at {e['t']:.1f} s, outside "
                       "every fault window")
        elif inside and (status >= 500 or status == 0) and not e["friendly"] and not (
            healthz and status == 503
        ):
            # during a fault a page still answers: the app's own error page (/healthz: 503)
            bad += 1
            report.add("http", table, None, None,
                       f"{e['path']} answered {status or 'nothing'} at {e['t']:.1f} s without "
                       "the app's own error page")
        if healthz and status == 200 and any(a <= asked_at and answered_at <= b
                                             for a, b in away):
            report.add("http", None, None, None,
                       f"/healthz said 200 at {e['t']:.1f} s while a service it needs was away")
    report.figures["http_asked"] = asked


def when(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")
