"""A Redis server of a test's own (``redis-server`` on a free loopback port, nothing saved to
disk), for the configurations with two Redis servers: ``REDIS_URL`` names the machine's and this
one, separated by a comma (config/channel_layers.py). Stopped, restarted and stopped for good by
the test that started it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.tables.server import free_port


class RedisServer:
    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "redis-server exited at once"
            if self.answers():
                return
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not answer on port {self.port}")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *words: str) -> bytes:
        """One command in Redis's inline form; the raw reply."""
        with socket.create_connection(("127.0.0.1", self.port), 2) as conn:
            conn.sendall((" ".join(words) + "\r\n").encode())
            conn.settimeout(2)
            reply = b""
            while b"\r\n" not in reply:
                reply += conn.recv(65536)
            head, _, body = reply.partition(b"\r\n")
            if not head.startswith(b"$") or head == b"$-1":
                return head
            size = int(head[1:])
            while len(body) < size + 2:
                body += conn.recv(65536)
            return body[:size]

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@contextmanager
def second_redis(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def publishes(server: RedisServer) -> int:
    """How many PUBLISH commands this server has run since it started."""
    stats = server.command("INFO", "commandstats").decode()
    for line in stats.splitlines():
        if line.startswith("cmdstat_publish:"):
            return int(line.split("calls=")[1].split(",")[0])
    return 0
