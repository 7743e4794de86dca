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
- ``parts``: every frame sent as kept parts (``tables.live.kept``; the clients keep them as
  static/js/live.js does) is made whole from the parts sent before it on its socket;
- ``http``: no 5xx (nor no answer) outside the fault windows; inside them any 5xx is the app's
  own error page, and /healthz says 503 while PostgreSQL or Redis is away.

Which version an action was made at comes from the frames: each carries the hand's event
count (``#last-line``'s ``data-announce-id``), and replaying the hand gives the event count after
each action, so a version maps to (hand, actions so far).

This module checks ``chips``, ``replay`` and ``hole_cards`` and runs the rest:
``benchmarks.chaos.check_actions`` checks ``lost`` and ``twice``, ``benchmarks.chaos.check_timing``
``deadline``, ``converge`` and ``http``; what is read and reported is ``benchmarks.chaos.evidence``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from benchmarks.chaos.check_actions import check_actions, fill_places, version_map
from benchmarks.chaos.check_timing import check_convergence, check_deadlines, check_http
from benchmarks.chaos.evidence import Breach, Database, Replayed, Report, replay_steps
from engine.blinds import STARTING_STACK
from engine.events import SHOW
from engine.history import HistoryError


def check(events: list[dict[str, Any]], db: Database) -> Report:
    report = Report()
    faults = [e for e in events if e["e"] == "fault"]
    end = next((e for e in events if e["e"] == "end"), None)
    end_t = end["t"] if end else max((e["t"] for e in events), default=0.0)
    replays = check_hands(db, report)
    frames_by_table: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e["e"] == "frame":
            frames_by_table[e["table"]].append(e)
    at_version = version_map(frames_by_table, replays, report)
    check_actions(events, db, replays, at_version, frames_by_table, report)
    check_deadlines(events, db, frames_by_table, faults, end, end_t, report)
    check_convergence(events, faults, report)
    check_hole_cards(frames_by_table, replays, report)
    check_http(events, faults, report)
    for e in events:
        if e["e"] == "unmade":
            report.breaches.append(Breach("parts", e["table"], None, None,
                                          f"{e['player']}: a part not kept: {e['text']}"))
    fill_places(report, at_version)
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


def check_hands(db: Database, report: Report) -> dict[tuple[int, int], Replayed]:
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


def check_hole_cards(frames: dict[int, list[dict[str, Any]]],
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


def _stacks(value: Any) -> dict[int, int]:
    if isinstance(value, dict):
        return {int(k): int(v) for k, v in value.items()}
    return {}
