"""What one player, one action and one table-hour cost at a human pace (issue 28).

    .venv/bin/python -m benchmarks.unit_costs [--players 500 1000 2000] [--duration 120]
        [--warmup 20] [--think 3.5,4.5] [--next-hand-pause 5] [--chat-every 20]
        [--redis-servers 1] [--restart-redis-at 0] [--retention]
        [--postgres postgres://postgres@127.0.0.1:5432/holdem_scale_bench]

The production stack of the load benchmark (benchmarks/load/run_load.py, "redis"): two Daphne
processes, each table's players all on one of them (as nginx routes ``/ws/t/CODE/`` by path),
PostgreSQL, and Redis pub/sub, here one or more ``redis-server`` processes of this benchmark's
own on free loopback ports (so nobody else's traffic is counted). Players offer
permessage-deflate as browsers do. Every player thinks ``--think`` seconds before acting (a
table of six then acts about once every 4 s), the next hand is dealt after the production
pause (5 s), and one chat line is said per table every ``--chat-every`` seconds.

Measured over the window, from the start of the window to its end:

- server CPU (both processes, /proc), per action and per table-hour;
- SQL statements the servers sent (counted by benchmarks/load/counted_asgi.py, by first word),
  PostgreSQL transactions and rows written (pg_stat_database of the benchmark's database);
- WAL bytes: the whole cluster's (``pg_current_wal_lsn`` difference, which counts other
  databases on a shared server) and the benchmark database's own share (pg_waldump over the
  same range: records naming the database, and the commits of their transactions);
- Redis: commands, PUBLISH calls and bytes in and out (INFO of the benchmark's servers);
- server memory (resident, both processes): idle before the players connect and with every
  player connected, per open socket;
- after the run (servers stopped), the stored bytes (``pg_column_size`` of the rows, and the
  relations on disk with indexes) of tables, seats, hands and table talk / log, per finished
  hand.

``--restart-redis-at S`` stops the last Redis server S seconds into the window and starts it
again on the same port right away (what the tables it carries see is in the report: actions
not seen by everyone, reconnections, the longest wait). ``--retention`` finally marks every
game as ended 100 days ago and runs ``manage.py delete_old_games``, measuring what it frees.

Up to 3,000 players. One load-generator process reads every socket (about a tenth of a core
at 2,000 players); the console says how late its loop woke in the window, its own share of
the latency (large when the machine is busy). Reports go to benchmarks/out/unit_costs/.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from benchmarks import profile_shares
from benchmarks.load import processes
from benchmarks.load import run_load as rl
from benchmarks.load.loadgen import MAX_PLAYERS, LoadConfig, Result, raise_file_limit, run_load
from benchmarks.load.pg_counters import lsn_bytes, own_wal_bytes, pg_counters, sql, stored_sizes
from benchmarks.load.private_redis import Redis, redis_servers

ROOT = processes.ROOT
OUT = ROOT / "benchmarks" / "out" / "unit_costs"
PROFILES = OUT / "profiles"
COUNTED_APP = "benchmarks.load.counted_asgi:application"
# ------------------------------------------------------------------------------ servers
def rss(pid: int) -> int:
    """Resident bytes of a process (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def statement_counts(servers: list[processes.Server], counts_dir: Path) -> dict[str, Counter[str]]:
    """Ask each server for its counts (SIGUSR1: statements by first word, by shape and sender,
    transactions by kind and sender; benchmarks/load/counted_asgi.py) and add them up."""
    total: dict[str, Counter[str]] = {
        "counts": Counter(), "shapes": Counter(), "transactions": Counter(),
    }
    for server in servers:
        target = counts_dir / f"{server.process.pid}.json"
        before = json.loads(target.read_text())["seq"] if target.exists() else 0
        server.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, KeyError):
                data = json.loads(target.read_text())
                if data["seq"] > before:
                    for key, counter in total.items():
                        counter.update(data.get(key, {}))
                    break
            time.sleep(0.02)
        else:
            raise RuntimeError(f"server {server.port} did not write its statement counts")
    return total


@dataclasses.dataclass
class Sample:
    server_cpu: float
    redis_cpu: float
    machine_cpu: float
    pg: dict[str, Any]
    redis: dict[str, float]
    statements: Counter[str]
    shapes: Counter[str]
    transactions: Counter[str]
    rss: int
    publish_by_server: list[float]


