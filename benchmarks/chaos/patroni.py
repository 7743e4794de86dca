"""The soak's services without a single point of failure (``--patroni``): PostgreSQL as a
primary and its synchronous standby under Patroni, with three etcd members (tests/ha/
patroni_cluster.py's cluster behind the interface of ``benchmarks.chaos.stack.Postgres``), and
Redis as a master, its replica and three Sentinels (tests/helpers/sentinel_redis.py behind the
interface of the stack's Redis ``Service``). The app's DATABASE_URL names both PostgreSQL
servers (``target_session_attrs=read-write``); REDIS_SENTINELS names the Sentinels.

Their faults (benchmarks/chaos/faults.py): ``pg_failover`` (the primary's postmaster killed,
the standby promoted; then the old primary back as the standby), ``redis_failover`` (the
Redis master killed, a Sentinel promotes the replica; then the old master, started again, back
as its replica) and ``etcd_stop`` (the etcd leader stopped, then started again: Patroni goes on with
the two members left; no failover should follow).

Ports: PostgreSQL from 5460, etcd from 2410, Patroni's REST API from 8030, Redis and its
Sentinels 6400 to 6404 or the next five free ones up to 6419 (not tests/ha's nor
tests/tables/servers/test_redis_failover.py's, which may run beside).
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.ha.patroni_cluster import Cluster, Node, http_get, port_from, wait_for
from tests.helpers.sentinel_redis import MASTER_NAME, SentinelRedis

DATABASE = "holdem_chaos"
FIRST_PORTS = (5460, 2410, 8030)
REDIS_FIRST_PORT = 6400


class PatroniPostgres:
    def __init__(self, folder: Path) -> None:
        self.cluster = Cluster(folder, database=None, max_connections=200, fsync=False,
                               etcd_members=3, first_ports=FIRST_PORTS)
        self.killed: tuple[Node, float] | None = None  # pg_failover's, until settled

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
        """SIGKILL to the primary's postmaster, until Patroni has promoted the standby: (the
        kill, the promotion) in time.monotonic(), and what happened. ``settle()`` waits for the
        old primary to come back as the synchronous standby (after the soak has read the
        tables' versions at the promotion)."""
        primary = self.cluster.primary()
        assert primary is not None, "no primary"
        standby = self.cluster.other(primary)
        killed = self.cluster.kill_postmaster(primary)
        promoted = float(wait_for("the standby promoted",
                                  lambda: standby.role() == "primary" and time.monotonic(), 180,
                                  step=0.05))
        self.killed = (primary, killed)
        return killed, promoted, (
            f"{primary.name} killed, {standby.name} primary after {promoted - killed:.1f} s")

    def settle(self) -> str:
        """The old primary back as the synchronous standby (pg_rewind), waited for."""
        if self.killed is None:
            return ""
        (old, killed), self.killed = self.killed, None
        back = float(wait_for("the old primary back as the synchronous standby",
                              lambda: http_get(f"{old.rest}/sync", timeout=1)[0] == 200
                              and time.monotonic(), 180))
        return f"{old.name} its synchronous standby after {back - killed:.1f} s"

    def stop_etcd(self, seconds: float) -> tuple[float, float, str]:
        """The etcd leader stopped for ``seconds``, then started again until it is healthy:
        (the stop, the member back) in time.monotonic(), and what Patroni did meanwhile."""
        before = self.cluster.primary()
        index = self.cluster.etcd_leader()
        start = time.monotonic()
        self.cluster.stop_etcd(index)
        roles: set[str] = set()
        while time.monotonic() < start + seconds:
            now = self.cluster.primary()
            roles.add(now.name if now is not None else "none")
            time.sleep(0.2)
        end = self.cluster.start_etcd(index)
        after = self.cluster.primary()
        name = before.name if before is not None else "none"
        kept = roles == {name} and after is not None and after.name == name
        return start, end, (
            f"etcd member e{index} (the leader) stopped, back after {end - start:.1f} s; "
            + (f"{name} primary throughout" if kept else
               f"primaries seen meanwhile: {sorted(roles)}, before {name}, after "
               f"{after.name if after is not None else 'none'}"))

    def close(self) -> None:
        self.cluster.close()


def free_block(first: int, size: int, blocks: int) -> int:
    """The first of ``blocks`` blocks of ``size`` ports from ``first`` whose ports are all free
    (another checkout's soak may hold the first: the same machine runs several)."""
    for start in range(first, first + size * blocks, size):
        if all(port_from(port, set()) == port for port in range(start, start + size)):
            return start
    raise RuntimeError(f"no {size} free ports in a row from {first}")


class SentinelRedisService:
    """Redis that fails over, as the stack's Redis (``start``, ``stop``, ``port``)."""

    master_name = MASTER_NAME

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.redis = SentinelRedis(folder, first_port=free_block(REDIS_FIRST_PORT, 5, 4))
        self.killed: int | None = None

    @property
    def port(self) -> int:
        return self.redis.data_ports[0]

    @property
    def ports(self) -> list[int]:
        return [*self.redis.data_ports, *self.redis.sentinel_ports]

    @property
    def sentinels(self) -> str:
        return self.redis.sentinels

    def start(self, env: dict[str, str] | None = None) -> float:
        self.redis.start()
        return time.monotonic()

    def stop(self, number: int = signal.SIGTERM, timeout: float = 10) -> None:
        self.redis.stop()

    def fail_over(self) -> tuple[float, float, str]:
        """SIGKILL of the master, until a Sentinel names the promoted replica: (the kill, the
        promotion) in time.monotonic(), and what happened. ``settle()`` brings the old master
        back (after the soak has read the tables' versions at the promotion)."""
        killed_at = time.monotonic()
        old = self.redis.kill_master()
        self.killed = old
        role_at, named_at, new = self.redis.promoted(old)
        return killed_at, named_at, (
            f"Redis master :{old} killed, :{new} master after {role_at - killed_at:.1f} s, "
            f"named by a Sentinel after {named_at - killed_at:.1f} s")

    def settle(self) -> str:
        """The killed master started again, until it is the new master's replica in sync."""
        if self.killed is None:
            return ""
        began = time.monotonic()
        self.redis.restart(self.killed)
        self.redis.ready()
        old, self.killed = self.killed, None
        return f":{old} back as the replica {time.monotonic() - began:.1f} s later"
