"""Redis that fails over, of a test's own: a master, its replica and three Sentinels watching them
(``redis-server`` and ``redis-server --sentinel``, nothing saved to disk), on five loopback
ports from ``SENTINEL_TEST_PORT`` (default 6390). The Sentinels are tuned to notice a dead
master within a second (``DOWN_AFTER_MS``; deploy/redis/sentinel.conf says why production waits
longer) so that a test sees a promotion in a few seconds.

``kill_master()`` is SIGKILL of the master (its connections refused and reset at once);
``freeze_master()`` is SIGSTOP (a machine that vanished without a word: its connections stay
open and never speak again); ``promoted()`` waits for the replica to be the master and for a
Sentinel to name it (what the app asks); ``restart()`` brings the killed server back, which the
Sentinels turn into the new master's replica; ``ready()`` waits until it is one again, so that
the next failover has somewhere to go."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import redis

MASTER_NAME = "holdem-test"
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 3000


def base_port() -> int:
    return int(os.environ.get("SENTINEL_TEST_PORT", "6390"))


class SentinelRedis:
    def __init__(self, workdir: Path, first_port: int | None = None) -> None:
        first = first_port or base_port()
        self.workdir = workdir
        self.data_ports = [first, first + 1]
        self.sentinel_ports = [first + 2, first + 3, first + 4]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.binary = shutil.which("redis-server") or ""
        assert self.binary, "redis-server is not installed"

    # ------------------------------------------------------------------ the app's view
    @property
    def sentinels(self) -> str:
        """As ``REDIS_SENTINELS`` names them."""
        return ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)

    # ------------------------------------------------------------------ servers
    def _spawn(self, port: int, arguments: list[str]) -> None:
        folder = self.workdir / str(port)
        folder.mkdir(exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [self.binary, *arguments], cwd=folder,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.processes[port].poll() is None, f"redis on {port} exited at once"
            if self.answers(port):
                return
            time.sleep(0.05)
        raise AssertionError(f"redis did not answer on port {port}")

    def _start_data(self, port: int, replica_of: int | None) -> None:
        arguments = ["--port", str(port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", str(self.workdir / str(port))]
        if replica_of is not None:
            arguments += ["--replicaof", "127.0.0.1", str(replica_of)]
        self._spawn(port, arguments)

    def _start_sentinel(self, port: int, master_port: int) -> None:
        conf = self.workdir / f"sentinel-{port}.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {self.workdir}\n"
            f"sentinel monitor {MASTER_NAME} 127.0.0.1 {master_port} 2\n"
            f"sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {MASTER_NAME} {FAILOVER_TIMEOUT_MS}\n"
            f"sentinel parallel-syncs {MASTER_NAME} 1\n"
        )
        self._spawn(port, [str(conf), "--sentinel"])

    def start(self) -> None:
        master, replica = self.data_ports
        self._start_data(master, None)
        self._start_data(replica, master)
        for port in self.sentinel_ports:
            self._start_sentinel(port, master)
        self.ready()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.wait(10)
        self.processes = {}

    # ------------------------------------------------------------------ asking
    def client(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=1,
                           socket_connect_timeout=1, decode_responses=True)

    def answers(self, port: int) -> bool:
        try:
            return bool(self.client(port).ping())
        except redis.RedisError:
            return False

    def role(self, port: int) -> str:
        try:
            return str(_ask(self.client(port), "ROLE")[0])
        except redis.RedisError:
            return "away"

    def named_master(self) -> int | None:
        """The master's port as the first Sentinel that answers names it."""
        for port in self.sentinel_ports:
            try:
                found = _ask(self.client(port), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)
            except redis.RedisError:
                continue
            if found:
                return int(found[1])
        return None

    def master_port(self) -> int:
        port = self.named_master()
        assert port is not None, "no Sentinel names a master"
        return port

    # ------------------------------------------------------------------ failing over
    def kill_master(self) -> int:
        """SIGKILL of the master; its port."""
        port = self.master_port()
        process = self.processes.pop(port)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        return port

    def freeze_master(self) -> int:
        """SIGSTOP of the master (killed for good by ``stop()``); its port."""
        port = self.master_port()
        self.processes[port].send_signal(signal.SIGSTOP)
        self.processes[-port] = self.processes.pop(port)  # the port is free for a restart
        return port

    def promoted(self, old: int, timeout: float = 60) -> tuple[float, float, int]:
        """Wait for the failover away from ``old``: the moments (time.monotonic()) the replica
        took the master's role and a Sentinel first named it, and its port."""
        new = next(port for port in self.data_ports if port != old)
        deadline = time.monotonic() + timeout
        role_at = None
        while time.monotonic() < deadline:
            if role_at is None and self.role(new) == "master":
                role_at = time.monotonic()
            if self.named_master() == new:
                named_at = time.monotonic()
                return (role_at or named_at), named_at, new
            time.sleep(0.01)
        raise AssertionError(f"no Sentinel promoted the replica on {new}")

    def restart(self, port: int) -> None:
        """The killed server back, as it would come back after a reboot: the Sentinels make it
        the new master's replica. (A frozen one is killed first: it still holds the port.)"""
        frozen = self.processes.pop(-port, None)
        if frozen is not None:
            frozen.kill()
            frozen.wait(10)
        self._start_data(port, None)

    def ready(self, timeout: float = 60) -> None:
        """Both servers up, one master with its replica in sync, and every Sentinel agreeing
        on it and seeing the replica: a failover can happen again."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._ready():
                return
            time.sleep(0.1)
        raise AssertionError("the master, its replica and the Sentinels did not settle")

    def _ready(self) -> bool:
        master = self.named_master()
        if master is None or self.role(master) != "master":
            return False
        try:
            info = self.client(master).info("replication")
        except redis.RedisError:
            return False
        if info.get("connected_slaves") != 1 or info["slave0"].get("state") != "online":
            return False
        for port in self.sentinel_ports:
            try:
                client = self.client(port)
                named = _ask(client, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)
                replicas = _ask(client, "SENTINEL", "REPLICAS", MASTER_NAME)
            except redis.RedisError:
                return False
            if not named or int(named[1]) != master:
                return False
            flags = [_fields(r).get("flags", "") for r in replicas]
            if not any(f == "slave" for f in flags):
                return False
        return True


def _ask(client: redis.Redis, *words: str) -> Any:
    return client.execute_command(*words)  # type: ignore[no-untyped-call]


def _fields(reply: Any) -> dict[str, str]:
    """A Sentinel's description of a server (a flat list of names and values, or a dict)."""
    if isinstance(reply, dict):
        return {str(k): str(v) for k, v in reply.items()}
    return {str(reply[i]): str(reply[i + 1]) for i in range(0, len(reply) - 1, 2)}
