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
127.0.0.1 only; at most 1,000 players and 10 minutes per phase. Logs and the report are saved
under benchmarks/out/load/.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import platform
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from benchmarks.load.loadgen import MAX_PLAYERS, LoadConfig, PlayerSpec, Result, run_load
from tests.helpers.servers import free_port, stop_process

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "out" / "load"
BIN = Path(sys.executable).parent
PER_TABLE = 6
APP = "config.asgi:application"
RELAY = "benchmarks.load.relay_app:application"


# ------------------------------------------------------------------------------ processes
def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"no server answered on port {port} within {timeout:.0f} s")


@contextlib.contextmanager
def servers(app: str, count: int, env: dict[str, str], label: str) -> Iterator[list[Server]]:
    """``count`` daphne processes serving ``app`` on loopback ports; stopped on exit."""
    started: list[Server] = []
    try:
        for number in range(count):
            port = free_port()
            log = open(OUT / f"{label}-{number}.log", "ab")  # noqa: SIM115 (closed below)
            process = subprocess.Popen(
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "-v", "0", app],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
            started.append(Server(port, process, log))
        for server in started:
            wait_for_port(server.port, server.process)
        yield started
    finally:
        for server in started:
            stop(server)


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: object

    def cpu(self) -> float:
        return process_cpu(self.process.pid)


def stop(server: Server) -> None:
    if server.process.poll() is None:
        stop_process(server.process, 15)
    server.log.close()  # type: ignore[attr-defined]


_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, children: bool = False) -> float:
    """CPU seconds (user + system, all threads) a process has used; 0 if it is gone. With
    ``children``, also what its exited children used (PostgreSQL's closed connections)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICKS


def named_cpu(names: tuple[str, ...]) -> float:
    """CPU seconds used so far by every process with one of these names (database, Redis)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm", encoding="utf-8") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if name in names:
            total += process_cpu(int(entry), children=True)
    return total


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
                    f"ws://127.0.0.1:{port}/ws/t/{table['code']}/", str(table["id"]),
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


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, every process)."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / _TICKS


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


# ------------------------------------------------------------------------------ report
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


def report(setups: list[Setup], phases: list[Phase], args: argparse.Namespace) -> str:
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
    for setup in setups:
        lines += [setup.title, HEADER]
        counts = sorted({p.players for p in phases if p.setup == setup.name})
        for players in counts:
            for app, mode in (
                ("app", "lively"), ("relay", "lively"), ("app", "saturation"),
                ("relay", "saturation"),
            ):
                phase = find(phases, setup.name, players, app, mode)
                if phase:
                    lines.append(row(phase))
        for players in counts:
            lines += verdicts(phases, setup.name, players)
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
    text = report(setups, phases, args)
    print()
    print(text)
    saved = OUT / f"report-{datetime.now():%Y%m%d-%H%M%S}.txt"
    saved.write_text(text + "\n")
    print(f"saved to {saved.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
