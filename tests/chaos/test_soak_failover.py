"""The CI-sized chaos soak without a single point of failure (``--patroni``,
benchmarks/chaos/patroni.py): PostgreSQL as a primary and its synchronous standby under Patroni
with three etcd members, Redis as a master, its replica and three Sentinels (the app finds it
through REDIS_SENTINELS); 4 tables for 2 minutes, each of the failures they are there for once:
``pg_failover`` (SIGKILL to the primary's postmaster: Patroni promotes the standby, the old
primary comes back as its standby), ``redis_failover`` (SIGKILL to the Redis master: a Sentinel
promotes the replica, the old master comes back as its replica; every phone must show the
table's version of the promotion within 3 s) and ``etcd_stop`` (the etcd leader stopped, then
started again: the primary stays the primary). The checker's verdict (nothing acknowledged
lost, every table converged, ...) and no two servers taking writes at once (``split_brain``) are
the assertion. (The plain soak, tests/chaos/test_soak.py, has the other faults.)

Run in CI's services phase (scripts/test.sh runs it beside the plain soak and the other
services tests); CHAOS_PATRONI=1 runs it anywhere. It never uses the machine's services: its
own stack, on ports of its own (benchmarks/chaos/patroni.py). Measured: benchmarks/README.md
"PostgreSQL failover"."""

from __future__ import annotations

import os
import shutil

import pytest

from benchmarks.chaos import faults
from benchmarks.chaos.record import load
from benchmarks.chaos.soak import parser, soak
from benchmarks.chaos.stack import MACHINE_PORTS, nginx_binary
from tests.ha.patroni_cluster import available

SERVICES_PHASE = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(
    os.environ.get("REDIS_URL")
)
pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.skipif(
        not SERVICES_PHASE and os.environ.get("CHAOS_PATRONI") != "1",
        reason="runs in the services phase (DATABASE_URL, REDIS_URL) or with CHAOS_PATRONI=1",
    ),
    pytest.mark.skipif(bool(available()), reason=available() or "-"),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]
SEED = int(os.environ.get("CHAOS_SEED", "3"))
KINDS = ("pg_failover", "redis_failover", "etcd_stop")


def test_the_ci_sized_soak_survives_the_failovers_without_a_breach() -> None:
    args = parser().parse_args(["--minutes", "2", "--seed", str(SEED), "--tables", "4",
                                "--patroni", "--faults", *KINDS])
    kinds = faults.kinds_for(args.faults, patroni=True)
    assert set(kinds) == set(KINDS)
    assert set(faults.kinds_for(list(faults.KINDS), patroni=True)) == {
        "daphne_kill", "daphne_term", "clock", *KINDS}
    planned = faults.plan(SEED, args.minutes * 60, max(args.turn_seconds + 20.0, 30.0), kinds,
                          first_at=args.first_fault)
    assert nginx_binary()
    report, record = soak(args)
    events = load(record)
    done = [e for e in events if e["e"] == "fault"]
    assert [e["kind"] for e in done] == [f.kind for f in planned]
    assert report.figures["hands"] > 0 and report.figures["actions_told_counted"] > 0
    ports = {int(p) for e in events if e["e"] == "stack" for p in e["ports"]}
    assert not ports & MACHINE_PORTS
    assert report.breaches == [], "\n".join(str(b) for b in report.breaches[:50])
    # with two etcd members of three left, Patroni kept its leader key: no failover
    etcd = next(e for e in done if e["kind"] == "etcd_stop")
    assert "primary throughout" in etcd["detail"], etcd["detail"]
