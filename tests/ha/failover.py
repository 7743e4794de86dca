"""A failover played and measured: the app's writer (tests/ha/writer.py) changing a table through
the write path against the cluster of tests/ha/patroni_cluster.py while the primary is killed.
Used by tests/ha/test_failover.py and ``python -m benchmarks.pg_failover``."""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from tests.ha import writer
from tests.ha.patroni_cluster import DATABASE, Cluster, Node, Samples, http_get, wait_for
from tests.helpers.servers import stop_process

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "out" / "ha"  # figures and logs (not committed)


def keep_logs(cluster: Cluster, name: str) -> None:
    """The servers' logs under benchmarks/out/ha/NAME, for a look afterwards."""
    logs = OUT / name
    logs.mkdir(parents=True, exist_ok=True)
    for log in cluster.folder.glob("*/*.log"):
        shutil.copy(log, logs / f"{log.parent.name}-{log.name}")


def app_env(cluster: Cluster) -> dict[str, str]:
    """The app's environment with the cluster's DATABASE_URL (both servers) and no Redis (the
    channel layer in memory: a failover of PostgreSQL is what is tried here)."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))}
    return {**kept, "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": cluster.database_url, "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1"}


def migrate(cluster: Cluster) -> None:
    done = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                          cwd=ROOT, env=app_env(cluster), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


class Writer:
    """tests/ha/writer.py in a process of its own."""

    def __init__(self, cluster: Cluster, out: Path, *args: str) -> None:
        self.out = out
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.ha.writer", "--out", str(out), *args], cwd=ROOT,
            env=app_env(cluster), stdout=subprocess.DEVNULL,
            stderr=open(out.with_suffix(".err"), "wb"),  # noqa: SIM115 (the child holds it)
        )

    def rows(self) -> list[dict[str, Any]]:
        if not self.out.exists() or not self.out.read_text().strip():
            return []
        return writer.read(str(self.out))[1]

    @property
    def table(self) -> int:
        return writer.read(str(self.out))[0]

    def wait_acknowledged(self, count: int, timeout: float, after: float = 0.0) -> None:
        def enough() -> bool:
            if self.process.poll() is not None and self.process.returncode:
                raise RuntimeError(f"the writer exited {self.process.returncode}: "
                                   + self.out.with_suffix(".err").read_text()[-2000:])
            return len([r for r in self.rows()
                        if r["outcome"] == "ok" and r["start"] >= after]) >= count

        wait_for(f"{count} changes acknowledged", enough, timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            stop_process(self.process, 30)

    def finish(self, timeout: float) -> None:
        self.process.wait(timeout)
        assert self.process.returncode == 0, self.out.with_suffix(".err").read_text()[-2000:]


def saved_numbers(node: Node, table: int) -> list[int]:
    """The writer's change numbers the node's database holds for ``table``."""
    import psycopg

    with psycopg.connect(node.url(DATABASE), connect_timeout=3) as conn:
        rows = conn.execute(
            "SELECT (detail->>'seq')::int FROM tables_moderationaction "
            "WHERE table_id = %s AND action = %s", [table, writer.TEST_ACTION]).fetchall()
    return sorted(int(r[0]) for r in rows)


def version_of(node: Node, table: int) -> int:
    import psycopg

    with psycopg.connect(node.url(DATABASE), connect_timeout=3) as conn:
        row = conn.execute("SELECT version FROM tables_table WHERE id = %s", [table]).fetchone()
    assert row is not None
    return int(row[0])


class Sampler(threading.Thread):
    """Which servers take writes, every 0.2 s, until ``stop()``."""

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(daemon=True)
        self.cluster = cluster
        self.samples = Samples()
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.samples.take(self.cluster)
            self.halt.wait(0.2)

    def stop(self) -> Samples:
        self.halt.set()
        self.join(10)
        return self.samples


@dataclass
class Failover:
    """What one failover did to the writer's changes (seconds, counts)."""

    killed: float
    promoted: float  # the standby answered as primary
    first_accepted: float  # the first change begun after the kill and acknowledged: its end
    rejoined: float  # the old primary a synchronous standby again
    acknowledged: list[int] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    unknown: list[int] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    two_primaries: list[float] = field(default_factory=list)
    longest_gap: float = 0.0  # the longest time between two acknowledgements


    @property
    def lost(self) -> list[int]:
        return sorted(set(self.acknowledged) - set(self.saved))

    @property
    def unknown_saved(self) -> list[int]:
        return sorted(set(self.unknown) & set(self.saved))

    @property
    def refused_but_saved(self) -> list[int]:
        return sorted(set(self.refused) & set(self.saved))

    def figures(self) -> dict[str, Any]:
        return {
            "seconds_to_promotion": round(self.promoted - self.killed, 2),
            "seconds_to_first_change_accepted": round(self.first_accepted - self.killed, 2),
            "longest_seconds_without_an_acknowledgement": round(self.longest_gap, 2),
            "seconds_to_old_primary_back_as_synchronous_standby":
                round(self.rejoined - self.killed, 1),
            "changes_acknowledged": len(self.acknowledged),
            "changes_refused_meanwhile": len(self.refused),
            "changes_commit_unknown": len(self.unknown),
            "of_which_saved": len(self.unknown_saved),
            "changes_lost": len(self.lost),
            "refused_but_saved": len(self.refused_but_saved),
            "samples_with_two_primaries": len(self.two_primaries),
        }


HOW = ("postmaster", "machine", "switchover")


