"""The checker's invariants of time and of the services (see ``benchmarks.chaos.checker``):
``deadline`` (every deadline fired once, no table stuck), ``converge`` (every player has the
table's version soon after a fault's end) and ``http`` (no 5xx outside the fault windows,
/healthz honest)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

from benchmarks.chaos.check_actions import first_seen
from benchmarks.chaos.evidence import Database, Report

CONVERGE_BOUND = 5.0  # seconds after a fault's end
REDIS_CONVERGE_BOUND = 3.0  # seconds after a Sentinel promoted the Redis replica
STUCK_SLACK = 10.0  # seconds beyond a turn's time
HTTP_GRACE = 5.0  # seconds after a fault's end still inside its window (pools reconnect)


def check_deadlines(
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
        moments = sorted(first_seen(sorted(seen, key=lambda x: x["t"])).items())
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


def check_convergence(events: list[dict[str, Any]], faults: list[dict[str, Any]],
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


def check_http(events: list[dict[str, Any]], faults: list[dict[str, Any]],
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
