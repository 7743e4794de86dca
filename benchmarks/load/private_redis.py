"""Redis servers of a benchmark's own (``redis-server`` on free loopback ports, nothing saved
to disk), so that only its own traffic is counted: INFO figures, CPU, a restart on demand."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.load.run_load import free_port, process_cpu


class Redis:
    """A ``redis-server`` of this benchmark's own on a loopback port, nothing saved."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None
        self.carried: dict[str, float] = {}  # counters of the runs before a restart

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                self.info("server")
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not answer")

    def stop(self) -> None:
        """Stop it; its counters so far are carried over to the next start."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.carried = self.counters()
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def cpu(self) -> float:
        return process_cpu(self.process.pid) if self.process else 0.0

    def info(self, section: str) -> dict[str, str]:
        with socket.create_connection(("127.0.0.1", self.port), 2) as conn:
            conn.sendall(f"INFO {section}\r\n".encode())
            data = b""
            while b"\r\n" not in data:
                data += conn.recv(65536)
            head, _, body = data.partition(b"\r\n")
            size = int(head[1:])
            while len(body) < size + 2:
                body += conn.recv(65536)
        found = {}
        for line in body[:size].decode().splitlines():
            if ":" in line and not line.startswith("#"):
                key, value = line.split(":", 1)
                found[key] = value
        return found

    def counters(self) -> dict[str, float]:
        stats = self.info("stats")
        publish = self.info("commandstats").get("cmdstat_publish", "calls=0")
        now = {
            "commands": float(stats["total_commands_processed"]),
            "publish": float(publish.split("calls=")[1].split(",")[0]),
            "bytes_in": float(stats["total_net_input_bytes"]),
            "bytes_out": float(stats["total_net_output_bytes"]),
        }
        return {key: value + self.carried.get(key, 0.0) for key, value in now.items()}


@contextlib.contextmanager
def redis_servers(count: int) -> Iterator[list[Redis]]:
    with tempfile.TemporaryDirectory(prefix="unit-costs-redis-") as workdir:
        started = [Redis(Path(workdir)) for _ in range(count)]
        try:
            for server in started:
                server.start()
            yield started
        finally:
            for server in started:
                server.stop()
