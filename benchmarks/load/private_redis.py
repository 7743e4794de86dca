"""Redis servers of a benchmark's own (``redis-server`` on free loopback ports, nothing saved
to disk), so that only its own traffic is counted: INFO figures, CPU, a restart on demand."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from benchmarks.load.processes import process_cpu
from tests.helpers.servers import RedisServer


class Redis(RedisServer):
    """A ``redis-server`` of this benchmark's own on a loopback port, nothing saved; its
    counters carried over a restart."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.carried: dict[str, float] = {}  # counters of the runs before a restart

    def stop(self) -> None:
        """Stop it; its counters so far are carried over to the next start."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.carried = self.counters()
        super().stop()

    def cpu(self) -> float:
        return process_cpu(self.process.pid) if self.process else 0.0

    def info(self, section: str) -> dict[str, str]:
        found = {}
        for line in self.command("INFO", section).decode().splitlines():
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
