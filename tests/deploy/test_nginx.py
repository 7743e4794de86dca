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
nginx answers the app's own bilingual page with 503 and Retry-After: those are
tests/deploy/test_nginx_processes.py. The stack is tests/deploy/nginx_stack.py's, one for both
(the ``stack`` fixture of tests/deploy/conftest.py).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import http.client
import re
import signal
import socket
import struct
from typing import Any
from zlib import crc32

import pytest

from engine.blinds import STARTING_STACK
from tests.deploy.nginx_stack import BROTLI_MODULE, YEAR, Stack, phone_at, until
from tests.helpers.servers import sql

pytestmark = pytest.mark.services

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
    watchers = [phone_at(stack, t, f"watch-{t['code']}", None)
                for t in stack.tables[1:] for _ in range(2)]
    tasks = [asyncio.create_task(w.run(stop)) for w in watchers]
    await until(lambda: all(w.versions for w in watchers), "every watcher's first frame")
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
    phones = [phone_at(stack, table, f"seat{n}", sessions[n]) for n in (0, 1)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in phones]
    await until(lambda: all(p.versions for p in phones), "both phones' first frame")
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
    await until(lambda: sum(len(p.sent) for p in phones) >= 3, "three actions")
    for phone in phones:
        phone.acting = False
    # Every action sent has had its answer (a later view, or a refusal) before the table is read.
    await until(
        lambda: all(not p.sent or p.version > p.sent[-1][0] or p.notices for p in phones),
        "every action sent answered",
    )
    version, state = _table_row(stack, table["id"])
    assert state["hand_number"] == hand and state["hand"] is not None, (
        "the hand ended early", [p.sent for p in phones]
    )
    await until(lambda: all(p.version == version for p in phones), "both phones caught up")
    sent_before = sum(len(p.sent) for p in phones)
    assert len(state["hand"]["actions"]) >= sent_before  # every action sent is saved

    # SIGTERM to the process serving this table: it exits cleanly, its phones come back
    # through nginx to the other one and see the very version they had.
    [serving] = [d for d in stack.daphnes if d.served(table["code"])]
    [other] = [d for d in stack.daphnes if d is not serving]
    serving.running.send_signal(signal.SIGTERM)
    assert serving.running.wait(20) == 0, serving.text()[-3000:]
    await until(lambda: all(p.connections == 2 and p.ws is not None for p in phones),
                 "both phones reconnected")
    assert other.served(table["code"]) == 2
    await until(lambda: all(p.versions[-1] == version for p in phones), "the same version")
    assert _table_row(stack, table["id"])[0] == version  # nothing changed while they were away

    # The hand goes on to its end on the other process.
    for phone in phones:
        phone.budget = None
        phone.acting = True
        await phone.maybe_act()
    await until(lambda: _table_row(stack, table["id"])[1]["hand_number"] > hand,
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
