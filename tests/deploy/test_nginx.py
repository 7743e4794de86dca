"""The production stack of deploy/, run for real: nginx (Debian's package) with
deploy/nginx/holdem.conf on loopback ports, a certificate made here, and two Daphne processes
started by deploy/systemd/holdem@.service's own command line on PostgreSQL + Redis.

Only what cannot run in a test is changed in the configuration: the ports, the host name, the
certificate and static folder paths (each replacement is checked to have happened).

Checked: pages over HTTPS with HSTS and CSP; plain HTTP redirected; static files compressed
(Brotli, gzip) and cached for a year; /metrics not served through the proxy; the wrong-code
limit counts the address nginx saw (a made-up X-Forwarded-For or X-Real-IP neither escapes it
nor locks anyone else out of a page or a websocket, and Daphne logs the real one); each table's
websockets routed by path to one process; two phones play a hand over wss:// through nginx;
SIGTERM to the process serving their table mid-hand: the phones reconnect through nginx to the
other process, see the very version they had, and finish the hand with no action lost and the
chips conserved. Processes away: one killed, its tables' pages and sockets come from the other
(200, not 502); a rolling restart always finds the process that is back (nginx remembers no
failure: it once answered 502 "no live upstreams" with one back and idle); every process down,
nginx answers the app's own bilingual page with 503 and Retry-After.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zlib import crc32

import pytest

from engine.blinds import STARTING_STACK
from tests.helpers.servers import Server, free_port, manage, scratch_database, sql

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
TABLES = 10
YEAR = 31_536_000


def _nginx() -> str:
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
        super().__init__(env, port=port, log=log, inherit=False, command=_daphne_command(port))

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


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key


def _daphne_command(port: int) -> list[str]:
    """deploy/systemd/holdem@.service's ExecStart, for this checkout and ``port``."""
    unit = (DEPLOY / "systemd" / "holdem@.service").read_text()
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    command = line.removeprefix("ExecStart=").replace("/srv/holdem/.venv/bin/",
                                                       str(Path(sys.executable).parent) + "/")
    return command.replace("%i", str(port)).split()


def _nginx_conf(folder: Path, https: int, http: int, ports: list[int], static: Path,
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


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("nginx")
    nginx = _nginx()
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
    cert, key = _certificate(folder)
    daphnes = [Daphne(port, folder / f"daphne-{n}.log", env) for n, port in enumerate(ports)]
    for daphne in daphnes:
        daphne.start(wait=False)
    conf = _nginx_conf(folder, https, http, ports, static, cert, key)
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


# ------------------------------------------------------------------------------ HTTP
def test_pages_come_over_https_with_hsts_and_a_content_security_policy(stack: Stack) -> None:
    status, headers, body = stack.get(stack.base + "/")
    assert status == 200 and b"Hold" in body
    assert headers["strict-transport-security"] == f"max-age={YEAR}"
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert f"wss://localhost:{stack.https}" in policy  # the page's own websocket, over TLS
    assert "permissions-policy" in headers
    # Django saw HTTPS through the proxy (X-Forwarded-Proto): no redirect loop, a table's page.
    status, headers, _ = stack.get(stack.base + f"/t/{stack.tables[0]['code']}/")
    assert status == 200 and "content-security-policy" in headers
    assert stack.get(stack.base + "/healthz")[:1] == (200,)


def test_plain_http_is_redirected_to_https(stack: Stack) -> None:
    status, headers, _body = stack.get(f"http://localhost:{stack.http}/t/ABC/?x=1")
    assert status == 301
    assert headers["location"] == "https://localhost/t/ABC/?x=1"


def test_static_files_come_compressed_and_cached_for_a_year(stack: Stack) -> None:
    _s, _h, body = stack.get(stack.base + "/")
    found = re.findall(r'(?:href|src)="(/static/[^"]+)"', body.decode())
    assert len(found) >= 10
    for url in found:
        status, plain, data = stack.get(stack.base + url)
        assert status == 200, url
        assert "immutable" in plain["cache-control"] and f"max-age={YEAR}" in plain["cache-control"]
        assert plain["strict-transport-security"] == f"max-age={YEAR}"
        if url.endswith((".css", ".js")):
            _s, gz, gz_data = stack.get(stack.base + url, **{"Accept-Encoding": "gzip"})
            assert gz.get("content-encoding") == "gzip", url
            assert len(gz_data) < len(data)
            if BROTLI_MODULE.exists():
                _s, br, br_data = stack.get(stack.base + url, **{"Accept-Encoding": "br, gzip"})
                assert br.get("content-encoding") == "br", url
                assert len(br_data) < len(gz_data)


def test_metrics_are_not_served_through_the_proxy(stack: Stack) -> None:
    assert stack.get(stack.base + "/metrics")[0] == 404


# ------------------------------------------------------------------------------ websockets
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


def _phone(stack: Stack, table: dict[str, Any], name: str, session: str | None) -> Phone:
    return Phone(name, f"wss://localhost:{stack.https}/ws/t/{table['code']}/", session,
                 stack.context, stack.base)


async def _until(check: Any, what: str, timeout: float = 60) -> None:  # a bound, not a pace
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.05)


