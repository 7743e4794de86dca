"""A PostgreSQL primary and its synchronous standby managed by Patroni, with one etcd member,
started here in a temporary folder on loopback ports of their own (the services tests of
tests/ha/ and ``python -m benchmarks.pg_failover``).

Debian's ``patroni`` and ``etcd-server`` and PostgreSQL 15's binaries (``PG_BIN``) are used as
they are; every process runs as the ``postgres`` user when this runs as root (initdb and
postgres refuse root), as benchmarks/chaos/stack.py does. Production's configuration is
deploy/patroni/ (three etcd members, the same timings); here, one etcd member is enough for a
test that kills PostgreSQL, not etcd; the chaos soak runs three (``etcd_members``) and stops one
(``stop_etcd``, ``start_etcd``).

The ports are the first free ones from 5440 (PostgreSQL), 2390 (etcd) and 8010 (Patroni's REST
API) on (``first_ports`` moves them); the machine's own PostgreSQL (5432) is never touched.
``Cluster.close()`` stops every process started here, whatever state it is in.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.servers import stop_process

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PATRONI = "/usr/bin/patroni"
ETCD = "/usr/bin/etcd"
SCOPE = "holdem"
DATABASE = "holdem_ha"

# The timings, tightened from Patroni's defaults (ttl 30, loop_wait 10, retry_timeout 10) so
# that a failover takes seconds, not half a minute. Patroni's rule: loop_wait + 2 x
# retry_timeout <= ttl, so that a primary that loses etcd demotes itself before its leader key
# can expire and another node take it (no two primaries).
TIMINGS = {
    # The leader key lives 10 s after its last renewal: a primary whose machine died (Patroni
    # gone with it) is replaced at most 10 s + one loop later. Lower makes a slow etcd or a
    # busy machine (a loop that renews late) cost a needless failover.
    "ttl": 10,
    # Patroni looks at its PostgreSQL and renews the key every second: a crash is seen within
    # a second (a few etcd requests a second: nothing for etcd).
    "loop_wait": 1,
    # How long etcd or PostgreSQL may not answer before Patroni gives up on them (a primary
    # that cannot renew its key for this long demotes itself): 1 + 2 x 4 = 9 <= 10.
    "retry_timeout": 4,
    # A primary's PostgreSQL that crashed is not started again in place: its machine may be
    # the trouble, and with a synchronous standby the failover loses nothing acknowledged.
    # Patroni's default (300 s of trying to restart it first) would keep every table waiting.
    "primary_start_timeout": 0,
}


def port_from(first: int, taken: set[int]) -> int:
    """The first port from ``first`` on that nobody listens on (and not handed out here)."""
    for port in range(first, first + 10):
        if port in taken:
            continue
        with socket.socket() as probe:
            # as the servers bind (etcd, PostgreSQL, Redis): a port whose last connections
            # are still in TIME_WAIT is free for them, and so for us
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        taken.add(port)
        return port
    raise RuntimeError(f"no free port from {first} to {first + 9}")


def http_get(url: str, timeout: float = 2) -> tuple[int, Any]:
    """Status and JSON body of a GET to Patroni's REST API (0 when it does not answer)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        body = error.read()
        with contextlib.suppress(ValueError):
            return error.code, json.loads(body or b"null")
        return error.code, None
    except (OSError, ValueError):
        return 0, None


def http_send(url: str, method: str, body: dict[str, Any] | None = None) -> int:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def wait_for(what: str, check: Any, timeout: float, step: float = 0.2) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError(f"{what}: not within {timeout:.0f} s")


def _run_as() -> dict[str, Any]:
    """Popen's arguments that run a process as ``postgres`` when this runs as root, in a folder
    that user may enter (this checkout may sit in a folder only root may: a clone in a
    ``mktemp -d`` folder, mode 0700, and Patroni's bootstrap fails on its working directory)."""
    if os.geteuid() != 0:
        return {}
    user = pwd.getpwnam("postgres")
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": [], "cwd": "/"}


def _give(path: Path) -> None:
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(path, user.pw_uid, user.pw_gid)


