"""A real Daphne server in a subprocess on a loopback port, with its own database file."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        self.env = {**os.environ, **env}
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = Path(env.get("SERVER_LOG", os.devnull))

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
            capture_output=True,
        )

    def start(self) -> None:
        out = open(self.log, "ab")  # noqa: SIM115 (closed with the process)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
        )
        # A bound, not a pace: Django's start takes over 30 s on a 2-core machine at a load of 15.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("daphne did not start")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, like a crash or a pulled plug."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


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
    import json

    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute(
            "SELECT id, version, status, state, deadline_kind, next_deadline FROM tables_table "
            "WHERE code = ?", (code,),
        ).fetchone()
        result = dict(row)
    result["state"] = json.loads(result["state"]) if result["state"] else None
    return result