class Window:
    """Samples when the window opens and closes (LoadConfig.on_window)."""

    def __init__(
        self, servers: list[processes.Server], redis: list[Redis], url: str, counts_dir: Path
    ) -> None:
        self.servers, self.redis, self.url, self.counts_dir = servers, redis, url, counts_dir
        self.samples: list[Sample] = []
        # (folder, label, seconds): py-spy records every server over the window
        self.profile: tuple[Path, str, float, bool] | None = None
        self.profiling: profile_shares.Recording | None = None

    def sample(self) -> Sample:
        redis: Counter[str] = Counter()
        by_server = []
        for server in self.redis:
            counters = server.counters()
            redis.update(counters)
            by_server.append(counters["publish"])
        counts = statement_counts(self.servers, self.counts_dir)
        return Sample(
            server_cpu=sum(s.cpu() for s in self.servers),
            redis_cpu=sum(r.cpu() for r in self.redis),
            machine_cpu=processes.machine_busy(),
            pg=pg_counters(self.url),
            redis=dict(redis),
            statements=counts["counts"], shapes=counts["shapes"],
            transactions=counts["transactions"],
            rss=sum(rss(s.process.pid) for s in self.servers),
            publish_by_server=by_server,
        )

    def mark(self) -> None:
        self.samples.append(self.sample())
        if len(self.samples) == 1 and self.profile is not None:
            folder, label, seconds, gil = self.profile
            self.profiling = profile_shares.Recording(
                [s.process.pid for s in self.servers], folder, label, seconds, rate=200, gil=gil
            )

    def close(self) -> list[Path]:
        """Wait for the profilers (if any) to write their files; their paths."""
        return self.profiling.wait() if self.profiling is not None else []


def restart_later(server: Redis, after: float, log: list[str]) -> threading.Thread:
    def run() -> None:
        time.sleep(after)
        started = time.monotonic()
        server.stop()
        server.start()
        log.append(f"Redis on port {server.port} stopped and started again "
                   f"(down {time.monotonic() - started:.2f} s)")

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


# ------------------------------------------------------------------------------ one run
def measure(players: int, args: argparse.Namespace) -> dict[str, Any]:
    OUT.mkdir(parents=True, exist_ok=True)
    processes.OUT.mkdir(parents=True, exist_ok=True)
    with redis_servers(args.redis_servers) as redis, tempfile.TemporaryDirectory() as counts:
        env = rl.base_env(args)
        env.update({
            "DATABASE_URL": args.postgres,
            "REDIS_URL": ",".join(r.url for r in redis),
            "REDIS_PREFIX": "unitcosts",
            "TABLES_NEXT_HAND_PAUSE": str(args.next_hand_pause),
            "TABLES_BOT_PAUSE": "0.8,2.5",
            "BENCH_COUNTS_DIR": counts,
            "BENCH_DETAIL": "1" if args.detail else "",
        })
        setup = rl.Setup("redis", "unit costs", 2, env, ("postgres",))
        rl.ensure_database(setup)
        tables = rl.fresh_tables(setup, players)
        sql(args.postgres, "VACUUM ANALYZE")
        with processes.servers(COUNTED_APP, 2, env, f"unit-{players}") as running:
            time.sleep(2)  # settled: imports done, clocks running
            idle_rss = sum(rss(s.process.pid) for s in running)
            window = Window(running, redis, args.postgres, Path(counts))
            stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
            if args.profile:
                window.profile = (PROFILES, f"{stamp}-{players}", args.duration, args.profile_gil)
            config = LoadConfig(
                rl.app_players(tables, [s.port for s in running], "table"),
                think=rl.parse_think(args.think), warmup=args.warmup, duration=args.duration,
                seed=args.seed, compression=True, chat_every=args.chat_every,
                on_window=window.mark,
            )
            events: list[str] = []
            if args.restart_redis_at:
                loop_started = time.monotonic()

                def start_timer() -> None:
                    window.mark()
                    if len(window.samples) == 1:
                        restart_later(redis[-1], args.restart_redis_at, events)
                        events.append(f"window opened {time.monotonic() - loop_started:.0f} s in")

                config = dataclasses.replace(config, on_window=start_timer)
            print(f"{players} players, {len(tables)} tables: playing", flush=True)
            result = asyncio.run(run_load(config, log=print))
            profiles = window.close()
            logs = [Path(s.log.name).read_text(errors="replace") for s in running]  # type: ignore[attr-defined]
        first, last = window.samples[0], window.samples[-1]
        wal_all = lsn_bytes(last.pg["lsn"]) - lsn_bytes(first.pg["lsn"])
        wal_own = own_wal_bytes(first.pg["lsn"], last.pg["lsn"], first.pg["oid"])
    fit = sql(
        args.postgres,
        "SELECT regr_intercept(pg_column_size(h.*), jsonb_array_length(record->'actions')), "
        "regr_slope(pg_column_size(h.*), jsonb_array_length(record->'actions')), "
        "min(jsonb_array_length(record->'actions')), max(jsonb_array_length(record->'actions')) "
        "FROM tables_hand h WHERE ended_at IS NOT NULL",
    )[0]
    hands = sql(
        args.postgres,
        "SELECT count(*) FILTER (WHERE ended_at IS NOT NULL), count(*), "
        "COALESCE(SUM(pg_column_size(h.*)) FILTER (WHERE ended_at IS NOT NULL), 0), "
        "COALESCE(AVG(jsonb_array_length(record->'actions')) "
        "FILTER (WHERE ended_at IS NOT NULL), 0) FROM tables_hand h",
    )[0]
    sizes = stored_sizes(args.postgres)
    freed = retention(args) if args.retention else None
    return {
        "players": players, "tables": len(tables), "result": result, "first": first,
        "last": last, "idle_rss": idle_rss, "wal_all": wal_all, "wal_own": wal_own,
        "finished_hands": hands[0], "hands": hands[1], "finished_bytes": hands[2],
        "actions_per_hand": float(hands[3]), "sizes": sizes, "freed": freed, "fit": fit,
        "events": events, "errors": sum(log.count("Traceback") for log in logs),
        "redis_servers": args.redis_servers, "profiles": profiles,
    }