def _lose(cluster: Cluster, primary: Node, standby: Node, how: str) -> float:
    """The primary goes (``how``); the moment, in time.monotonic()."""
    if how == "switchover":  # maintenance: `patronictl switchover`, as the README says
        began = time.monotonic()
        done = subprocess.run(
            ["patronictl", "-c", str(primary.folder / "patroni.yml"), "switchover",
             "--leader", primary.name, "--candidate", standby.name, "--force"],
            capture_output=True, text=True, timeout=120, env=cluster.env)
        assert done.returncode == 0, done.stdout + done.stderr
        return began
    if how == "machine":
        assert primary.patroni is not None
        primary.patroni.stop(signal.SIGKILL, 10)
    return cluster.kill_postmaster(primary)


def kill_the_primary(cluster: Cluster, folder: Path, *, how: str = "postmaster",
                     before: int = 100, after: int = 100) -> Failover:
    """The writer runs; once ``before`` changes are acknowledged the primary goes: its
    postmaster killed (``postmaster``), its Patroni too, as when the whole machine goes
    (``machine``), or handed over by hand (``switchover``); the standby takes over, the writer
    goes on until ``after`` more are acknowledged and the old primary is back as the
    synchronous standby (its Patroni started again when it was killed)."""
    assert how in HOW
    primary = cluster.primary()
    assert primary is not None
    standby = cluster.other(primary)
    run = Writer(cluster, folder / "writer.jsonl")
    sampler = Sampler(cluster)
    try:
        run.wait_acknowledged(before, 300)
        sampler.start()
        killed = _lose(cluster, primary, standby, how)
        promoted = wait_for("the standby promoted", lambda: standby.role() == "primary" and
                            time.monotonic(), 120, step=0.05)
        run.wait_acknowledged(after, 300, after=killed)
        if how == "machine":
            cluster.start_node(primary)  # the machine is back
        rejoined = wait_for(
            "the old primary back as the synchronous standby",
            lambda: http_get(f"{primary.rest}/sync", timeout=1)[0] == 200 and time.monotonic(),
            300, step=0.2)
    finally:
        run.stop()
        samples = sampler.stop() if sampler.is_alive() else sampler.samples
    rows = run.rows()
    begun_after = [r for r in rows if r["outcome"] == "ok" and r["start"] >= killed]
    acked = [r["end"] for r in rows if r["outcome"] == "ok"]
    result = Failover(
        killed=killed, promoted=promoted, first_accepted=min(r["end"] for r in begun_after),
        rejoined=rejoined,
        acknowledged=[r["seq"] for r in rows if r["outcome"] == "ok"],
        refused=[r["seq"] for r in rows if r["outcome"] == "refused"],
        unknown=[r["seq"] for r in rows if r["outcome"] == "unknown"],
        saved=saved_numbers(standby, run.table),
        two_primaries=samples.two_primaries(),
        longest_gap=max(b - a for a, b in pairwise(acked)),
    )
    # the old primary, a standby now, holds the same changes once it has replayed them
    wait_for("the old primary caught up", lambda: saved_numbers(primary, run.table)
             == result.saved, 60)
    return result


def commit_latencies(cluster: Cluster, folder: Path, count: int, name: str) -> dict[str, float]:
    """``count`` changes made one after another: the time each took (milliseconds)."""
    run = Writer(cluster, folder / f"latency-{name}.jsonl", "--count", str(count))
    run.finish(600)
    took = sorted((r["end"] - r["start"]) * 1000 for r in run.rows() if r["outcome"] == "ok")
    assert len(took) == count
    return {
        "changes": count,
        "median_ms": round(statistics.median(took), 2),
        "p95_ms": round(took[int(0.95 * (len(took) - 1))], 2),
        "mean_ms": round(statistics.fmean(took), 2),
    }


def kill_the_standby(cluster: Cluster, folder: Path, *, machine: bool = False,
                     before: int = 100, after: int = 100) -> dict[str, Any]:
    """The writer runs; the synchronous standby's postmaster is killed (``machine``: its
    Patroni too, then started again once the writer has ``after`` more acknowledged): how long
    the primary's commits waited, what was refused or lost, when the standby was back."""
    primary = cluster.primary()
    assert primary is not None
    standby = cluster.other(primary)
    run = Writer(cluster, folder / "writer.jsonl")
    try:
        run.wait_acknowledged(before, 300)
        if machine:
            assert standby.patroni is not None
            standby.patroni.stop(signal.SIGKILL, 10)
        killed = cluster.kill_postmaster(standby)
        run.wait_acknowledged(after, 300, after=killed)
        if machine:
            cluster.start_node(standby)
        back = wait_for("the standby synchronous again", lambda: http_get(
            f"{standby.rest}/sync", timeout=1)[0] == 200 and time.monotonic(), 300)
    finally:
        run.stop()
    rows = run.rows()
    around = [r for r in rows if r["end"] >= killed]
    saved = saved_numbers(primary, run.table)
    acknowledged = [r["seq"] for r in rows if r["outcome"] == "ok"]
    return {
        "longest_change_seconds": round(max(r["end"] - max(r["start"], killed)
                                            for r in around), 2),
        "changes_acknowledged": len(acknowledged),
        "changes_refused_meanwhile": sum(r["outcome"] != "ok" for r in rows),
        "changes_lost": len(set(acknowledged) - set(saved)),
        "seconds_to_standby_synchronous_again": round(back - killed, 1),
        "primary_unchanged": cluster.primary() is primary,
    }

