"""The load benchmark's report: one phase's figures (``Phase``), its row in the table, the
verdicts against the targets, and the whole report with the machine's speed."""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from benchmarks.load.loadgen import Result


@dataclass
class Phase:
    setup: str
    players: int
    app: str  # "app" or "relay"
    mode: str  # "lively" or "saturation"
    result: Result
    server_cpu: float  # seconds during the window, all server processes
    service_cpu: float  # PostgreSQL + Redis
    extra: dict[str, float] = field(default_factory=dict)


HEADER = (
    f"{'players':>7} {'tables':>6} {'server':<6} {'mode':<10} {'actions/s':>9} {'/table':>6} "
    f"{'deliv/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} {'frame B':>7} "
    f"{'cpu s: gen/srv/db+redis/other':>29}  notes"
)


def row(phase: Phase) -> str:
    r = phase.result
    notes = []
    if r.connected < r.players:
        notes.append(f"{r.players - r.connected} not connected")
    if r.refusals:
        notes.append("refused " + ",".join(f"{k}:{v}" for k, v in sorted(r.refusals.items())))
    if r.unfinished:
        notes.append(f"{r.unfinished} actions not seen by all")
    if r.finished_tables:
        notes.append(f"{r.finished_tables} games ended")
    if r.disconnects:
        notes.append(f"{r.disconnects} disconnects")
    if r.chat_sent:
        notes.append(
            f"chat: {r.chat_sent / r.window:.0f} lines/s sent, "
            f"{r.chat_frames / r.window:.0f} chat frames/s received"
        )
    other = r.machine_cpu - r.cpu_seconds - phase.server_cpu - phase.service_cpu
    cpu = f"{r.cpu_seconds:.0f}/{phase.server_cpu:.0f}/{phase.service_cpu:.0f}/{other:.0f}"
    return (
        f"{r.players:>7} {r.tables:>6} {phase.app:<6} {phase.mode:<10} {r.actions_per_s:>9.1f} "
        f"{r.actions_per_s / r.tables:>6.2f} {r.deliveries_per_s:>8.0f} {r.percentile(50):>7.1f} "
        f"{r.percentile(95):>7.1f} {r.percentile(99):>7.1f} {r.percentile(100):>7.1f} "
        f"{r.frame_bytes:>7.0f} {cpu:>29}  {'; '.join(notes)}"
    )


def find(phases: list[Phase], setup: str, players: int, app: str, mode: str) -> Phase | None:
    return next(
        (
            p for p in phases
            if (p.setup, p.players, p.app, p.mode) == (setup, players, app, mode)
        ),
        None,
    )


def report(
    setups: Sequence[tuple[str, str]], phases: list[Phase], args: argparse.Namespace
) -> str:
    """The whole report: ``setups`` are the configurations run, each (name, title)."""
    lines = [
        f"Load benchmark, {datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, loopback; load average when it started: "
        f"{args.load_at_start}; machine speed: {args.speed_at_start:.2f} s for ten million "
        f"Python additions at the start, {python_speed():.2f} s at the end (lower is faster)",
        f"window {args.duration:.0f} s after {args.warmup:.0f} s warm-up per phase; lively "
        f"think time {args.think} s, no think time at saturation; next hand after "
        f"{args.next_hand_pause} s (at saturation: {args.saturation_next_hand_pause} s); "
        f"{'players offer permessage-deflate (--compression); ' if args.compression else ''}"
        f"{f'one chat line per table every {args.chat_every:g} s; ' if args.chat_every else ''}"
        "with several processes, "
        + ("each table's players all on one process (--affinity table)"
           if args.affinity == "table" else "each table's players alternate between them"),
        "latency: a player's action -> every player at the table has a frame with the new "
        "version; deliv/s: frames received per second by all sockets",
        f"cpu s: CPU seconds used during the window by the load generator, the servers, "
        f"PostgreSQL + Redis, and everything else on the machine (out of "
        f"{(os.cpu_count() or 1) * args.duration:.0f} available)",
        "",
    ]
    for name, title in setups:
        lines += [title, HEADER]
        counts = sorted({p.players for p in phases if p.setup == name})
        for players in counts:
            for app, mode in (
                ("app", "lively"), ("relay", "lively"), ("app", "saturation"),
                ("relay", "saturation"),
            ):
                phase = find(phases, name, players, app, mode)
                if phase:
                    lines.append(row(phase))
        for players in counts:
            lines += verdicts(phases, name, players)
        lines.append("")
    return "\n".join(lines)


def verdicts(phases: list[Phase], setup: str, players: int) -> list[str]:
    out = []
    app_sat = find(phases, setup, players, "app", "saturation")
    relay_sat = find(phases, setup, players, "relay", "saturation")
    if app_sat and relay_sat and relay_sat.result.deliveries_per_s:
        ratio = app_sat.result.deliveries_per_s / relay_sat.result.deliveries_per_s
        out.append(
            f"  {players} players, saturation: app {app_sat.result.deliveries_per_s:.0f} / relay "
            f"{relay_sat.result.deliveries_per_s:.0f} deliveries/s = {ratio:.2f} of the relay "
            f"(target >= 0.33: {'met' if ratio >= 1 / 3 else 'NOT met'})"
        )
    app_live = find(phases, setup, players, "app", "lively")
    relay_live = find(phases, setup, players, "relay", "lively")
    if app_live and relay_live:
        p99 = app_live.result.percentile(99)
        target = (
            f" (target < 150 ms: {'met' if p99 < 150 else 'NOT met'})" if players >= 500 else ""
        )
        out.append(
            f"  {players} players, lively: app p99 {p99:.1f} ms at "
            f"{app_live.result.actions_per_s / app_live.result.tables:.2f} actions/s per table; "
            f"relay p99 {relay_live.result.percentile(99):.1f} ms; app/relay p99 = "
            f"{p99 / relay_live.result.percentile(99):.1f}x{target}"
        )
    return out


def python_speed() -> float:
    """Seconds this machine takes for a plain Python loop (ten million additions), best of
    three: how fast the machine is at the moment. Ratios against the relay compare across
    runs; absolute figures (latency at the lively rate) only between runs of similar speed."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for number in range(10_000_000):
            total += number
        best = min(best, time.perf_counter() - start)
    return best