def retention(args: argparse.Namespace) -> dict[str, Any]:
    """Every game ended 100 days ago; delete_old_games; the rows' bytes and the relations'
    size before, after the command, after VACUUM and after VACUUM FULL."""
    url = args.postgres

    def disk() -> int:
        return sum(v["disk"] for v in stored_sizes(url).values())

    sql(url, "UPDATE tables_table SET status = 'finished', "
             "finished_at = now() - interval '100 days', updated_at = now() - interval '100 days'")
    sql(url, "VACUUM")
    before = disk()
    env = {**rl.base_env(args), "DATABASE_URL": url, "REDIS_URL": ""}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "delete_old_games"], cwd=ROOT, env=env,
        capture_output=True, text=True,
    )
    seconds = time.monotonic() - started
    if done.returncode:
        raise SystemExit(f"delete_old_games failed:\n{done.stderr[-3000:]}")
    after = disk()
    sql(url, "VACUUM")
    after_vacuum = disk()
    sql(url, "VACUUM FULL")
    after_full = disk()
    return {
        "said": done.stdout.strip(), "seconds": seconds, "before": before, "after": after,
        "after_vacuum": after_vacuum, "after_full": after_full,
    }


# ------------------------------------------------------------------------------ report
def report(run: dict[str, Any], args: argparse.Namespace) -> str:
    r: Result = run["result"]
    first, last = run["first"], run["last"]
    window = r.window
    actions = r.actions or 1
    tables = run["tables"]
    table_hours = tables * window / 3600
    cpu = last.server_cpu - first.server_cpu
    pg = {k: last.pg[k] - first.pg[k] for k in ("commits", "rollbacks", "inserted", "updated",
                                                 "deleted")}
    rows_written = pg["inserted"] + pg["updated"] + pg["deleted"]
    statements = last.statements - first.statements
    n_statements = sum(statements.values())
    redis = {k: last.redis[k] - first.redis[k] for k in last.redis}
    machine = last.machine_cpu - first.machine_cpu
    per_socket = (first.rss - run["idle_rss"]) / max(r.connected, 1)
    sizes = run["sizes"]
    finished = run["finished_hands"] or 1
    lines = [
        f"Unit costs, {datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} cores, load average "
        f"at start {args.load_at_start}; {run['players']} players at {tables} tables, "
        f"{run['redis_servers']} Redis server(s), 2 Daphne processes (a table per process), "
        "PostgreSQL, permessage-deflate",
        f"pace: think {args.think} s before each action, next hand after "
        f"{args.next_hand_pause} s, a chat line per table every {args.chat_every:g} s; "
        f"window {window:.0f} s after {args.warmup:.0f} s",
        "",
        f"actions seen by the whole table: {r.actions} ({r.actions_per_s:.1f}/s, "
        f"{r.actions_per_s / tables:.3f}/s per table = one every "
        f"{tables / max(r.actions_per_s, 1e-9):.2f} s); latency p50/p99/max "
        f"{r.percentile(50):.1f}/{r.percentile(99):.1f}/{r.percentile(100):.1f} ms; "
        f"frames {r.deliveries_per_s:.0f}/s of {r.frame_bytes:.0f} B (before compression); "
        f"chat {r.chat_sent} lines; connected {r.connected}/{r.players}; "
        f"disconnects {r.disconnects}; actions not seen by all {r.unfinished}; "
        f"refusals {dict(r.refusals) or 0}; server tracebacks {run['errors']}",
        f"machine busy {machine:.0f} of {(os.cpu_count() or 1) * window:.0f} CPU s "
        f"(load generator {r.cpu_seconds:.0f}, servers {cpu:.0f}, Redis "
        f"{last.redis_cpu - first.redis_cpu:.1f})",
        "",
        f"{'':38} {'window':>12} {'per action':>12} {'per table-hour':>15}",
    ]

    def add(name: str, total: float, unit: str = "", digits: int = 0) -> None:
        per_action = total / actions
        per_hour = total / table_hours
        lines.append(
            f"{name:<38} {total:>12,.{digits}f} {per_action:>12,.{max(digits, 2)}f} "
            f"{per_hour:>15,.0f}{unit}"
        )

    add("server CPU, ms", cpu * 1000, digits=0)
    add("SQL statements (servers)", n_statements)
    for kind, count in statements.most_common(5):
        add(f"  of which {kind}", count)
    add("PostgreSQL transactions (commits)", pg["commits"])
    by_kind: Counter[str] = Counter()
    for name, count in (last.transactions - first.transactions).items():
        by_kind[name.split(" | ")[0]] += count
    for kind, count in by_kind.most_common():
        add(f"  servers': {kind}", count)
    add("PostgreSQL rows written", rows_written)
    add("  inserted", pg["inserted"])
    add("  updated", pg["updated"])
    add("  deleted", pg["deleted"])
    add("WAL bytes, whole cluster", run["wal_all"])
    if run["wal_own"] is not None:
        add("WAL bytes, this database (pg_waldump)", run["wal_own"])
    add("Redis commands", redis["commands"])
    add("Redis PUBLISH", redis["publish"])
    add("Redis bytes in", redis["bytes_in"])
    add("Redis bytes out", redis["bytes_out"])
    if len(last.publish_by_server) > 1:
        split = [
            b - a for a, b in zip(first.publish_by_server, last.publish_by_server, strict=True)
        ]
        lines.append(f"  PUBLISH by server: {' / '.join(f'{n:,.0f}' for n in split)}")
    lines += [
        "",
        f"server memory: {run['idle_rss'] / 1e6:.1f} MB idle, {first.rss / 1e6:.1f} MB with "
        f"{r.connected} sockets open (window start), {last.rss / 1e6:.1f} MB at the end: "
        f"{per_socket / 1024:.1f} KiB per open socket",
        "",
        f"stored after the run: {run['hands']} hands, {finished} finished "
        f"({run['actions_per_hand']:.1f} actions each in its record); a finished hand's "
        f"row {run['finished_bytes'] / finished:,.0f} B (pg_column_size: its record and "
        "players, compressed as stored); tables and seats are per game (below: divided by the "
        "finished hands so far), talk and the log per line",
        f"a finished hand's row against its actions (least squares over the finished hands, "
        f"{run['fit'][2]} to {run['fit'][3]} actions): {float(run['fit'][0] or 0):,.0f} B + "
        f"{float(run['fit'][1] or 0):,.1f} B per action",
        f"{'':16} {'rows':>8} {'row bytes':>12} {'on disk':>12} {'row B/finished hand':>20} "
        f"{'disk B/finished hand':>21}",
    ]
    for group, size in sizes.items():
        lines.append(
            f"{group:<16} {size['rows']:>8,} {size['bytes']:>12,} {size['disk']:>12,} "
            f"{size['bytes'] / finished:>20,.0f} {size['disk'] / finished:>21,.0f}"
        )
    total_rows = sum(s["bytes"] for s in sizes.values())
    total_disk = sum(s["disk"] for s in sizes.values())
    lines.append(
        f"{'all':<16} {'':>8} {total_rows:>12,} {total_disk:>12,} "
        f"{total_rows / finished:>20,.0f} {total_disk / finished:>21,.0f}"
    )
    freed = run["freed"]
    if freed:
        lines += [
            "",
            f"retention: {freed['said']} in {freed['seconds']:.1f} s; relations on disk "
            f"{freed['before']:,} B before, {freed['after']:,} after the command, "
            f"{freed['after_vacuum']:,} after VACUUM (the space reusable, kept by the files), "
            f"{freed['after_full']:,} after VACUUM FULL (given back: "
            f"{freed['before'] - freed['after_full']:,} B)",
        ]
    lines += [f"event: {event}" for event in run["events"]]
    if args.detail:
        lines += detail(first, last, actions)
    if run["profiles"]:
        lines += profile_section(run["profiles"])
    return "\n".join(lines)


