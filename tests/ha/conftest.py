"""One primary and its synchronous standby (tests/ha/patroni_cluster.py) for the services
tests of tests/ha/ that run the app against it: made once, since each test leaves it with a
primary and, soon after, its synchronous standby again (each waits for that first)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ha.failover import keep_logs, migrate
from tests.ha.patroni_cluster import Cluster


@pytest.fixture(scope="session")
def ha_cluster() -> Iterator[Cluster]:
    # not tmp_path: the postgres user runs the servers and must reach the folder
    made = Cluster(Path(tempfile.mkdtemp(prefix="holdem-ha-")))
    try:
        made.start()
        migrate(made)
        yield made
    finally:
        made.close()
        keep_logs(made, "logs")
    made.remove()
