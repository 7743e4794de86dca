"""The production stack of deploy/, all of it started here on loopback ports of its own.

- PostgreSQL 15: a cluster of its own made with ``initdb`` in a temporary folder (run as the
  ``postgres`` user when this runs as root, as initdb requires), stopped and started with
  ``pg_ctl`` for the faults; or, with ``patroni``, a primary and its synchronous standby
  under Patroni and three etcd members (``benchmarks.chaos.patroni``);
- Redis: a ``redis-server`` of its own, no persistence (a restart loses everything, as a
  restart without a dump file does); or, with ``patroni``, a master, its replica and three
  Sentinels, which the app finds through ``REDIS_SENTINELS``;
- three Daphne processes, each started by deploy/systemd/holdem@.service's own ExecStart line;
- ``manage.py runclock`` for the "clock in one process" fault (deploy/systemd/holdem-clock);
- nginx with deploy/nginx/holdem.conf, changed only in its ports and paths, and a certificate
  made here.

The machine's own PostgreSQL (5432) and Redis (6379) are never touched: every port here is a
free one picked at start, and a port of 5432 or 6379 is refused. ``Stack.close()`` stops every
process started here, whatever state it is in.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.chaos.patroni import PatroniPostgres, SentinelRedisService
from tests.helpers.servers import stop_process

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
MACHINE_PORTS = {5432, 6379}  # the machine's own services: never ours
DAPHNES = 3


def free_port() -> int:
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in MACHINE_PORTS:
            return port


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 0.3).close()
        return True
    except OSError:
        return False


def wait_listening(port: int, what: str, timeout: float = 60,
                   process: subprocess.Popen[bytes] | None = None) -> float:
    """Wait until ``port`` accepts connections; returns the moment (time.monotonic())."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        if listening(port):
            return time.monotonic()
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout:.0f} s")


def _as_postgres() -> list[str]:
    """initdb and pg_ctl refuse to run as root: as the postgres user then."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


@dataclass
class Postgres:
    folder: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.folder / "pgdata"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/holdem_chaos"

    @property
    def admin_url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def create(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        subprocess.run(
            [*_as_postgres(), str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True, capture_output=True,
        )
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as conf:
            # fsync off: the operating system outlives every fault here (a killed server's
            # writes are in its page cache); synchronous_commit stays on, so a commit told is
            # a commit kept even through `pg_ctl stop -m immediate`.
            conf.write(
                f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\nfsync = off\n"
                "full_page_writes = off\nmax_connections = 200\nshared_buffers = 64MB\n"
                "log_min_messages = warning\n"
            )

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [*_as_postgres(), str(PG_BIN / "pg_ctl"), "-D", str(self.data), *args],
            check=True, capture_output=True, timeout=90,
        )

    def start(self) -> float:
        self._ctl("-l", str(self.folder / "postgres.log"), "-w", "-t", "60", "start")
        return wait_listening(self.port, "PostgreSQL")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        if self.running():
            with contextlib.suppress(Exception):
                self.stop("immediate")


@dataclass
class Service:
    """One long-running process with a command line, started and stopped for the faults."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    port: int | None = None
    process: subprocess.Popen[bytes] | None = None

    def start(self, env: dict[str, str] | None = None) -> float:
        assert self.process is None or self.process.poll() is not None, self.name
        with open(self.log, "ab") as sink:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=env or self.env, stdout=sink,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
        if self.port is None:
            return time.monotonic()
        return wait_listening(self.port, self.name, process=self.process)

    def send(self, number: int) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(number)

    def stop(self, number: int = signal.SIGTERM, timeout: float = 25) -> int | None:
        """Signal it and wait for it to exit (SIGKILL after ``timeout``); its exit status."""
        if self.process is None:
            return None
        return stop_process(self.process, timeout, number)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def daphne_command(port: int) -> list[str]:
    """deploy/systemd/holdem@.service's ExecStart for this checkout (tests/deploy's helper)."""
    from tests.deploy import nginx_stack

    return nginx_stack.daphne_command(port)


def nginx_conf(folder: Path, https: int, http: int, ports: list[int], static: Path,
               cert: Path, key: Path) -> Path:
    """deploy/nginx/holdem.conf as tests/deploy/nginx_stack.py adapts it (ports and paths),
    with the third Daphne listed beside the first two in both upstreams."""
    from tests.deploy import nginx_stack

    main = nginx_stack.nginx_conf(folder, https, http, ports[:2], static, cert, key)
    site = folder / "holdem.conf"
    text = site.read_text()
    second = f"server 127.0.0.1:{ports[1]} max_fails=0;"
    assert text.count(second) == 2, "deploy/nginx/holdem.conf changed its upstreams"
    third = second.replace(str(ports[1]), str(ports[2]))
    site.write_text(text.replace(second, f"{second}\n    {third}"))
    return main