def _ring_owner(servers: list[str], uri: str) -> int:
    """Which of `servers` ("host:port", as written in the upstream block) nginx's
    `hash $uri consistent` sends `uri` to: the ketama ring of ngx_http_upstream_hash_module,
    160 points per server of weight 1, each the CRC-32 of "host", a NUL byte, "port" and the
    previous point (four bytes, little-endian, 0 for the first); a key goes to the first point
    at or after its CRC-32, round the ring. Checked against nginx itself: 1,000 random table
    paths over five pairs of ports, every one where this says."""
    points: list[tuple[int, int]] = []
    for index, server in enumerate(servers):
        host, port = server.rsplit(":", 1)
        previous = 0
        for _ in range(160):
            previous = crc32(host.encode() + b"\0" + port.encode() + struct.pack("<I", previous))
            points.append((previous, index))
    points.sort()
    at = bisect.bisect_left(points, (crc32(uri.encode()), -1))
    return points[at % len(points)][1]


async def test_each_table_is_routed_by_its_path_to_one_process(stack: Stack) -> None:
    stop = asyncio.Event()
    watchers = [_phone(stack, t, f"watch-{t['code']}", None)
                for t in stack.tables[1:] for _ in range(2)]
    tasks = [asyncio.create_task(w.run(stop)) for w in watchers]
    await _until(lambda: all(w.versions for w in watchers), "every watcher's first frame")
    stop.set()
    for watcher in watchers:
        await watcher.ws.close()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    served = [[d.served(t["code"]) for d in stack.daphnes] for t in stack.tables[1:]]
    servers = [f"127.0.0.1:{d.port}" for d in stack.daphnes]
    for table, counts in zip(stack.tables[1:], served, strict=True):
        # Both sockets on one process: the one that the table's path hashes to on nginx's ring.
        # (Nine random codes all on one process happen now and then, 0.5% of runs on a ring
        # split 55/45: a CI run saw it. The ring says which process each should be on.)
        owner = _ring_owner(servers, f"/ws/t/{table['code']}/")
        assert counts[owner] == 2 and counts[1 - owner] == 0, (table["code"], owner, counts)


# ------------------------------------------------------------------------------ the address
GUESSER, VICTIM = "127.0.0.2", "127.0.0.3"  # loopback addresses of their own (not the tests')
WRONG_CODES = 10  # TABLES_JOIN_FAILURES_PER_MINUTE's default (the stack sets none)


