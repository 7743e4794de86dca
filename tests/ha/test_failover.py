"""PostgreSQL survives the loss of its primary (Patroni, a synchronous standby): a primary and
its standby started here (tests/ha/patroni_cluster.py: one etcd, two Patroni nodes, ports of
their own), the app changing a table through the write path in a process of its own
(tests/ha/writer.py, DATABASE_URL naming both servers), then SIGKILL to the primary's
postmaster. Patroni promotes the standby; the app finds it by itself (libpq,
``target_session_attrs=read-write``), the old primary comes back as the synchronous standby
(pg_rewind), and the database read afterwards holds every change the app was told was saved.

Runs in CI's services phase (scripts/test.sh sets DATABASE_URL and REDIS_URL), or anywhere
with HA_TESTS=1; it never uses those services. Measured figures: benchmarks/README.md
"PostgreSQL failover"."""

from __future__ import annotations

import json

from tests.ha.common import CLUSTER_MARKS
from tests.ha.failover import OUT, kill_the_primary
from tests.ha.patroni_cluster import Cluster

pytestmark = CLUSTER_MARKS


def test_the_standby_takes_over_from_a_killed_primary_and_no_acknowledged_change_is_lost(
    ha_cluster: Cluster,
) -> None:
    ha_cluster.wait_synchronous(180)
    result = kill_the_primary(ha_cluster, ha_cluster.folder)
    figures = result.figures()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "failover.json").write_text(json.dumps(figures, indent=1))
    print("\nPostgreSQL failover:", json.dumps(figures))
    assert result.lost == []  # every change the app was told was saved is on the new primary
    assert result.refused_but_saved == []  # a refused change was not half made: not at all
    assert result.two_primaries == []  # never two servers taking writes
    assert result.first_accepted - result.killed < 30  # writes taken again, well in time
    assert result.promoted > result.killed
    assert len(result.acknowledged) >= 200
