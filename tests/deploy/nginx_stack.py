"""The production stack of deploy/ for tests/deploy/test_nginx.py and
tests/deploy/test_nginx_processes.py: nginx (Debian's package) with deploy/nginx/holdem.conf on
loopback ports, a certificate made here, and two Daphne processes started by
deploy/systemd/holdem@.service's own command line on PostgreSQL + Redis (``running_stack``); and
a phone on it (``Phone``: a websocket through nginx that answers its turns when asked).

Only what cannot run in a test is changed in the configuration: the ports, the host name, the
certificate and static folder paths (each replacement is checked to have happened).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.helpers.servers import Server, free_port, manage, scratch_database, sql

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
TABLES = 10
YEAR = 31_536_000


def nginx_binary() -> str:
    """Debian's nginx, installed (with the Brotli module) when missing: CI runs as root."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if not found:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, capture_output=True)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "nginx", "libnginx-mod-http-brotli-static"],
            check=True, env=env, capture_output=True,
        )
        found = shutil.which("nginx") or "/usr/sbin/nginx"
    return found


def _replace(text: str, old: str, new: str, count: int) -> str:
    assert text.count(old) == count, f"deploy/nginx/holdem.conf changed: {old!r}"
    return text.replace(old, new)


class Daphne(Server):
    """A Daphne started as systemd would (the unit's own command line), its output added to
    the same log at each start."""

    def __init__(self, port: int, log: Path, env: dict[str, str]) -> None:
        super().__init__(env, port=port, log=log, inherit=False, command=daphne_command(port))

    def served(self, code: str) -> int:
        return len(re.findall(rf'"WSCONNECT /ws/t/{code}/"', self.text()))