def _get_from(stack: Stack, source: str, path: str, **headers: str) -> int:
    """A page asked through nginx from the address ``source``: its status."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", stack.https, context=stack.context, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"Host": f"localhost:{stack.https}", **headers})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


async def _socket_from(stack: Stack, source: str, code: str, **headers: str) -> int | str:
    """A table's websocket opened through nginx from ``source``: "table" when a frame of the
    table came, else the code it was closed with."""
    import websockets

    sock = socket.create_connection(("127.0.0.1", stack.https), 10, source_address=(source, 0))
    async with websockets.connect(
        f"wss://localhost:{stack.https}/ws/t/{code}/", ssl=stack.context, sock=sock,
        origin=stack.base, additional_headers=list(headers.items()),  # type: ignore[arg-type]
        ping_interval=None, max_size=2**22,
    ) as ws:
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            async for text in ws:
                if 'id="table-data"' in str(text):
                    return "table"
        assert ws.close_code is not None
        return ws.close_code


async def test_the_limiter_counts_the_address_nginx_saw_never_one_the_client_wrote(
    stack: Stack,
) -> None:
    """After the routing test, which counts each table's sockets in Daphne's logs (these would
    add to them)."""
    code = stack.tables[-1]["code"]
    sql(stack.database, "DELETE FROM tables_failedjoin")  # none left by an earlier run
    # Wrong codes, each "from" another made-up address (the victim's and the tests' own among
    # them), in every header a client may write: all counted against the guesser's address.
    for n in range(WRONG_CODES):
        made_up = [VICTIM, "127.0.0.1", f"192.0.2.{n}"][n % 3]
        status = _get_from(stack, GUESSER, "/t/ZZZZZZ/", **{
            "X-Forwarded-For": made_up, "X-Real-IP": made_up, "Forwarded": f"for={made_up}",
        })
        assert status == 404, (n, status)
    # Limited, whatever it writes next: pages and the table's websocket.
    spoof = {"X-Forwarded-For": "192.0.2.200", "X-Real-IP": "192.0.2.200"}
    assert _get_from(stack, GUESSER, f"/t/{code}/", **spoof) == 429
    assert _get_from(stack, GUESSER, f"/t/{code}/hands/", **spoof) == 429
    assert await _socket_from(stack, GUESSER, code, **spoof) == 4429
    # Nobody it named is locked out: the victim, and the other tests' 127.0.0.1.
    assert _get_from(stack, VICTIM, f"/t/{code}/") == 200
    assert await _socket_from(stack, VICTIM, code) == "table"
    assert stack.get(stack.base + f"/t/{code}/")[0] == 200
    # Daphne logged the address nginx saw, never a made-up one.
    logs = "".join(d.text() for d in stack.daphnes)
    assert len(re.findall(rf'^{re.escape(GUESSER)}:\d+ .*"GET /t/ZZZZZZ/"', logs, re.M)) == (
        WRONG_CODES
    )
    assert "192.0.2." not in logs


def _table_row(stack: Stack, table_id: int) -> tuple[int, dict[str, Any]]:
    version, state = sql(
        stack.database, "SELECT version, state FROM tables_table WHERE id = %s", (table_id,)
    )[0]
    return int(version), state


async def test_two_phones_play_through_the_proxy_and_outlive_a_process_stopping(
    stack: Stack,
) -> None:
    table = stack.tables[0]
    sessions = {p["position"]: p["session"] for p in table["players"]}
    phones = [_phone(stack, table, f"seat{n}", sessions[n]) for n in (0, 1)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in phones]
    await _until(lambda: all(p.versions for p in phones), "both phones' first frame")
    sql(stack.database, "UPDATE tables_table SET paused = false, "
         "next_deadline = now() + interval '60 seconds' WHERE id = %s", (table["id"],))
    _version, state = _table_row(stack, table["id"])
    hand = state["hand_number"]
    # Three or four actions over wss:// through nginx (heads-up: the flop at most), then both
    # phones stop, mid-hand.
    for phone in phones:
        phone.budget = 2
        phone.acting = True
        await phone.maybe_act()
    await _until(lambda: sum(len(p.sent) for p in phones) >= 3, "three actions")
    for phone in phones:
        phone.acting = False
    # Every action sent has had its answer (a later view, or a refusal) before the table is read.
    await _until(
        lambda: all(not p.sent or p.version > p.sent[-1][0] or p.notices for p in phones),
        "every action sent answered",
    )
    version, state = _table_row(stack, table["id"])
    assert state["hand_number"] == hand and state["hand"] is not None, (
        "the hand ended early", [p.sent for p in phones]
    )
    await _until(lambda: all(p.version == version for p in phones), "both phones caught up")
    sent_before = sum(len(p.sent) for p in phones)
    assert len(state["hand"]["actions"]) >= sent_before  # every action sent is saved

    # SIGTERM to the process serving this table: it exits cleanly, its phones come back
    # through nginx to the other one and see the very version they had.
    [serving] = [d for d in stack.daphnes if d.served(table["code"])]
    [other] = [d for d in stack.daphnes if d is not serving]
    serving.running.send_signal(signal.SIGTERM)
    assert serving.running.wait(20) == 0, serving.text()[-3000:]
    await _until(lambda: all(p.connections == 2 and p.ws is not None for p in phones),
                 "both phones reconnected")
    assert other.served(table["code"]) == 2
    await _until(lambda: all(p.versions[-1] == version for p in phones), "the same version")
    assert _table_row(stack, table["id"])[0] == version  # nothing changed while they were away

    # The hand goes on to its end on the other process.
    for phone in phones:
        phone.budget = None
        phone.acting = True
        await phone.maybe_act()
    await _until(lambda: _table_row(stack, table["id"])[1]["hand_number"] > hand,
                 "the hand finished and the next was dealt", timeout=30)
    stop.set()
    for phone in phones:
        phone.acting = False
        if phone.ws is not None:
            await phone.ws.close()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)

    record, final_stacks = sql(
        stack.database, "SELECT record, final_stacks FROM tables_hand "
        "WHERE table_id = %s AND number = %s", (table["id"], hand),
    )[0]
    # No action lost: every one sent in that hand is in its record, none refused.
    sent = sorted((v, kind) for p in phones for v, kind, number in p.sent if number == hand)
    people = record["actions"]  # two people, no computer, no time-out (60 s turns)
    assert [a["kind"] for a in people] == [kind for _v, kind in sent], (people, sent)
    assert not [n for p in phones for n in p.notices], [n for p in phones for n in p.notices]
    # Chips conserved: the two stacks still hold every chip.
    stacks = final_stacks.values() if isinstance(final_stacks, dict) else final_stacks
    assert sum(stacks) == 2 * STARTING_STACK, final_stacks
    _version, state = _table_row(stack, table["id"])
    assert sum(seat["stack"] for seat in state["seats"]) == 2 * STARTING_STACK, state["seats"]


# ------------------------------------------------------------------------------ processes away
def _all_up(stack: Stack) -> None:
    """Every Daphne running again (the test before may have stopped one)."""
    for daphne in stack.daphnes:
        if not daphne.alive:
            daphne.start()


def _pages(stack: Stack) -> list[str]:
    return ["/", "/healthz", *(f"/t/{t['code']}/" for t in stack.tables)]


def _refused(stack: Stack, daphne: Daphne) -> int:
    """How many times nginx found ``daphne``'s port closed (and went on to the next one)."""
    text = (stack.cafile.parent / "error.log").read_text(errors="replace")
    return len(re.findall(rf"Connection refused\) while connecting to upstream.*"
                          rf"127\.0\.0\.1:{daphne.port}/", text))