@dataclass
class Process:
    name: str
    command: list[str]
    log: Path
    env: dict[str, str]
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log, "ab") as sink:
            self.popen = subprocess.Popen(
                self.command, stdout=sink, stderr=subprocess.STDOUT, env=self.env,
                start_new_session=True, **_run_as(),
            )

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self, number: int = signal.SIGTERM, timeout: float = 30) -> None:
        if not self.alive:
            return
        assert self.popen is not None
        stop_process(self.popen, timeout, number)


@dataclass
class Node:
    """One PostgreSQL server and the Patroni that manages it."""

    name: str
    folder: Path
    pg_port: int
    rest_port: int
    patroni: Process | None = None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def rest(self) -> str:
        return f"http://127.0.0.1:{self.rest_port}"

    def url(self, database: str = DATABASE) -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_port}/{database}"

    def role(self) -> str:
        """"primary", "replica", or "" (Patroni does not answer, or PostgreSQL is not up)."""
        status, body = http_get(f"{self.rest}/patroni", timeout=1)
        if status == 0 or not isinstance(body, dict) or body.get("state") != "running":
            return ""
        return "primary" if body.get("role") in ("master", "primary") else str(body.get("role"))

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def accepts_writes(self) -> bool | None:
        """True: this server is a primary that takes writes; False: in recovery; None: down."""
        import psycopg

        try:
            with psycopg.connect(self.url("postgres"), connect_timeout=1) as conn:
                row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
        except psycopg.Error:
            return None
        return row is not None and not row[0]


