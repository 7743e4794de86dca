"""Real server processes for the tests that need them, and the clients that talk to them: one
harness, its variants as parameters.

- ``Server``: a Daphne on a loopback port (``env`` added to this process's environment, or the
  whole environment with ``inherit=False``; ``command`` for another command line, such as the
  systemd unit's or ``runserver``; ``start(wait=False)`` then ``wait_listening()`` to start
  several at once); ``sqlite_server``: one migrated on a database file of its own, started and
  stopped around a ``with``.
- ``RedisServer`` and ``second_redis``: a Redis of the test's own (``publishes``: its count).
- ``Browser`` (cookies, CSRF, redirects: no JavaScript), ``RawSocket`` (a websocket client
  that shows each frame as it came over the wire), ``new_table`` (made through the page).
- ``manage``, ``sql``, ``scratch_database``, ``table_row``, ``row_audit``: the database behind
  the servers;
  ``cluster_env``: the environment of a production-like server of several.
- ``SERVICES`` and ``SERVICES_REASON``: whether PostgreSQL and Redis are there (tests marked
  ``services`` are skipped otherwise: tests/conftest.py).
"""

from __future__ import annotations

import base64
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVICES = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(
    os.environ.get("REDIS_URL")
)
SERVICES_REASON = "needs PostgreSQL and Redis: set DATABASE_URL (postgres://) and REDIS_URL"
DEFLATE_TAIL = b"\x00\x00\xff\xff"  # RFC 7692 7.2.2: the end of a message, left off the wire


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stop_process(
    process: subprocess.Popen[bytes], timeout: float, number: int = signal.SIGTERM
) -> int:
    """Signal ``process`` (SIGTERM unless told) and wait ``timeout`` seconds for it to exit,
    then SIGKILL it; its exit status."""
    process.send_signal(number)
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(10)


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py`` with exactly ``env``; its output (a failure shows its error's end)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=600,
    )
    assert done.returncode == 0, f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}"
    return done.stdout


def sql(url: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def scratch_database(suffix: str, fresh: bool = False) -> str:
    """A database of its own next to ``DATABASE_URL``'s (its name and ``_suffix``), created if
    missing (dropped first when ``fresh``): its URL."""
    url = urllib.parse.urlparse(os.environ["DATABASE_URL"])
    name = (url.path.lstrip("/") or "holdem") + "_" + suffix
    admin = url._replace(path="/postgres").geturl()
    if fresh:
        sql(admin, f'DROP DATABASE IF EXISTS "{name}"')
    if fresh or not sql(admin, "SELECT 1 FROM pg_database WHERE datname = %s", (name,)):
        sql(admin, f'CREATE DATABASE "{name}"')
    return url._replace(path=f"/{name}").geturl()


def cluster_env(
    database_url: str, redis_url: str, bot_pause: tuple[float, float] = (0.2, 0.3),
    away_pause: float = 0.2, next_hand_pause: float = 0.25,
) -> dict[str, str]:
    """The whole environment of a production-like server of a cluster (``DEBUG`` off, both
    clocks running and looking every 0.05 s, the pauses given, no fixed seed): for
    ``Server(..., inherit=False)`` and ``manage``."""
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "SECRET_KEY": "two-process-test-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "INFO",
        "TABLES_CLOCK_IN_SERVER": "true",
        "TABLES_CLOCK_INTERVAL": "0.05",
        "TABLES_BOT_PAUSE": f"{bot_pause[0]},{bot_pause[1]}",
        "TABLES_AWAY_PAUSE": str(away_pause),
        "TABLES_NEXT_HAND_PAUSE": str(next_hand_pause),
        "PYTHONUNBUFFERED": "1",
    })
    env.pop("TABLES_SEED", None)
    return env


def row_audit(name: str, columns: list[tuple[str, str, str]]) -> str:
    """SQL that makes the table ``name`` record every write to a row of tables_table, one row
    per write: each (column, type, value) of ``columns``, the value an SQL expression over
    ``NEW``. Run again on a scratch database of an earlier run, it adds the columns missing."""
    names = ", ".join(column for column, _type, _value in columns)
    added = "".join(
        f"ALTER TABLE {name} ADD COLUMN IF NOT EXISTS {column} {kind};\n"
        for column, kind, _value in columns
    )
    values = ", ".join(value for _column, _type, value in columns)
    return f"""
CREATE TABLE IF NOT EXISTS {name} (table_id bigint);
{added}CREATE OR REPLACE FUNCTION {name}_row() RETURNS trigger AS $$
BEGIN
    INSERT INTO {name} ({names}) VALUES ({values});
    RETURN NEW;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS {name} ON tables_table;
CREATE TRIGGER {name} AFTER INSERT OR UPDATE ON tables_table
    FOR EACH ROW EXECUTE FUNCTION {name}_row();
"""