async def _socket_served_by(stack: Stack, table: dict[str, Any]) -> Daphne:
    """The process a table's websocket reaches through nginx (a watcher's first frame)."""
    before = [d.served(table["code"]) for d in stack.daphnes]
    stop = asyncio.Event()
    watcher = _phone(stack, table, f"watch-{table['code']}", None)
    task = asyncio.create_task(watcher.run(stop))
    await _until(lambda: bool(watcher.versions), f"a first frame of {table['code']}")
    stop.set()
    await watcher.ws.close()
    await asyncio.wait_for(task, 10)
    [served] = [d for d, n in zip(stack.daphnes, before, strict=True)
                if d.served(table["code"]) > n]
    return served


async def test_a_process_killed_its_tables_come_from_the_other_with_200_not_502(
    stack: Stack,
) -> None:
    _all_up(stack)
    routed = {t["code"]: await _socket_served_by(stack, t) for t in stack.tables[1:]}
    # The victim: a process with tables of its own (the hash may, now and then, give every
    # table to one process: the routing test says so).
    victim = max(stack.daphnes, key=lambda d: sum(served is d for served in routed.values()))
    [other] = [d for d in stack.daphnes if d is not victim]
    theirs = [t for t in stack.tables[1:] if routed[t["code"]] is victim]
    assert theirs, routed
    refused = _refused(stack, victim)
    victim.kill()
    # Pages (any process) and the victim's tables' pages: every one from the other process,
    # however many times nginx tries the dead one first.
    for _round in range(3):
        for path in _pages(stack):
            status, _headers, body = stack.get(stack.base + path)
            assert status == 200, (path, status, body[:300])
    assert _refused(stack, victim) > refused  # the dead port was tried, and passed over
    # The victim's tables' websockets go on to the next process on the hash's ring.
    for table in theirs:
        assert await _socket_served_by(stack, table) is other, table["code"]
    victim.start()
    assert stack.get(stack.base + "/")[0] == 200


