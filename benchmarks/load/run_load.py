"""Run the load benchmark: start the servers, seat the players, play, print the report.

    .venv/bin/python -m benchmarks.load.run_load [--players 100 500] [--configs memory redis]
        [--duration 60] [--warmup 5] [--think 0.35,0.6] [--next-hand-pause 0.5]
        [--saturation-next-hand-pause 0] [--redis URL[,URL...]] [--private-redis N]

For each configuration and each number of players it runs four phases, each on fresh tables
and fresh server processes: the tables app at the lively rate (players think ``--think``
seconds before acting: about two actions per second per table), the app at saturation (no
think time), then the bare relay (benchmarks/load/relay_app.py) at the lively rate and at
saturation, with the same sockets, groups and frame size, under the same server and channel
layer. At saturation the next hand is dealt without a pause (``--saturation-next-hand-pause``):
the pause lets people see a hand's result and costs the server nothing, and with it 17 tables
(100 players) sit idle between hands for about half the time, so the phase would measure the
pause instead of the server; the relay has no such pause. Configurations:

- ``memory``: in-memory channel layer, one daphne process, SQLite (a scratch file);
- ``redis``: Redis pub/sub layer (``--redis``) and PostgreSQL (``--postgres``; the database is
  created if missing and flushed before each phase), two daphne processes on two loopback
  ports, each table's players split across both (``--affinity table``: each table on one
  process, as behind a proxy that routes by table code). ``--redis`` may name several servers
  separated by commas (the layer spreads the tables' groups over them); ``--private-redis N``
  starts N servers of the benchmark's own instead.

Players sit six to a table (a last, smaller table takes the rest). Everything listens on
127.0.0.1 only; at most 3,000 players and 10 minutes per phase. Logs and the report are saved
under benchmarks/out/load/. The servers and CPU readings are ``benchmarks.load.processes``; the
report is ``benchmarks.load.load_report``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from benchmarks.load.load_report import Phase, python_speed, report, row
from benchmarks.load.loadgen import (
    MAX_PLAYERS,
    LoadConfig,
    PlayerSpec,
    Result,
    raise_file_limit,
    run_load,
)
from benchmarks.load.processes import OUT, ROOT, Server, machine_busy, named_cpu, servers

PER_TABLE = 6
APP = "config.asgi:application"
RELAY = "benchmarks.load.relay_app:application"


# ------------------------------------------------------------------------------ configurations
@dataclass
class Setup:
    name: str
    title: str
    processes: int
    env: dict[str, str]
    services: tuple[str, ...] = ()  # process names whose CPU is reported ("postgres", ...)


def base_env(args: argparse.Namespace) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "load-benchmark-only-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "TABLES_NEXT_HAND_PAUSE": str(args.next_hand_pause),
        "TABLES_BOT_PAUSE": "0.4,0.8",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def make_setup(name: str, args: argparse.Namespace) -> Setup:
    env = base_env(args)
    if name == "memory":
        env["DATABASE_URL"] = f"sqlite:///{Path(args.sqlite).resolve()}"
        return Setup(name, "(a) in-memory layer, 1 daphne process, SQLite", 1, env)
    pg = urlparse(args.postgres)
    redis = [part.strip() for part in args.redis.split(",") if part.strip()]
    for url, scheme in [(args.postgres, "postgres")] + [(r, "redis") for r in redis]:
        host = urlparse(url).hostname
        if host not in {"127.0.0.1", "localhost"} or not urlparse(url).scheme.startswith(scheme):
            raise SystemExit(f"{url!r}: a loopback {scheme}:// URL please")
    env["DATABASE_URL"] = args.postgres
    env["REDIS_URL"] = ",".join(redis)
    servers_named = f"{len(redis)} Redis servers" if len(redis) > 1 else "Redis"
    title = (
        f"(b) {servers_named} pub/sub layer, PostgreSQL ({pg.path.lstrip('/')}), "
        "2 daphne processes"
    )
    return Setup(name, title, 2, env, ("postgres", "redis-server"))


def manage(setup: Setup, *command: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=setup.env, capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(command)} failed:\n{done.stderr[-3000:]}")


def ensure_database(setup: Setup) -> None:
    if setup.name == "memory":
        path = Path(urlparse(setup.env["DATABASE_URL"]).path)
        for stale in path.parent.glob(path.name + "*"):
            stale.unlink()
        manage(setup, "migrate", "--noinput", "-v", "0")
        assert path.exists()
        return
    import psycopg

    url = urlparse(setup.env["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')
    manage(setup, "migrate", "--noinput", "-v", "0")


def fresh_tables(setup: Setup, players: int) -> list[dict[str, Any]]:
    """Flush the database and create started tables seating ``players`` persons."""
    manage(setup, "flush", "--noinput", "-v", "0")
    target = OUT / f"tables-{setup.name}.json"
    sizes = table_sizes(players)
    made: list[dict[str, Any]] = []
    for persons in sorted(set(sizes)):
        count = sizes.count(persons)
        manage(
            setup, "loadtest_tables", "--tables", str(count), "--persons", str(persons),
            "--seats", str(PER_TABLE), "--turn-seconds", "120", "--output", str(target),
        )
        made.extend(json.loads(target.read_text())["tables"])
    return made


def table_sizes(players: int) -> list[int]:
    """Six players a table; the rest (at least two: a lone person would only play computers)
    sit at one more table."""
    full, rest = divmod(players, PER_TABLE)
    sizes = [PER_TABLE] * full
    if rest == 1 and sizes:
        sizes[-1] -= 1
        rest = 2
    if rest:
        sizes.append(rest)
    return sizes


def pick_port(ports: list[int], table: int, seat: int, affinity: str) -> int:
    """``player``: a table's players alternate between the processes (every table spans every
    process); ``table``: all of a table's players on one process, as a proxy routing the
    websocket path by table code would place them."""
    return ports[(table if affinity == "table" else seat) % len(ports)]


def app_players(
    tables: list[dict[str, Any]], ports: list[int], affinity: str = "player"
) -> list[PlayerSpec]:
    specs = []
    for index, table in enumerate(tables):
        for number, player in enumerate(table["players"]):
            port = pick_port(ports, index, number, affinity)
            specs.append(
                PlayerSpec(
                    # as live.js asks: the page keeps the frame's parts (tables.live.kept)
                    f"ws://127.0.0.1:{port}/ws/t/{table['code']}/?parts=1", str(table["id"]),
                    player["session"],
                )
            )
    return specs


def relay_players(
    players: int, ports: list[int], frame_bytes: int, affinity: str = "player"
) -> list[PlayerSpec]:
    specs = []
    for table, size in enumerate(table_sizes(players)):
        for seat in range(size):
            port = pick_port(ports, table, seat, affinity)
            specs.append(
                PlayerSpec(
                    f"ws://127.0.0.1:{port}/ws/relay/{table}/{seat}/{size}/?bytes={frame_bytes}",
                    f"relay-{table}",
                )
            )
    return specs


# ------------------------------------------------------------------------------ phases
def measure(
    config: LoadConfig, server_list: list[Server], setup: Setup
) -> tuple[Result, float, float]:
    """Run the load; CPU seconds of the servers and of the services during the window."""
    hooks = WindowHooks(server_list, setup.services)
    config = dataclasses.replace(config, on_window=hooks.mark)
    result = asyncio.run(run_load(config, log=print))
    spent = hooks.spent()
    result.machine_cpu = spent["machine"]
    return result, spent["servers"], spent["services"]


class WindowHooks:
    """CPU samples when the window opens and closes: the servers, the services, the machine."""

    def __init__(self, server_list: list[Server], services: tuple[str, ...]) -> None:
        self.server_list = server_list
        self.services = services
        self.marks: list[tuple[float, float, float]] = []

    def mark(self) -> None:
        servers_now = sum(s.cpu() for s in self.server_list)
        services_now = named_cpu(self.services) if self.services else 0.0
        self.marks.append((servers_now, services_now, machine_busy()))

    def spent(self) -> dict[str, float]:
        if len(self.marks) < 2:
            nan = float("nan")
            return {"servers": nan, "services": nan, "machine": nan}
        (a0, b0, c0), (a1, b1, c1) = self.marks[0], self.marks[1]
        return {"servers": a1 - a0, "services": b1 - b0, "machine": c1 - c0}


def run_setup(setup: Setup, counts: list[int], args: argparse.Namespace) -> list[Phase]:
    ensure_database(setup)
    think = parse_think(args.think)
    phases: list[Phase] = []
    for players in counts:
        frame_bytes = args.frame_bytes
        for mode in ("lively", "saturation"):
            if args.lively_only and mode != "lively":
                continue
            tables = fresh_tables(setup, players)
            pause = args.next_hand_pause if mode == "lively" else args.saturation_next_hand_pause
            env = {**setup.env, "TABLES_NEXT_HAND_PAUSE": str(pause)}
            with servers(APP, setup.processes, env, f"{setup.name}-app") as running:
                config = LoadConfig(
                    app_players(tables, [s.port for s in running], args.affinity),
                    think=think if mode == "lively" else (0.0, 0.0),
                    warmup=args.warmup, duration=args.duration, seed=args.seed,
                    compression=args.compression, chat_every=args.chat_every,
                )
                print(f"{setup.name}: tables app, {players} players, {mode}", flush=True)
                result, server_cpu, service_cpu = measure(config, running, setup)
            phases.append(Phase(setup.name, players, "app", mode, result, server_cpu, service_cpu))
            print("  " + row(phases[-1]), flush=True)
            if mode == "lively" and not frame_bytes:
                frame_bytes = round(result.frame_bytes) or 4000
        if args.lively_only and args.no_relay:
            continue
        relay_env = {**setup.env, "DJANGO_SETTINGS_MODULE": "benchmarks.load.relay_settings"}
        with servers(RELAY, setup.processes, relay_env, f"{setup.name}-relay") as running:
            for mode in ("lively", "saturation"):
                if args.lively_only and mode != "lively":
                    continue
                config = LoadConfig(
                    relay_players(players, [s.port for s in running], frame_bytes, args.affinity),
                    think=think if mode == "lively" else (0.0, 0.0),
                    warmup=args.warmup, duration=args.duration, seed=args.seed,
                    compression=args.compression,
                )
                print(f"{setup.name}: relay, {players} players, {mode}", flush=True)
                result, server_cpu, service_cpu = measure(config, running, setup)
                phases.append(
                    Phase(setup.name, players, "relay", mode, result, server_cpu, service_cpu)
                )
                print("  " + row(phases[-1]), flush=True)
    return phases


def parse_think(text: str) -> tuple[float, float]:
    parts = [float(p) for p in text.split(",")]
    low, high = (parts[0], parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    if not 0 <= low <= high <= 10:
        raise SystemExit("--think: seconds low,high between 0 and 10")
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--configs", nargs="+", choices=["memory", "redis"],
                        default=["memory", "redis"])
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", default="0.35,0.6", help="lively think time, seconds low,high")
    parser.add_argument("--next-hand-pause", type=float, default=0.5,
                        help="TABLES_NEXT_HAND_PAUSE for the app servers (lively phases)")
    parser.add_argument("--saturation-next-hand-pause", type=float, default=0.0,
                        help="TABLES_NEXT_HAND_PAUSE at saturation (0: the next hand at the "
                        "clock's next tick)")
    parser.add_argument("--frame-bytes", type=int, default=0,
                        help="relay frame size (default: the app's mean frame in the same run)")
    parser.add_argument("--sqlite", default=str(OUT / "bench.sqlite3"),
                        help="the scratch SQLite file of the memory configuration (recreated)")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/holdem_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                        help="the Redis server, or several separated by commas")
    parser.add_argument(
        "--private-redis", type=int, default=0, choices=[0, 1, 2, 3, 4],
        help="start this many redis-server processes of the benchmark's own on free ports "
        "and use them instead of --redis (nobody else's traffic on them)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--affinity", choices=["player", "table"], default="player",
        help="with several processes: alternate each table's players between them (player) "
        "or keep each table on one process (table, like a proxy routing by table code)",
    )
    parser.add_argument(
        "--compression", action="store_true",
        help="players offer permessage-deflate, as browsers do (config/compression.py); the "
        "relay's frames, padding, then cost it next to nothing",
    )
    parser.add_argument(
        "--chat-every", type=float, default=0.0,
        help="table talk (issue 17): one chat line per table every this many seconds in the "
        "app's phases, each player in turn (0: none, as in every run before table talk)",
    )
    parser.add_argument("--lively-only", action="store_true",
                        help="only the lively phases (no saturation)")
    parser.add_argument("--no-relay", action="store_true",
                        help="with --lively-only: the app alone, no relay phase")
    args = parser.parse_args()
    for players in args.players:
        if not 2 <= players <= MAX_PLAYERS:
            raise SystemExit(f"--players: 2 to {MAX_PLAYERS}")
    if not 0 < args.duration + args.warmup <= 590:
        raise SystemExit("--duration + --warmup: at most 590 s per phase")
    OUT.mkdir(parents=True, exist_ok=True)
    raise_file_limit(max(args.players) + 256)  # before the servers start: they inherit it
    args.load_at_start = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    args.speed_at_start = python_speed()
    with contextlib.ExitStack() as stack:
        if args.private_redis:
            from benchmarks.load.private_redis import redis_servers

            private = stack.enter_context(redis_servers(args.private_redis))
            args.redis = ",".join(server.url for server in private)
        setups = [make_setup(name, args) for name in args.configs]
        phases: list[Phase] = []
        for setup in setups:
            phases += run_setup(setup, args.players, args)
    text = report([(setup.name, setup.title) for setup in setups], phases, args)
    print()
    print(text)
    saved = OUT / f"report-{datetime.now():%Y%m%d-%H%M%S}.txt"
    saved.write_text(text + "\n")
    print(f"saved to {saved.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
