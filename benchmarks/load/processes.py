"""The load benchmark's processes: daphne servers started on loopback ports and stopped, and the
CPU seconds a process, the services (PostgreSQL, Redis) or the whole machine have used, read from
/proc. Shared by the benchmark's runner (``benchmarks.load.run_load``) and its private Redis
servers (``benchmarks.load.private_redis``)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.servers import free_port, stop_process

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "out" / "load"


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"no server answered on port {port} within {timeout:.0f} s")


@contextlib.contextmanager
def servers(app: str, count: int, env: dict[str, str], label: str) -> Iterator[list[Server]]:
    """``count`` daphne processes serving ``app`` on loopback ports; stopped on exit."""
    started: list[Server] = []
    try:
        for number in range(count):
            port = free_port()
            log = open(OUT / f"{label}-{number}.log", "ab")  # noqa: SIM115 (closed below)
            process = subprocess.Popen(
                [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(port),
                 "-v", "0", app],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            )
            started.append(Server(port, process, log))
        for server in started:
            wait_for_port(server.port, server.process)
        yield started
    finally:
        for server in started:
            stop(server)


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    log: object

    def cpu(self) -> float:
        return process_cpu(self.process.pid)


def stop(server: Server) -> None:
    if server.process.poll() is None:
        stop_process(server.process, 15)
    server.log.close()  # type: ignore[attr-defined]


_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, children: bool = False) -> float:
    """CPU seconds (user + system, all threads) a process has used; 0 if it is gone. With
    ``children``, also what its exited children used (PostgreSQL's closed connections)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICKS


def named_cpu(names: tuple[str, ...]) -> float:
    """CPU seconds used so far by every process with one of these names (database, Redis)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm", encoding="utf-8") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if name in names:
            total += process_cpu(int(entry), children=True)
    return total


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, every process)."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / _TICKS


