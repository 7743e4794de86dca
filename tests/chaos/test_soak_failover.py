"""The CI-sized chaos soak with PostgreSQL as a primary and a synchronous standby under Patroni
(``--patroni``, benchmarks/chaos/patroni.py): the same 4 tables for 2 minutes, every kind of
fault once at least, with ``pg_failover`` (SIGKILL to the primary's postmaster: Patroni
promotes the standby, the old primary comes back as its standby) in place of stopping
PostgreSQL; the checker's verdict, and no two servers taking writes at once (``split_brain``),
are the assertion.

Not in CI's services phase yet (it would run after the plain soak, about 4 more minutes):
CHAOS_PATRONI=1 runs it. Measured: benchmarks/README.md "PostgreSQL failover"."""

from __future__ import annotations

import os

import pytest

from benchmarks.chaos import faults
from benchmarks.chaos.record import load
from benchmarks.chaos.soak import parser, soak
from benchmarks.chaos.stack import MACHINE_PORTS, nginx_binary
from tests.ha.patroni_cluster import available

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("CHAOS_PATRONI") != "1",
                       reason="CHAOS_PATRONI=1 runs it (about 5 minutes)"),
    pytest.mark.skipif(bool(available()), reason=available() or "-"),
]
SEED = int(os.environ.get("CHAOS_SEED", "3"))


def test_the_ci_sized_soak_survives_a_failover_of_the_primary_without_a_breach() -> None:
    args = parser().parse_args(["--minutes", "2", "--seed", str(SEED), "--tables", "4",
                                "--patroni"])
    kinds = faults.kinds_for(args.faults, patroni=True)
    assert "pg_failover" in kinds and "pg_fast" not in kinds
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
