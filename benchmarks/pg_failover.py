"""PostgreSQL failover under Patroni, measured (benchmarks/README.md "PostgreSQL failover").

    python -m benchmarks.pg_failover [--runs 3] [--changes 300]

Starts a primary and its synchronous standby with one etcd on ports of their own
(tests/ha/patroni_cluster.py; Debian's patroni and etcd-server), migrates the app's database
and then, with the app's writer changing a table through the write path (tests/ha/writer.py):

1. the commit latency cost of the synchronous standby: ``--changes`` changes made one after
   another with ``synchronous_mode`` on, then off, then on and off again (the machine is
   shared: two rounds each);
2. ``--runs`` times: SIGKILL to the primary's postmaster (Patroni lives on and hands over at
   once: ``primary_start_timeout`` 0);
3. ``--runs`` times: SIGKILL to the primary's Patroni and postmaster together, as when its
   machine dies (the standby waits for the leader key to expire: ``ttl``), then its Patroni
   started again (the machine back);
4. ``--runs`` times: ``patronictl switchover`` (maintenance by hand);
5. ``--standby-runs`` times each: the synchronous standby's postmaster killed, then its
   Patroni and postmaster together (its machine): how long the primary's commits wait.

Each failover reports: seconds from the kill to the standby's promotion, to the first change
begun after the kill and acknowledged, to the old primary being the synchronous standby again;
changes refused meanwhile (a phone's "saving slowly", tried again every 0.1 s), whose COMMIT's
answer was lost (and whether they were saved), and lost (acknowledged but missing: must be 0).
Output: pg_failover.json, under benchmarks/out/ha/ (not committed).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.ha.failover import HOW, commit_latencies, kill_the_primary, kill_the_standby, migrate
from tests.ha.patroni_cluster import Cluster, available

OUT = Path(__file__).resolve().parent / "out" / "ha"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--changes", type=int, default=300, help="0: no latency rounds")
    parser.add_argument("--standby-runs", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", choices=HOW, default=list(HOW),
                        help="which ways the primary goes (default: all)")
    args = parser.parse_args()
    missing = available()
    if missing:
        raise SystemExit(missing)
    cluster = Cluster(Path(tempfile.mkdtemp(prefix="holdem-ha-bench-")))
    report: dict[str, Any] = {"latency": [], **{how: [] for how in HOW}}
    try:
        began = time.monotonic()
        cluster.start()
        migrate(cluster)
        report["cluster_up_seconds"] = round(time.monotonic() - began, 1)
        for round_ in range(2 if args.changes else 0):
            for on in (True, False):
                cluster.set_synchronous(on)
                figures = commit_latencies(cluster, cluster.folder, args.changes,
                                           f"{round_}-{on}")
                report["latency"].append({"synchronous": on, **figures})
                print("latency", on, figures, flush=True)
        cluster.set_synchronous(True)
        cluster.wait_synchronous(120)
        for how in args.kinds:
            for run in range(args.runs):
                folder = cluster.folder / f"{how}-{run}"
                folder.mkdir()
                result = kill_the_primary(cluster, folder, how=how)
                report[how].append(result.figures())
                print(how, result.figures(), flush=True)
        for machine in (False, True):
            for run in range(args.standby_runs):
                folder = cluster.folder / f"standby-{machine}-{run}"
                folder.mkdir()
                figures = kill_the_standby(cluster, folder, machine=machine)
                key = "standby_machine" if machine else "standby_postmaster"
                report.setdefault(key, []).append(figures)
                print(key, figures, flush=True)
    finally:
        cluster.close()
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "pg_failover.json").write_text(json.dumps(report, indent=1))
    cluster.remove()


if __name__ == "__main__":
    main()
