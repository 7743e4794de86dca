"""What an open socket holds in a server process: resident memory and Python's allocations.

    .venv/bin/python -m benchmarks.socket_memory [--players 300] [--settle 5] [--frames 8]
        [--play 0] [--think 1,2] [--runs both] [--postgres postgres://postgres@127.0.0.1:5432/holdem_scale_bench]

One Daphne process of the production stack (PostgreSQL, this benchmark's own Redis, phones
offering permessage-deflate as browsers do) with ``tracemalloc`` on (``--frames`` frames a
trace), started on tables made as ``unit_costs`` makes them. Its memory is read idle, then with
every player connected and drawn once and nobody acting (``--settle`` seconds after the last
connection), and the allocations alive then are compared with those of the idle process: the
report lists the resident bytes per socket and the 25 places (their last frames) that hold the
most of the difference, per socket. tracemalloc costs memory itself, so the resident figure is
read in a second run without it (``--no-trace``, the default first). Reports go to
benchmarks/out/socket_memory/.

``--play SECONDS``: the phones play that long first (each acting ``--think`` seconds after its
turn comes, as ``unit_costs``' load generator does), so what grows with play is counted too;
the report then also says what the tables app's caches hold (``benchmarks.load.held_asgi``:
the versions held, their memo by kind of entry, the kept drawings, the logs...), in KiB per
socket and per table, each object counted for the first holder reaching it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import tempfile
import time
import tracemalloc
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.load import run_load as rl
from benchmarks.load.loadgen import LoadConfig, run_load
from benchmarks.load.private_redis import redis_servers
from benchmarks.load.processes import OUT as LOAD_OUT
from benchmarks.load.processes import ROOT, servers
from benchmarks.unit_costs import rss

OUT = ROOT / "benchmarks" / "out" / "socket_memory"
HELD_APP = "benchmarks.load.held_asgi:application"  # counted_asgi's, and the caches' holdings
HELD_SIGNAL = signal.SIGRTMIN + 1  # held_asgi's (not imported: that would set Django up here)


def _snapshot(pid: int, folder: Path, seq: int) -> tracemalloc.Snapshot:
    os.kill(pid, signal.SIGUSR2)
    target = folder / f"{pid}-{seq}.tracemalloc"
    deadline = time.monotonic() + 60
    while not target.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the server wrote no tracemalloc snapshot")
        time.sleep(0.1)
    return tracemalloc.Snapshot.load(str(target))


def _held(pid: int, folder: Path, seq: int) -> dict[str, Any]:
    """What the caches hold and the allocators' figures (``benchmarks.load.held_asgi``)."""
    os.kill(pid, HELD_SIGNAL)
    target = folder / f"{pid}-held-{seq}.json"
    deadline = time.monotonic() + 60
    while not target.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the server wrote no holdings")
        time.sleep(0.1)
    found: dict[str, Any] = json.loads(target.read_text())
    return found


def allocator_lines(figures: dict[str, int], idle: dict[str, int], sockets: int) -> list[str]:
    """The allocators' figures, connected against idle, in KiB per socket."""
    lines = ["The allocators (KiB per socket, connected less idle; MB connected):"]
    for name, value in figures.items():
        grown = value - idle.get(name, 0)
        lines.append(f"  {grown / sockets / 1024:8.1f} {value / 1e6:8.1f}  {name}")
    return lines


def held_lines(held: dict[str, Any], sockets: int) -> list[str]:
    """The caches' holdings, biggest first, in KiB per socket and per table."""
    tables = max(int(held.get("tables", 0)), 1)
    lines = [
        f"What the tables app's caches hold: {held.get('tables')} tables, "
        f"{held.get('versions')} versions held (KiB per socket, KiB per table, entries, "
        "bytes an entry):"
    ]
    parts = {k: v for k, v in held.items() if isinstance(v, dict)}
    total = sum(v["bytes"] for v in parts.values())
    for name, value in sorted(parts.items(), key=lambda kv: -kv[1]["bytes"]):
        size, entries = value["bytes"], value["entries"]
        lines.append(
            f"  {size / sockets / 1024:7.2f} {size / tables / 1024:8.1f} {entries:7d} "
            f"{size / max(entries, 1):8.0f}  {name}"
        )
    lines.append(
        f"  {total / sockets / 1024:7.2f} {total / tables / 1024:8.1f}  in all"
    )
    return lines


