"""The checker's ``lost`` and ``twice`` invariants (see ``benchmarks.chaos.checker``): each action
a client was told counted against the table's history, from the version it was sent on (mapped
to a hand and its actions by the frames), and every action of a person's seat explained by one of
their taps or their own time-out."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from benchmarks.chaos.evidence import Breach, Database, Replayed, Report
from engine.actions import ActionKind

TIMEOUT_SLACK = 1.5  # a time-out fires a turn's time after the turn began, give or take this


def version_map(
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


def fill_places(report: Report, at_version: dict[tuple[int, int], tuple[int, int]]) -> None:
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


def first_seen(frames: list[dict[str, Any]]) -> dict[int, float]:
    seen: dict[int, float] = {}
    for frame in frames:
        seen.setdefault(frame["version"], frame["t"])
    return seen


def unanswered(sends: dict[str, list[dict[str, Any]]],
                fates: dict[str, list[dict[str, Any]]]) -> set[tuple[int, int, int, str]]:
    """(table, version, seat, kind) of the taps that have no fate at all: sent as play ended
    (the record stops before the answer), their action may well be in the history."""
    return {(s["table"], s["version"], s["seat"], s["kind"])
            for action_id, sent in sends.items() if action_id not in fates
            for s in sent[:1] if s["kind"] != "sync"}


def check_actions(
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
    unfated = unanswered(sends, fates)
    timeouts = 0
    for table_id, table in db.tables.items():
        # Only frames received live: the first frame on a new socket is a catch-up, and two
        # versions first seen in one catch-up say nothing of how long the turn lasted.
        seen_at = first_seen(sorted((f for f in frames.get(table_id, [])
                                     if id(f) not in catch_ups), key=lambda f: f["t"]))
        turn = float(table["turn_seconds"])
        shown_away = away_by_version(frames.get(table_id, []))
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
                if version is None or version not in seen_at or (
                    version + 1 not in seen_at
                ):
                    in_row[action.seat] = 0  # not seen whole: nothing to say
                    continue
                waited = seen_at[version + 1] - seen_at[version]
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


def away_by_version(frames: list[dict[str, Any]]) -> dict[int, set[int]]:
    """version -> the seats drawn away in the frames of that version (only versions some frame
    drew its seats at: a record from before frames carried ``away`` has none)."""
    out: dict[int, set[int]] = {}
    for frame in frames:
        if frame.get("away") is not None:
            out.setdefault(frame["version"], set()).update(frame["away"])
    return out