def certificate(folder: Path) -> tuple[Path, Path]:
    from tests.deploy import nginx_stack

    return nginx_stack.certificate(folder)


def nginx_binary() -> str:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        from tests.deploy import nginx_stack

        found = nginx_stack.nginx_binary()
    return found


class Stack:
    """Everything above, in ``folder``; ``start()`` brings it up, ``close()`` takes it all
    down (safe to call at any point, twice too)."""

    def __init__(self, folder: Path, *, next_hand_pause: float = 1.0,
                 bot_pause: str = "0.3,0.9", patroni: bool = False) -> None:
        self.folder = folder
        self.postgres: Postgres | PatroniPostgres = (
            PatroniPostgres(folder / "pg") if patroni else Postgres(folder / "pg"))
        self.sentinel = SentinelRedisService(folder / "redis") if patroni else None
        self.redis_port = self.sentinel.port if self.sentinel is not None else free_port()
        self.https, self.http = free_port(), free_port()
        self.ports = [free_port() for _ in range(DAPHNES)]
        self.static = folder / "static"
        self.env = {
            **{k: v for k, v in os.environ.items()
               if not k.startswith(("SECURE_", "TABLES_", "DATABASE_", "REDIS_"))},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECRET_KEY": "chaos-soak-only-" + "k3Vw9" * 10,
            "ALLOWED_HOSTS": "localhost",
            "CSRF_TRUSTED_ORIGINS": f"https://localhost:{self.https}",
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "REDIS_PREFIX": "chaos",
            "BEHIND_PROXY": "true",
            "SERVE_STATIC": "false",
            "STATIC_ROOT": str(self.static),
            "TABLES_CLOCK_INTERVAL": "0.2",
            "TABLES_NEXT_HAND_PAUSE": str(next_hand_pause),
            "TABLES_BOT_PAUSE": bot_pause,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("STATIC_COLLECTED", None)
        if self.sentinel is not None:
            self.env.update({"REDIS_URL": "", "REDIS_SENTINELS": self.sentinel.sentinels,
                             "REDIS_MASTER_NAME": self.sentinel.master_name})
        self.redis: Service | SentinelRedisService = self.sentinel or Service(
            "redis", ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                      "--save", "", "--appendonly", "no", "--dir", str(folder),
                      "--protected-mode", "no"],
            self.env, folder / "redis.log", self.redis_port,
        )
        self.daphnes = [
            Service(f"daphne-{n}", daphne_command(port), self.env, folder / f"daphne-{n}.log",
                    port)
            for n, port in enumerate(self.ports)
        ]
        self.clock = Service(
            "runclock", [sys.executable, "manage.py", "runclock"], self.env,
            folder / "runclock.log",
        )
        self.nginx: Service | None = None
        for port in (self.postgres.port, self.redis_port, self.https, self.http, *self.ports):
            assert port not in MACHINE_PORTS

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
            text=True, timeout=300,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def start(self) -> None:
        import psycopg

        self.postgres.create()
        self.postgres.start()
        with psycopg.connect(self.postgres.admin_url, autocommit=True) as conn:
            conn.execute('CREATE DATABASE "holdem_chaos"')
        self.redis.start()
        # deploy/systemd/holdem-setup.service's two steps
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("collectstatic", "--noinput", "-v", "0")

    def serve(self) -> None:
        """The Daphnes and nginx (after the tables are made)."""
        for daphne in self.daphnes:
            with open(daphne.log, "ab") as sink, contextlib.suppress(OSError):
                sink.write(b"")
            daphne.start()
        cert, key = certificate(self.folder)
        conf = nginx_conf(self.folder, self.https, self.http, self.ports, self.static, cert, key)
        binary = nginx_binary()
        test = subprocess.run([binary, "-t", "-c", str(conf)], capture_output=True, text=True)
        if test.returncode:
            raise RuntimeError(test.stderr)
        self.nginx = Service("nginx", [binary, "-c", str(conf), "-g", "daemon off;"],
                             self.env, self.folder / "nginx.out", self.https)
        self.nginx.start()
        self.cafile = cert

    def close(self) -> None:
        if self.nginx is not None:
            self.nginx.stop(signal.SIGQUIT, 10)
        for service in (*self.daphnes, self.clock):
            service.stop(signal.SIGTERM, 10)
        self.redis.stop(signal.SIGTERM, 10)
        self.postgres.close()
