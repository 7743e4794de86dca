"""The soak's PostgreSQL as a primary and its synchronous standby under Patroni
(``--patroni``): tests/ha/patroni_cluster.py's cluster (one etcd, two Patroni nodes) behind the
interface of ``benchmarks.chaos.stack.Postgres``, and the ``pg_failover`` fault (the primary's
postmaster killed, the standby promoted, the old primary back as the standby). The app's
DATABASE_URL names both servers (``target_session_attrs=read-write``).
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.ha.patroni_cluster import Cluster

DATABASE = "holdem_chaos"


class PatroniPostgres:
    def __init__(self, folder: Path) -> None:
        self.cluster = Cluster(folder, database=None, max_connections=200, fsync=False)

    @property
    def port(self) -> int:
        return self.cluster.nodes[0].pg_port

    @property
    def ports(self) -> list[int]:
        return [n.pg_port for n in self.cluster.nodes]

    @property
    def url(self) -> str:
        return self.cluster.url(DATABASE)

    @property
    def admin_url(self) -> str:
        return self.cluster.url("postgres")

    def create(self) -> None:
        self.cluster.start()

    def start(self) -> float:
        return time.monotonic()  # Patroni started it (create)

    def stop(self, mode: str = "fast") -> None:
        raise NotImplementedError("pg_fast and pg_immediate are for the soak without --patroni")

    def fail_over(self) -> tuple[float, float, str]:
        return self.cluster.fail_over()

    def close(self) -> None:
        self.cluster.close()
