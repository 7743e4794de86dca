"""A connection a server process keeps (CONN_MAX_AGE) to a primary that died meanwhile is
replaced before a request's first query when DATABASE_URL names several servers
(config/database.py turns Django's CONN_HEALTH_CHECKS on): the request is served by the new
primary instead of failing once. Without the check, the same request fails (the control).

Runs where tests/ha/test_failover.py runs (services phase, or HA_TESTS=1)."""

from __future__ import annotations

import subprocess
import sys

from tests.ha.common import CLUSTER_MARKS
from tests.ha.failover import ROOT, app_env
from tests.ha.patroni_cluster import Cluster, wait_for

pytestmark = CLUSTER_MARKS


def reader(cluster: Cluster, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ha.reader", *args], cwd=ROOT, env=app_env(cluster),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_kept_connection_to_a_dead_primary_is_replaced_before_a_requests_first_query(
    ha_cluster: Cluster,
) -> None:
    cluster = ha_cluster
    cluster.wait_synchronous(180)
    primary = cluster.primary()
    assert primary is not None
    standby = cluster.other(primary)
    checked, unchecked = reader(cluster), reader(cluster, "--no-health-checks")
    try:
        for process in (checked, unchecked):
            assert process.stdout is not None
            assert process.stdout.readline().split() == ["ready", str(primary.pg_port)]
        cluster.kill_postmaster(primary)
        wait_for("the standby promoted", lambda: standby.role() == "primary", 120)
        answers, errors = [], []
        for process in (checked, unchecked):
            out, err = process.communicate("go\n", timeout=60)
            answers.append(out.split())
            errors.append(err[-1000:])
    finally:
        for process in (checked, unchecked):
            if process.poll() is None:
                process.kill()
    assert answers[0] == ["ok", str(standby.pg_port)], (answers, errors)  # the new primary
    assert answers[1][0] == "error", (answers, errors)  # the control: the dead one, used
