"""The soak: the stack up, the tables made, the players playing while the faults come, then the
checker. See benchmarks/chaos/__init__.py."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import signal
import ssl
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.chaos import check_timing, checker, evidence, faults
from benchmarks.chaos.patroni import PatroniPostgres
from benchmarks.chaos.players import Player, Prober
from benchmarks.chaos.record import Recorder
from benchmarks.chaos.stack import PG_BIN, ROOT, Stack
from tests.ha.failover import Sampler

OUT = ROOT / "benchmarks" / "out" / "chaos"
LEVELS = ("hard", "medium", "easy")
MAX_MINUTES = 10.0


def make_tables(stack: Stack, count: int, turn_seconds: int, folder: Path) -> list[dict[str, Any]]:
    """``count`` friends tables of six seats: four or five persons each, computer players of
    each level in the other seats (``manage.py loadtest_tables``, the real flows)."""
    made: list[dict[str, Any]] = []
    groups: dict[tuple[str, int], int] = {}
    for number in range(count):
        key = (LEVELS[number % 3], 4 + (number // 3) % 2)
        groups[key] = groups.get(key, 0) + 1
    for (level, persons), tables in sorted(groups.items()):
        out = folder / f"tables-{level}-{persons}.json"
        stack.manage("loadtest_tables", "--tables", str(tables), "--persons", str(persons),
                     "--seats", "6", "--turn-seconds", str(turn_seconds), "--level", level,
                     "--output", str(out))
        for table in json.loads(out.read_text())["tables"]:
            made.append({**table, "level": level})
    return made


def read_versions(stack: Stack) -> dict[int, int]:
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            with psycopg.connect(stack.postgres.url, connect_timeout=2) as conn:
                return {int(i): int(v) for i, v in conn.execute(
                    "SELECT id, version FROM tables_table")}
        except psycopg.Error:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def overdue(stack: Stack, slack: float) -> dict[str, float]:
    """Playing tables whose deadline passed more than ``slack`` seconds ago."""
    import psycopg

    with psycopg.connect(stack.postgres.url) as conn:
        rows = conn.execute(
            "SELECT id, extract(epoch FROM now() - next_deadline) FROM tables_table "
            "WHERE status = 'playing' AND NOT paused AND next_deadline IS NOT NULL "
            "AND next_deadline < now() - make_interval(secs => %s)", [slack],
        ).fetchall()
    return {str(i): float(s) for i, s in rows}


async def play(stack: Stack, tables: list[dict[str, Any]], args: argparse.Namespace,
               recorder: Recorder) -> None:
    context = ssl.create_default_context(cafile=str(stack.cafile))
    rng = random.Random(f"chaos-players-{args.seed}")
    base = f"https://localhost:{stack.https}"
    players: list[Player] = []
    for table in tables:
        for person in table["players"]:
            name = f"t{table['id']}s{person['position']}"
            players.append(Player(
                recorder, name, table["id"], table["code"], person["position"],
                person["session"],
                f"wss://localhost:{stack.https}/ws/t/{table['code']}/?parts=1", base,
                context, random.Random(f"{args.seed}-{name}"),
            ))
    prober = Prober(recorder, base, context,
                    ["/", *[f"/t/{t['code']}/" for t in tables[:3]]])
    tasks = [asyncio.create_task(p.run()) for p in players]
    tasks.append(asyncio.create_task(prober.run()))
    seconds = args.minutes * 60
    calm = max(args.turn_seconds + 20.0, 30.0)
    planned = faults.plan(args.seed, seconds, calm, faults.kinds_for(args.faults, args.patroni),
                          first_at=args.first_fault)
    started = time.monotonic()

    async def schedule() -> None:
        for fault in planned:
            wait = started + fault.at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            print(f"  {time.monotonic() - started:6.1f} s: {fault.kind}", flush=True)
            start, end, detail = await asyncio.to_thread(faults.inject, stack, fault)
            recorder.add("fault", kind=fault.kind, start=recorder.at(start),
                         end=recorder.at(end), detail=detail)
            versions = await asyncio.to_thread(read_versions, stack)
            recorder.add("snapshot", t=recorder.at(end), versions=versions)
            print(f"          {detail}", flush=True)
            settled = await asyncio.to_thread(faults.settle, stack, fault)
            if settled:
                print(f"          {settled}", flush=True)

    async def drops() -> None:
        # Every minute, 5% of the sockets drop (half of them right after an action).
        minute = 0
        while True:
            count = max(1, math.ceil(len(players) * args.drop_share))
            moments = sorted(rng.uniform(0, 60) for _ in range(count))
            chosen = rng.sample(players, count)
            begin = started + minute * 60
            for moment, player in zip(moments, chosen, strict=True):
                wait = begin + moment - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                player.drop(after_action=rng.random() < 0.5)
            minute += 1

    faulting = asyncio.create_task(schedule())
    dropping = asyncio.create_task(drops())
    try:
        await asyncio.sleep(seconds)
        if not faulting.done():
            print("  (the last fault runs late: play goes on until it ends, then the calm)")
            await faulting
            await asyncio.sleep(calm)
        faulting.result()
    finally:
        dropping.cancel()
        faulting.cancel()
        late = await asyncio.to_thread(overdue, stack, check_timing.STUCK_SLACK)
        recorder.add("end")
        recorder.add("stuck", tables=late)
        prober.stopping = True
        await asyncio.gather(*(p.close() for p in players))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, dropping, faulting, return_exceptions=True)


def summary(report: evidence.Report, args: argparse.Namespace) -> str:
    f = report.figures
    lines = [
        f"chaos soak, seed {args.seed}, {f.get('minutes')} min played, {f.get('tables')} tables, "
        f"load average {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores, shared)",
        f"  faults injected: {f.get('faults')}; socket drops: {f.get('socket_drops')}",
        f"  actions sent {f.get('actions_sent')}, told counted {f.get('actions_told_counted')} "
        f"(not placed at a version: {f.get('actions_not_placed')}), time-outs "
        f"{f.get('time_outs')}, actions in the stored histories {f.get('history_actions')}, "
        f"hands finished {f.get('hands')}, frames {f.get('frames')}",
        f"  slowest convergence after a fault: {max(f.get('converge_seconds') or [0]):.2f} s "
        f"(by fault: {f.get('converge_by_fault')})",
        f"  pages asked: {f.get('http_asked')}; frames checked for hidden cards: "
        f"{f.get('frames_checked_for_cards')}",
        f"  breaches: {len(report.breaches)} "
        f"{dict(sorted(Counter(b.invariant for b in report.breaches).items()))}",
    ]
    lines += [f"    {b}" for b in report.breaches[:200]]
    return "\n".join(lines)


def _interrupted(number: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: everything started is stopped on the way out


def run(args: argparse.Namespace) -> int:
    if args.check:
        from benchmarks.chaos.record import load

        report = checker.check(load(args.check[0]), evidence.load_database(args.check[1]))
        print(summary(report, args))
        return 0 if not report.breaches else 1
    report, _record = soak(args)
    return 0 if not report.breaches else 1


def primaries(stack: Stack) -> Sampler | None:
    """With --patroni: which servers take writes, sampled during play (split brain)."""
    if not isinstance(stack.postgres, PatroniPostgres):
        return None
    sampler = Sampler(stack.postgres.cluster)
    sampler.start()
    return sampler


def out_paths(seed: int, patroni: bool) -> tuple[Path, Path, Path]:
    """The record's, the database's and the report's files. The mode and the process are in
    the names beside the seed and the second: CI starts the plain soak and the failover soak
    in the same second with the same seed, and two writers in one record corrupt it."""
    stamp = f"{seed}-{time.strftime('%Y%m%d-%H%M%S')}{'-patroni' if patroni else ''}-{os.getpid()}"
    return (OUT / f"record-{stamp}.jsonl", OUT / f"database-{stamp}.json",
            OUT / f"report-{stamp}.txt")


def soak(args: argparse.Namespace) -> tuple[evidence.Report, Path]:
    """The whole soak (stack up, play with the faults, stack down, check): the checker's report
    and the record's path. Everything started is stopped, whatever happens."""
    if not 0 < args.minutes <= MAX_MINUTES:
        raise SystemExit(f"--minutes: more than 0, at most {MAX_MINUTES:.0f}")
    OUT.mkdir(parents=True, exist_ok=True)
    record_path, database_path, saved = out_paths(args.seed, args.patroni)
    folder = Path(tempfile.mkdtemp(prefix="holdem-chaos-"))
    os.chmod(folder, 0o755)  # the postgres user goes through it to its cluster
    try:
        stack = Stack(folder, next_hand_pause=args.next_hand_pause, bot_pause=args.bot_pause,
                      patroni=args.patroni)
    except BaseException:  # no port free, say: nothing started, the folder goes
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
        raise
    two_primaries: list[float] = []
    recorder = Recorder(record_path)
    recorder.add("stack", ports=[stack.postgres.port, stack.redis_port, stack.https, stack.http,
                                 *stack.ports])
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        print(f"stack in {folder}: PostgreSQL :{stack.postgres.port}, Redis :{stack.redis_port}, "
              f"Daphne {stack.ports}, nginx https :{stack.https}", flush=True)
        stack.start()
        tables = make_tables(stack, args.tables, args.turn_seconds, folder)
        recorder.add("tables", tables=[{"id": t["id"], "code": t["code"], "level": t["level"],
                                         "seats": [p["position"] for p in t["players"]]}
                                        for t in tables])
        stack.serve()
        sampler = primaries(stack)
        print(f"{len(tables)} tables, {sum(len(t['players']) for t in tables)} players; "
              f"playing {args.minutes:g} min", flush=True)
        asyncio.run(play(stack, tables, args, recorder))
        if sampler is not None:
            two_primaries = sampler.stop().two_primaries()
        recorder.close()
        database = evidence.read_database(stack.postgres.url)
        evidence.save_database(database, database_path)
        if args.keep:
            dump = folder / "holdem_chaos.sql"
            subprocess.run([str(PG_BIN / "pg_dump"), "-f", str(dump), stack.postgres.url],
                           check=True, capture_output=True, timeout=120)
            print(f"database dumped to {dump}", flush=True)
    finally:
        recorder.close()
        stack.close()
        signal.signal(signal.SIGTERM, previous)
        if not args.keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
    from benchmarks.chaos.record import load

    report = checker.check(load(record_path), database)
    for moment in two_primaries:  # split brain: two servers took writes at once
        report.add("split_brain", None, None, None, f"two primaries at {moment:.1f}")
    text = summary(report, args)
    print(text)
    saved.write_text(text + "\n" + json.dumps(report.figures, indent=1) + "\n")
    print(f"record: {record_path.relative_to(ROOT)}; database: "
          f"{database_path.relative_to(ROOT)}; report: {saved.relative_to(ROOT)}"
          + (f"; stack kept in {folder}" if args.keep else ""))
    return report, record_path


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.chaos",
                                description="A chaos soak of the whole production stack.")
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tables", type=int, default=30)
    p.add_argument("--turn-seconds", type=int, default=12)
    p.add_argument("--faults", nargs="+", choices=faults.KINDS + faults.PATRONI_KINDS,
                   default=list(faults.KINDS), help="default: every kind (with --patroni: "
                   "pg_failover in place of pg_fast and pg_immediate, redis_failover in place "
                   "of redis_stop, and etcd_stop)")
    p.add_argument("--patroni", action="store_true",
                   help="PostgreSQL as a primary and a synchronous standby under Patroni (three "
                        "etcd members), Redis as a master, a replica and three Sentinels")
    p.add_argument("--first-fault", type=float, default=15.0,
                   help="seconds of play before the first fault")
    p.add_argument("--drop-share", type=float, default=0.05,
                   help="share of the sockets dropped each minute")
    p.add_argument("--next-hand-pause", type=float, default=1.0)
    p.add_argument("--bot-pause", default="0.3,0.9")
    p.add_argument("--keep", action="store_true",
                   help="keep the stack's folder (logs, the PostgreSQL cluster) and a pg_dump "
                        "of the database in it")
    p.add_argument("--check", nargs=2, metavar=("RECORD", "DATABASE"), type=Path,
                   help="no soak: run the checker again over a saved record and database")
    return p


def main() -> None:
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(run(parser().parse_args()))
    raise SystemExit(130)
