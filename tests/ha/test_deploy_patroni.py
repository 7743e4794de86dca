"""deploy/patroni/patroni.yml itself, run: two Patroni nodes started from that very file,
changed only in their names, addresses, ports and paths (as tests/deploy/nginx_stack.py adapts
deploy/nginx/holdem.conf), with its passwords, its pg_hba (10.0.0.0/24 read as 127.0.0.1/32),
its users (a replicator, a rewinder) and Patroni on the socket. The first bootstraps, the
second becomes its synchronous standby; the primary's postmaster is killed; the standby is
promoted and the old primary, rewound by the file's rewinder, comes back as its synchronous
standby. Runs where tests/ha/test_failover.py runs (services phase, or HA_TESTS=1)."""

from __future__ import annotations

import copy
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ha.common import CLUSTER_MARKS, patroni_yml
from tests.ha.failover import keep_logs
from tests.ha.patroni_cluster import Cluster, Node, http_get, wait_for

pytestmark = CLUSTER_MARKS


class Deployed(Cluster):
    """The cluster of tests/ha/patroni_cluster.py with deploy/patroni/patroni.yml's
    configuration."""

    def __init__(self, folder: Path, production: dict[str, Any]) -> None:
        super().__init__(folder, database=None)
        self.production = production

    def config(self, node: Node) -> dict[str, Any]:
        conf = copy.deepcopy(self.production)
        conf["name"] = node.name
        conf["restapi"].update(listen=f"127.0.0.1:{node.rest_port}",
                               connect_address=f"127.0.0.1:{node.rest_port}")
        conf["etcd3"]["hosts"] = [f"127.0.0.1:{self.etcd_port}"]
        pg = conf["postgresql"]
        pg.update(listen=f"127.0.0.1:{node.pg_port}", connect_address=f"127.0.0.1:{node.pg_port}",
                  data_dir=str(node.data), pgpass=str(node.folder / "pgpass"))
        pg["parameters"]["unix_socket_directories"] = str(node.folder)
        pg["pg_hba"] = [line.replace("10.0.0.0/24", "127.0.0.1/32") for line in pg["pg_hba"]]
        conf["log"] = {"level": "INFO"}
        return conf


@pytest.fixture
def deployed() -> Iterator[Deployed]:
    made = Deployed(Path(tempfile.mkdtemp(prefix="holdem-ha-deploy-")), patroni_yml())
    try:
        made.start()
        yield made
    finally:
        made.close()
        keep_logs(made, "deploy-logs")
    made.remove()


def test_the_production_file_bootstraps_a_synchronous_standby_and_rewinds_a_killed_primary(
    deployed: Deployed,
) -> None:
    primary = deployed.primary()
    assert primary is not None
    standby = deployed.other(primary)
    assert http_get(f"{standby.rest}/sync")[0] == 200  # the synchronous standby
    _status, config = http_get(f"{primary.rest}/config")
    assert config["ttl"] == 10 and config["synchronous_mode"] is True
    # WAL only the old primary will have, so that it must be rewound: the primary's WAL
    # sender is stopped, a write is committed locally only (never acknowledged as on two
    # servers: synchronous_commit local), then the primary is killed, its sender with it.
    sender = query(deployed, primary, "SELECT pid FROM pg_stat_replication")
    os.kill(sender, signal.SIGSTOP)
    try:
        query(deployed, primary, "SET synchronous_commit = local",
              "CREATE TABLE only_on_the_old_primary AS SELECT generate_series(1, 1000) AS n",
              "SELECT 1")
        deployed.kill_postmaster(primary)
    finally:
        os.kill(sender, signal.SIGKILL)
    wait_for("the standby promoted", lambda: standby.role() == "primary", 120)
    wait_for("the old primary back as the synchronous standby (pg_rewind as the rewinder)",
             lambda: http_get(f"{primary.rest}/sync", timeout=1)[0] == 200, 240)
    log = (primary.folder / "patroni.log").read_text()
    assert "running pg_rewind from" in log
    exists = "SELECT count(*) FROM pg_class WHERE relname = 'only_on_the_old_primary'"
    assert query(deployed, standby, exists) == 0  # what was never acknowledged: rewound away
    wait_for("the old primary replays", lambda: query(deployed, primary, exists) == 0, 60)


def query(deployed: Deployed, node: Node, *statements: str) -> int:
    """The first column of the last statement's row, asked as the file's superuser over TCP
    (its password, its pg_hba)."""
    import psycopg

    password = deployed.production["postgresql"]["authentication"]["superuser"]["password"]
    url = f"postgres://postgres:{password}@127.0.0.1:{node.pg_port}/postgres"
    with psycopg.connect(url, autocommit=True, connect_timeout=3) as conn:
        for statement in statements[:-1]:
            conn.execute(statement.encode())
        row = conn.execute(statements[-1].encode()).fetchone()
    assert row is not None
    return int(row[0])