@dataclass
class Stack:
    https: int
    http: int
    cafile: Path
    database: str
    daphnes: list[Daphne]
    tables: list[dict[str, Any]]
    context: ssl.SSLContext = field(init=False)

    def __post_init__(self) -> None:
        self.context = ssl.create_default_context(cafile=str(self.cafile))

    @property
    def base(self) -> str:
        return f"https://localhost:{self.https}"

    def get(self, url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        opener = urllib.request.build_opener(
            NoRedirect, urllib.request.HTTPSHandler(context=self.context)
        )
        try:
            with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as got:
                return got.status, {k.lower(): v for k, v in got.headers.items()}, got.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


def daphne_command(port: int) -> list[str]:
    """deploy/systemd/holdem@.service's ExecStart, for this checkout and ``port``."""
    unit = (DEPLOY / "systemd" / "holdem@.service").read_text()
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    command = line.removeprefix("ExecStart=").replace("/srv/holdem/.venv/bin/",
                                                       str(Path(sys.executable).parent) + "/")
    return command.replace("%i", str(port)).split()


def nginx_conf(folder: Path, https: int, http: int, ports: list[int], static: Path,
                cert: Path, key: Path) -> Path:
    site = (DEPLOY / "nginx" / "holdem.conf").read_text()
    site = _replace(site, "listen [::]:80;", "", 1)
    site = _replace(site, "listen [::]:443 ssl http2;", "", 1)
    site = _replace(site, "listen 80;", f"listen 127.0.0.1:{http};", 1)
    site = _replace(site, "listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;", 1)
    site = _replace(site, "server_name poker.example.org;", "server_name localhost;", 2)
    site = _replace(site, "/etc/letsencrypt/live/poker.example.org/fullchain.pem", str(cert), 1)
    site = _replace(site, "/etc/letsencrypt/live/poker.example.org/privkey.pem", str(key), 1)
    site = _replace(site, "/srv/holdem/staticfiles/", f"{static}/", 2)  # + the 503 page
    site = _replace(site, "127.0.0.1:8001 ", f"127.0.0.1:{ports[0]} ", 2)
    site = _replace(site, "127.0.0.1:8002 ", f"127.0.0.1:{ports[1]} ", 2)
    modules = f"load_module {BROTLI_MODULE};" if BROTLI_MODULE.exists() else ""
    if not modules:
        site = _replace(site, "brotli_static on;", "", 1)
    (folder / "holdem.conf").write_text(site)
    main = folder / "nginx.conf"
    main.write_text(f"""
{modules}
user root;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
# A socket is two connections (the phone's and Daphne's): 256 ran out at the 30-table chaos
# soak's 135 players, and nginx answered 500 or nothing (Debian's own nginx.conf: 768 a worker).
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/holdem.conf;
}}
""")
    return main


@contextlib.contextmanager
def running_stack(folder: Path) -> Iterator[Stack]:
    """The stack in ``folder``: nginx in front of two Daphne processes on a scratch PostgreSQL
    database with ``TABLES`` tables of two persons, held (paused) until a test plays one."""
    nginx = nginx_binary()
    database = scratch_database("nginx")
    https, http = free_port(), free_port()
    ports = [free_port(), free_port()]
    static = folder / "static"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "TABLES_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "nginx-test-only-" + "x7Qp2" * 10,
        "ALLOWED_HOSTS": "localhost",
        "CSRF_TRUSTED_ORIGINS": f"https://localhost:{https}",
        "DATABASE_URL": database,
        "REDIS_URL": os.environ["REDIS_URL"],
        "BEHIND_PROXY": "true",
        "SERVE_STATIC": "false",
        "STATIC_ROOT": str(static),
        "TABLES_CLOCK_INTERVAL": "0.05",
        "TABLES_NEXT_HAND_PAUSE": "0.3",
        "TABLES_BOT_PAUSE": "0.1,0.2",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("STATIC_COLLECTED", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    out = folder / "tables.json"
    manage(env, "loadtest_tables", "--tables", str(TABLES), "--persons", "2", "--seats", "2",
            "--turn-seconds", "60", "--output", str(out))
    tables = json.loads(out.read_text())["tables"]
    ids = [t["id"] for t in tables]
    # Held (as a moderator would) until a test plays one.
    sql(database, "UPDATE tables_table SET paused = true WHERE id = ANY(%s)", (ids,))
    cert, key = certificate(folder)
    daphnes = [Daphne(port, folder / f"daphne-{n}.log", env) for n, port in enumerate(ports)]
    for daphne in daphnes:
        daphne.start(wait=False)
    conf = nginx_conf(folder, https, http, ports, static, cert, key)
    test = subprocess.run([nginx, "-t", "-c", str(conf)], capture_output=True, text=True)
    assert test.returncode == 0, test.stderr
    proxy = subprocess.Popen([nginx, "-c", str(conf), "-g", "daemon off;"],
                             stderr=open(folder / "nginx.out", "wb"))  # noqa: SIM115
    try:
        for daphne in daphnes:
            daphne.wait_listening(30)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", https), 0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, (folder / "error.log").read_text()
                time.sleep(0.1)
        yield Stack(https, http, cert, database, daphnes, tables)
    finally:
        proxy.send_signal(signal.SIGQUIT)
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
        for daphne in daphnes:
            daphne.kill()


@dataclass
class Phone:
    name: str
    url: str
    session: str | None
    context: ssl.SSLContext
    origin: str
    versions: list[int] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    connections: int = 0
    sent: list[tuple[int, str, int]] = field(default_factory=list)  # (version, kind, hand)
    acting: bool = False
    # While acting, at most this many actions in all (None: no limit): the phones answer each
    # other's frames faster than a test can look, and must stop mid-hand.
    budget: int | None = None
    ws: Any = None

    @property
    def version(self) -> int:
        return self.versions[-1] if self.versions else -1

    async def run(self, stop: asyncio.Event) -> None:
        """Connected through nginx until ``stop``; connects again when the socket closes."""
        import websockets

        headers = [("Cookie", f"sessionid={self.session}")] if self.session else []
        while not stop.is_set():
            try:
                async with websockets.connect(
                    self.url, ssl=self.context, origin=self.origin,  # type: ignore[arg-type]
                    additional_headers=headers, ping_interval=None, max_size=2**22,
                ) as ws:
                    self.ws = ws
                    self.connections += 1
                    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                        async for text in ws:
                            await self.on_message(str(text))
            except (OSError, websockets.exceptions.InvalidStatus,
                    websockets.exceptions.InvalidHandshake):
                pass
            self.ws = None
            if not stop.is_set():
                await asyncio.sleep(0.2)

    async def on_message(self, text: str) -> None:
        if 'data-kind="error"' in text:
            self.notices.append(text)
        at = text.find('<script id="table-data"')
        if at < 0:
            return
        self.data = json.loads(text[text.find(">", at) + 1 : text.find("</script>", at)])
        self.versions.append(int(self.data["version"]))
        await self.maybe_act()

    async def maybe_act(self) -> None:
        data, legal = self.data, self.data.get("legal") or {}
        mine = data.get("screen") == "play" and legal and data.get("to_act") == data.get("you")
        if self.budget is not None and len(self.sent) >= self.budget:
            return
        if self.acting and mine and self.ws is not None and (
            not self.sent or self.sent[-1][0] < self.version
        ):
            kind = "check" if legal["check"] else "call"  # the hand goes on to its end
            self.sent.append((self.version, kind, int(data["hand_number"])))
            await self.ws.send(json.dumps({
                "type": "action", "kind": kind, "version": self.version,
                "action_id": f"{self.name}-{self.version}",
            }))


def phone_at(stack: Stack, table: dict[str, Any], name: str, session: str | None) -> Phone:
    return Phone(name, f"wss://localhost:{stack.https}/ws/t/{table['code']}/", session,
                 stack.context, stack.base)


async def until(check: Any, what: str, timeout: float = 60) -> None:  # a bound, not a pace
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.05)