class Server:
    """A Daphne process on a loopback port (or ``command``, the same way)."""

    def __init__(
        self, env: dict[str, str], port: int | None = None, log: Path | None = None,
        inherit: bool = True, command: list[str] | None = None,
    ) -> None:
        self.env = {**os.environ, **env} if inherit else dict(env)
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = log or Path(env.get("SERVER_LOG", os.devnull))
        self.command = command or [
            sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(self.port),
            "config.asgi:application",
        ]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> subprocess.Popen[bytes]:
        """The process (it was started)."""
        assert self.process is not None, "not started"
        return self.process

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def text(self) -> str:
        """What the process wrote to its log."""
        return self.log.read_text(errors="replace") if self.log.is_file() else ""

    def manage(self, *args: str) -> str:
        return manage(self.env, *args)

    def start(self, wait: bool = True) -> None:
        """Started (again: its output added to the same log); returns once it listens, unless
        ``wait`` is false (then ``wait_listening()``)."""
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            )
        if wait:
            self.wait_listening()

    def wait_listening(self, timeout: float = 120) -> None:
        # A bound, not a pace: Django's start takes over 30 s on a 2-core machine at a load of 15.
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with {self.process.returncode}:\n{self.text()[-3000:]}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not listen on {self.port}:\n{self.text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, waited for: no clean shutdown, like a crash or a pulled plug."""
        if self.alive:
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.alive:
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def sqlite_server(folder: Path, **env: str) -> Iterator[Server]:
    """A Daphne on a migrated SQLite file of its own in ``folder`` (its log beside it), with
    the test's ``env`` on top of a debug server's, started for the ``with`` and stopped after."""
    server = Server({
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1", "SERVER_LOG": str(folder / "daphne.log"), **env,
    })
    server.manage("migrate", "--noinput")
    server.start()
    try:
        yield server
    finally:
        server.stop()

class Browser:
    """Just enough of a browser: cookies, CSRF, redirects."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[str, str]:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.geturl(), response.read().decode()

    def post(self, path: str, data: dict[str, str]) -> tuple[str, str]:
        _url, page = self.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, "no CSRF token on " + path
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token.group(1)}).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        with self.opener.open(request, timeout=10) as response:
            return response.geturl(), response.read().decode()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def table_row(db: Path, code: str) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute(
            "SELECT id, version, status, state, deadline_kind, next_deadline FROM tables_table "
            "WHERE code = ?", (code,),
        ).fetchone()
        result = dict(row)
    result["state"] = json.loads(result["state"]) if result["state"] else None
    return result


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


class RawSocket:
    """A websocket client that shows each frame as it came over the wire."""

    def __init__(self, port: int, path: str, headers: dict[str, str], offer: str | None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), 10)
        self.sock.settimeout(10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
            "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        if offer:
            lines.append(f"Sec-WebSocket-Extensions: {offer}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed during the handshake"
            head += chunk
        self.response = head.decode("latin1")
        assert self.response.startswith("HTTP/1.1 101"), self.response
        self.inflater = zlib.decompressobj(-15)
        # As a browser: one compressor per connection, kept from message to message (each
        # message may refer to the ones before), for the window the server asked for.
        self.deflaters: dict[int, Any] = {}
        self.payloads: list[bytes] = []  # each message as it came, compressed or not

    def _exactly(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            assert chunk, "the server closed the socket"
            data += chunk
        return data

    def next_frame(self) -> tuple[int, bool, bytes]:
        """The next frame as it came: its opcode, whether RSV1 (compressed) is set, payload."""
        first, second = self._exactly(2)
        assert first & 0x80, "a fragmented message"
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._exactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._exactly(8))[0]
        return first & 0x0F, bool(first & 0x40), self._exactly(length)

    def frame(self) -> tuple[bool, int, str]:
        """The next message: whether it was compressed, its size on the wire, its text."""
        opcode, compressed, payload = self.next_frame()
        assert opcode == 0x1, f"opcode {opcode}"
        self.payloads.append(payload)
        if compressed:
            text = self.inflater.decompress(payload + DEFLATE_TAIL).decode()
        else:
            text = payload.decode()
        return compressed, len(payload), text

    def send_text(self, text: str, window_bits: int | None = None) -> None:
        """A text message, compressed as a browser does it when ``window_bits`` is given (with
        the messages before it, through the same compressor)."""
        payload = text.encode()
        first = 0x81
        if window_bits is not None:
            deflater = self.deflaters.get(window_bits)
            if deflater is None:
                deflater = self.deflaters[window_bits] = zlib.compressobj(
                    6, zlib.DEFLATED, -window_bits
                )
            payload = deflater.compress(payload) + deflater.flush(zlib.Z_SYNC_FLUSH)
            assert payload.endswith(DEFLATE_TAIL)
            payload, first = payload[:-4], first | 0x40  # RSV1: compressed
        mask = os.urandom(4)
        if len(payload) < 126:
            head = bytes([first, 0x80 | len(payload)])
        else:
            assert len(payload) < 65536
            head = bytes([first, 0x80 | 126]) + struct.pack("!H", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def __enter__(self) -> RawSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def new_table(
    server: Server, seats: int = 4, mode: str = "computer"
) -> tuple[str, dict[str, str], str]:
    """A fresh table made through the page by Asha (against computer players, or
    ``mode="friends"``): its code, Asha's headers for a websocket (``Origin``, ``Cookie``) and
    the page she was sent to."""
    browser = Browser(server.base)
    url, page = browser.post(f"/new/?mode={mode}", {
        "mode": mode, "name": "Asha", "seats": str(seats), "length": "chips",
        "blind_every": "10", "level": "easy", "turn_seconds": "60",
    })
    if mode == "computer":
        assert 'data-screen="play"' in page
    code = url.rstrip("/").split("/")[-1]
    return code, {"Origin": server.base, "Cookie": browser.cookie_header()}, page