def test_a_rolling_restart_always_finds_the_process_that_is_back(stack: Stack) -> None:
    """One process after the other stopped and started again (a deploy, the soak's clock
    fault): a process nginx found closed a moment ago answers again as soon as it is back,
    while the other one is away (nginx's failure memory must not leave it no process)."""
    _all_up(stack)
    first, second = stack.daphnes
    for away, back in ((first, second), (second, first)):
        away.kill()
        for path in _pages(stack):  # nginx finds it closed, and notes a failure
            assert stack.get(stack.base + path)[0] == 200, path
        away.start()
        # at once the other goes: every page from the one just back
        back.kill()
        for path in _pages(stack):
            status, _headers, body = stack.get(stack.base + path)
            assert status == 200, (path, status, body[:300])
        back.start()


def test_every_process_down_answers_the_apps_own_bilingual_503_with_retry_after(
    stack: Stack,
) -> None:
    from django.utils import translation

    from config.errors import RESTARTING_PAGE

    for daphne in stack.daphnes:
        if daphne.alive:
            daphne.kill()
    code = stack.tables[0]["code"]
    for path in ("/", f"/t/{code}/", "/healthz", f"/ws/t/{code}/"):
        status, headers, body = stack.get(stack.base + path)
        assert status == 503, (path, status, body[:300])
        assert headers["retry-after"] == "10"
        assert headers["cache-control"] == "no-store"
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["strict-transport-security"] == f"max-age={YEAR}"
        html = body.decode()
        assert 'data-error-page="503"' in html and "<center>nginx</center>" not in html
        assert '<html lang="en">' in html and '<section lang="ne">' in html
        for sentence in RESTARTING_PAGE:  # each in English and in Nepali
            with translation.override("ne"):
                nepali = translation.gettext(sentence)
            assert nepali != sentence, sentence  # translated
            assert sentence in html and nepali in html, sentence
    # A form sent: the same page (nginx never sent it anywhere: nothing to send again).
    request = urllib.request.Request(stack.base + f"/t/{code}/join/", data=b"name=Chandra",
                                     method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, context=stack.context, timeout=10)
    assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "10"
    assert 'data-error-page="503"' in refused.value.read().decode()
    # The page is nginx's own only while no process answers.
    stack.daphnes[1].start()
    status, headers, body = stack.get(stack.base + f"/t/{code}/")
    assert status == 200 and "retry-after" not in headers and b"data-error-page" not in body
    stack.daphnes[0].start()