def measure(args: argparse.Namespace, trace: bool) -> list[str]:
    with redis_servers(1) as redis, tempfile.TemporaryDirectory() as counts:
        env = rl.base_env(args)
        env.update({
            "DATABASE_URL": args.postgres, "REDIS_URL": redis[0].url,
            "REDIS_PREFIX": "socketmemory", "BENCH_COUNTS_DIR": counts,
            "BENCH_TRACEMALLOC": str(args.frames) if trace else "",
            "BENCH_TRIM": "" if trace else "1",  # malloc_trim's answer: once, the last look
        })
        setup = rl.Setup("redis", "socket memory", 1, env, ("postgres",))
        rl.ensure_database(setup)
        tables = rl.fresh_tables(setup, args.players)
        with servers(HELD_APP, 1, env, "socket-memory") as running:
            server = running[0]
            time.sleep(3)
            idle = rss(server.process.pid)
            idle_held = _held(server.process.pid, Path(counts), 1)
            before = _snapshot(server.process.pid, Path(counts), 1) if trace else None
            held: dict[str, object] = {}

            def opened() -> None:
                held["rss"] = rss(server.process.pid)
                if trace:
                    held["after"] = _snapshot(server.process.pid, Path(counts), 2)
                held["held"] = _held(server.process.pid, Path(counts), 2)

            # Nobody acts (a think longer than the run), or everyone plays ``--play`` seconds.
            think = rl.parse_think(args.think) if args.play else (500.0, 500.0)
            config = LoadConfig(
                rl.app_players(tables, [server.port], "table"), think=think,
                warmup=args.settle + args.play, duration=1.0, seed=1, compression=True,
                on_window=opened,
                connect_batch=10 if trace else 50,
            )
            result = asyncio.run(run_load(config))
    sockets = max(result.connected, 1)
    grown = int(held["rss"]) - idle  # type: ignore[call-overload]
    lines = [
        f"{'with' if trace else 'without'} tracemalloc: {result.connected} sockets, "
        f"{len(tables)} tables, played {args.play:g} s ({result.actions} actions in the "
        f"last second); resident {idle / 1e6:.1f} MB idle, "
        f"{int(held['rss']) / 1e6:.1f} MB connected: "  # type: ignore[call-overload]
        f"{grown / sockets / 1024:.1f} KiB per socket",
    ]
    found: dict[str, Any] = held["held"]  # type: ignore[assignment]
    lines += allocator_lines(found["allocator"], idle_held["allocator"], sockets)
    lines += held_lines(found["holdings"], sockets)
    if before is not None:
        after: tracemalloc.Snapshot = held["after"]  # type: ignore[assignment]
        diff = after.compare_to(before, "traceback")
        total = sum(d.size_diff for d in diff)
        lines.append(
            f"Python allocations alive: {total / sockets / 1024:+.1f} KiB per socket; the 25 "
            "places holding the most of it (KiB per socket, blocks per socket, last frames):"
        )
        for stat in diff[:25]:
            frames = " <- ".join(
                f"{Path(f.filename).name}:{f.lineno}" for f in reversed(stat.traceback[-6:])
            )
            lines.append(
                f"  {stat.size_diff / sockets / 1024:7.2f} {stat.count_diff / sockets:7.1f}  "
                f"{frames}"
            )
        lines.append("By the file that allocated (KiB per socket, blocks per socket):")
        for stat in after.compare_to(before, "filename")[:20]:
            name = stat.traceback[0].filename.split("site-packages/")[-1]
            lines.append(
                f"  {stat.size_diff / sockets / 1024:7.2f} {stat.count_diff / sockets:7.1f}  "
                f"{name}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--next-hand-pause", type=float, default=5.0)
    parser.add_argument("--play", type=float, default=0.0,
                        help="seconds of play before the measure (0: nobody acts)")
    parser.add_argument("--think", default="1,2", help="with --play: seconds low,high")
    parser.add_argument("--runs", choices=["both", "resident", "trace"], default="both",
                        help="the run without tracemalloc (resident bytes), with it, or both")
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/holdem_scale_bench")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    LOAD_OUT.mkdir(parents=True, exist_ok=True)
    runs = {"both": (False, True), "resident": (False,), "trace": (True,)}[args.runs]
    text = "\n\n".join("\n".join(measure(args, trace=trace)) for trace in runs)
    print(text)
    saved = OUT / f"report-{datetime.now():%Y%m%d-%H%M%S}.txt"
    saved.write_text(text + "\n")
    print(f"saved to {saved.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