def detail(first: Sample, last: Sample, actions: int) -> list[str]:
    """Transactions by kind and sender, statements by shape and sender, per action."""
    lines = ["", "transactions (counted by the servers) per action, by kind and sender:"]
    transactions = last.transactions - first.transactions
    lines.append(f"  {sum(transactions.values()) / actions:8.3f}  all")
    for name, count in transactions.most_common(25):
        lines.append(f"  {count / actions:8.3f}  {name}")
    lines += ["", "statements per action, by shape and sender:"]
    for name, count in (last.shapes - first.shapes).most_common(30):
        lines.append(f"  {count / actions:8.3f}  {name}")
    return lines


def profile_section(paths: list[Path]) -> list[str]:
    """The shares of the servers' samples over the window, a top 20, and a flame graph."""
    stacks = profile_shares.read_raw(paths)
    name = paths[0].name.rsplit("-", 1)[0]
    svg = paths[0].parent / f"{name}.svg"
    svg.write_text(profile_shares.svg(stacks, f"unit_costs servers, {name}"))
    text = profile_shares.table(stacks, 20)
    (paths[0].parent / f"{name}.txt").write_text(text + "\n")
    return ["", f"py-spy over the window (both servers; flame graph {svg.relative_to(ROOT)}):",
            text]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--duration", type=float, default=120.0)
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--think", default="3.5,4.5", help="seconds low,high before an action")
    parser.add_argument("--next-hand-pause", type=float, default=5.0)
    parser.add_argument("--chat-every", type=float, default=20.0,
                        help="one chat line per table every this many seconds (0: none)")
    parser.add_argument("--redis-servers", type=int, default=1, choices=[1, 2, 3, 4])
    parser.add_argument("--restart-redis-at", type=float, default=0.0,
                        help="seconds into the window: restart the last Redis server")
    parser.add_argument("--retention", action="store_true",
                        help="after the run: age every game 100 days, delete_old_games")
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/holdem_scale_bench")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true",
                        help="py-spy records both servers over the window (shares, top 20, "
                             "flame graph)")
    parser.add_argument("--profile-gil", action="store_true",
                        help="with --profile: sample only the thread holding the GIL")
    parser.add_argument("--detail", action="store_true",
                        help="transactions and statements per action by shape and sender")
    args = parser.parse_args()
    for players in args.players:
        if not 12 <= players <= MAX_PLAYERS:
            raise SystemExit(f"--players: 12 to {MAX_PLAYERS}")
    if urlparse(args.postgres).hostname not in {"127.0.0.1", "localhost"}:
        raise SystemExit("--postgres: a loopback database please")
    # Before the servers start, so that they inherit it: each holds its tables' sockets (half
    # the players), the load generator all of them. A soft limit of 1,024, common, stops a
    # server near 2,000 players.
    raise_file_limit(max(args.players) + 256)
    args.load_at_start = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    args.next_hand_pause = float(args.next_hand_pause)
    texts = []
    for players in args.players:
        text = report(measure(players, args), args)
        print("\n" + text + "\n", flush=True)
        texts.append(text)
    saved = OUT / f"report-{datetime.now():%Y%m%d-%H%M%S}.txt"
    saved.write_text("\n\n".join(texts) + "\n")
    print(f"saved to {saved.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