class Cluster:
    """etcd and two Patroni nodes in ``folder``: ``start()``, then the nodes' roles change as
    the tests kill them; ``close()`` takes it all down (safe at any point, twice too)."""

    def __init__(self, folder: Path, *, fsync: bool = True, database: str | None = DATABASE,
                 max_connections: int = 100, etcd_members: int = 1,
                 first_ports: tuple[int, int, int] = (5440, 2390, 8010)) -> None:
        """``etcd_members``: 1 (a test kills PostgreSQL, not etcd) or 3 (as production: one
        may stop and Patroni goes on with the other two); ``first_ports``: where the free
        PostgreSQL, etcd and REST ports are looked for (a caller running beside tests/ha picks
        other ranges)."""
        self.folder = folder
        self.database = database  # made at start (None: none)
        self.max_connections = max_connections
        self.folder.mkdir(parents=True, exist_ok=True)
        _give(self.folder)
        taken: set[int] = set()
        first_pg, first_etcd, first_rest = first_ports
        members = [(port_from(first_etcd, taken), port_from(first_etcd, taken))
                   for _ in range(etcd_members)]
        self.etcd_ports = [client for client, _peer in members]
        self.etcd_port = self.etcd_ports[0]
        self.nodes = [
            Node(f"pg{n}", folder / f"pg{n}", port_from(first_pg, taken),
                 port_from(first_rest, taken))
            for n in range(2)
        ]
        self.fsync = fsync
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder),
                    "LANG": "C.UTF-8"}
        initial = ",".join(f"e{n}=http://127.0.0.1:{peer}" for n, (_c, peer) in enumerate(members))
        self.etcds = [Process(f"etcd{n}", [
            ETCD, "--name", f"e{n}", "--data-dir", str(folder / f"etcd{n}"),
            "--listen-client-urls", f"http://127.0.0.1:{client}",
            "--advertise-client-urls", f"http://127.0.0.1:{client}",
            "--listen-peer-urls", f"http://127.0.0.1:{peer}",
            "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
            "--initial-cluster", initial,
            "--initial-cluster-state", "new", "--log-level", "warn",
        ], folder / f"etcd{n}.log", self.env) for n, (client, peer) in enumerate(members)]
        self.etcd = self.etcds[0]

    # ------------------------------------------------------------------ addresses
    @property
    def database_url(self) -> str:
        return self.url(self.database or "postgres")

    def url(self, database: str) -> str:
        """The app's DATABASE_URL: both servers, libpq keeps the one that takes writes
        (config.database). connect_timeout bounds a try at a server that does not answer."""
        hosts = ",".join(f"127.0.0.1:{n.pg_port}" for n in self.nodes)
        return (f"postgres://postgres@{hosts}/{database}"
                "?target_session_attrs=read-write&connect_timeout=2")

    def config(self, node: Node) -> dict[str, Any]:
        """Patroni's configuration for ``node`` (written as JSON: YAML reads it)."""
        return {
            "scope": SCOPE,
            "name": node.name,
            "log": {"level": "INFO"},
            "restapi": {"listen": f"127.0.0.1:{node.rest_port}",
                        "connect_address": f"127.0.0.1:{node.rest_port}"},
            "etcd3": {"hosts": [f"127.0.0.1:{port}" for port in self.etcd_ports]},
            "bootstrap": {
                "dcs": {
                    **TIMINGS,
                    # a standby within 1 MB of WAL may be promoted (synchronous mode: only the
                    # synchronous standby is, whatever its lag)
                    "maximum_lag_on_failover": 1048576,
                    # A commit is acknowledged once it is on the standby's disk too; when no
                    # standby is left, the primary goes on alone (not strict): the tables keep
                    # playing with one server rather than stop.
                    "synchronous_mode": True,
                    "synchronous_mode_strict": False,
                    "postgresql": {
                        "use_pg_rewind": True,  # the old primary comes back as a standby
                        "use_slots": True,
                        "parameters": {
                            "wal_log_hints": "on", "max_connections": self.max_connections,
                            "shared_buffers": "32MB", "max_wal_senders": 5,
                            "max_replication_slots": 5, "wal_keep_size": "64MB",
                            "hot_standby": "on", "fsync": "on" if self.fsync else "off",
                        },
                    },
                },
                "initdb": [{"encoding": "UTF8"}, {"locale": "C.UTF-8"}, "data-checksums"],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{node.pg_port}",
                "connect_address": f"127.0.0.1:{node.pg_port}",
                "data_dir": str(node.data),
                "bin_dir": str(PG_BIN),
                "pgpass": str(node.folder / "pgpass"),
                # the standby's copy starts at once, not after a checkpoint spread over minutes
                "basebackup": [{"checkpoint": "fast"}],
                "authentication": {
                    "superuser": {"username": "postgres", "password": "test-only"},
                    "replication": {"username": "replicator", "password": "test-only"},
                    "rewind": {"username": "postgres", "password": "test-only"},
                },
                "parameters": {"unix_socket_directories": str(node.folder),
                               "log_min_messages": "warning"},
                # loopback only, trusted: a test's cluster
                "pg_hba": ["local all all trust", "host all all 127.0.0.1/32 trust",
                           "host replication replicator 127.0.0.1/32 trust"],
            },
            "tags": {"nofailover": False, "noloadbalance": False},
        }

    # ------------------------------------------------------------------ life
    def start_node(self, node: Node) -> None:
        node.folder.mkdir(parents=True, exist_ok=True)
        _give(node.folder)
        conf = node.folder / "patroni.yml"
        conf.write_text(json.dumps(self.config(node), indent=1))
        _give(conf)
        node.patroni = Process(node.name, [PATRONI, str(conf)], node.folder / "patroni.log",
                               self.env)
        node.patroni.start()

    def start(self, timeout: float = 180) -> None:
        """etcd, then the first node (it bootstraps: initdb, the primary), the database, then
        the second (a base backup of the first: the standby), until it is synchronous."""
        import psycopg

        for etcd in self.etcds:
            etcd.start()
        for port in self.etcd_ports:
            wait_for("etcd", lambda port=port: self.etcd_healthy(port), 30)
        first, second = self.nodes
        self.start_node(first)
        wait_for("the first node primary", lambda: first.role() == "primary", timeout)
        if self.database:
            with psycopg.connect(first.url("postgres"), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.database}"')
        self.start_node(second)
        self.wait_synchronous(timeout)

    def wait_synchronous(self, timeout: float) -> Node:
        """Until one node is primary and the other its synchronous standby; the standby."""
        def standby() -> Node | None:
            for node in self.nodes:
                if http_get(f"{node.rest}/sync", timeout=1)[0] == 200:
                    return node
            return None

        found: Node = wait_for("a synchronous standby", standby, timeout)
        return found

    def primary(self) -> Node | None:
        for node in self.nodes:
            if node.role() == "primary":
                return node
        return None

    def other(self, node: Node) -> Node:
        return self.nodes[1 - self.nodes.index(node)]

    def kill_postmaster(self, node: Node) -> float:
        """SIGKILL to the node's postmaster (its backends die with it; Patroni lives on);
        the moment, in time.monotonic()."""
        pid = node.postmaster_pid()
        assert pid is not None, f"{node.name} runs no PostgreSQL"
        os.kill(pid, signal.SIGKILL)
        return time.monotonic()

    def fail_over(self, timeout: float = 180) -> tuple[float, float, str]:
        """SIGKILL to the primary's postmaster, until the standby is promoted and the old
        primary is back as its synchronous standby: (the kill, the end) in time.monotonic(),
        and what happened."""
        primary = self.primary()
        assert primary is not None, "no primary"
        standby = self.other(primary)
        killed = self.kill_postmaster(primary)
        promoted = wait_for("the standby promoted",
                            lambda: standby.role() == "primary" and time.monotonic(), timeout,
                            step=0.05)
        back = wait_for("the old primary back as the synchronous standby",
                        lambda: http_get(f"{primary.rest}/sync", timeout=1)[0] == 200
                        and time.monotonic(), timeout)
        return killed, back, (
            f"{primary.name} killed, {standby.name} primary after {promoted - killed:.1f} s, "
            f"{primary.name} its synchronous standby after {back - killed:.1f} s")

    def set_synchronous(self, on: bool) -> None:
        """Patroni's ``synchronous_mode`` changed for the cluster (etcd), until the primary
        has set ``synchronous_standby_names`` to match."""
        import psycopg

        primary = self.primary()
        assert primary is not None
        assert http_send(f"{primary.rest}/config", "PATCH", {"synchronous_mode": on}) == 200

        def applied() -> bool:
            with psycopg.connect(primary.url("postgres")) as conn:
                row = conn.execute("SHOW synchronous_standby_names").fetchone()
            return bool(row and row[0]) == on

        wait_for("synchronous_mode applied", applied, 60)

    def etcd_healthy(self, port: int) -> bool:
        return http_get(f"http://127.0.0.1:{port}/health")[0] == 200

    def etcd_leader(self) -> int:
        """Which etcd member leads the others (its index; 0 when none says)."""
        for index, port in enumerate(self.etcd_ports):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v3/maintenance/status", data=b"{}", method="POST")
            try:
                with urllib.request.urlopen(request, timeout=1) as answer:
                    body = json.loads(answer.read())
            except (OSError, ValueError):
                continue
            if str(body.get("leader")) == str(body.get("header", {}).get("member_id")):
                return index
        return 0

    def stop_etcd(self, index: int) -> None:
        self.etcds[index].stop(signal.SIGTERM, 10)

    def start_etcd(self, index: int, timeout: float = 60) -> float:
        """The member started again, until it answers healthy (back in the quorum)."""
        self.etcds[index].start()
        port = self.etcd_ports[index]
        return float(wait_for(f"etcd member {index} healthy",
                              lambda: self.etcd_healthy(port) and time.monotonic(), timeout,
                              step=0.1))

    def close(self) -> None:
        for node in self.nodes:
            if node.patroni is not None:
                node.patroni.stop(signal.SIGTERM, 30)  # Patroni stops its PostgreSQL
            pid = node.postmaster_pid()
            if pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        for etcd in self.etcds:
            etcd.stop(signal.SIGTERM, 10)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def available() -> str:
    """Why the cluster cannot be made here ("" when it can)."""
    missing = [p for p in (PATRONI, ETCD, str(PG_BIN / "initdb")) if not Path(p).exists()]
    if missing:
        return "needs Debian's patroni, etcd-server and postgresql-15: " + ", ".join(missing)
    return ""


@dataclass
class Samples:
    """Which servers took writes, asked every few tenths of a second (split brain: two)."""

    rows: list[tuple[float, list[bool | None]]] = field(default_factory=list)

    def take(self, cluster: Cluster) -> None:
        self.rows.append((time.monotonic(), [n.accepts_writes() for n in cluster.nodes]))

    def two_primaries(self) -> list[float]:
        return [t for t, states in self.rows if sum(s is True for s in states) > 1]
