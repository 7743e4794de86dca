"""Table talk across two server processes (PostgreSQL and Redis shared): a line said through
one process reaches a phone of the other, as text. Run with the one Redis server of
``REDIS_URL`` and with two (a second ``redis-server`` of the test's own, both named in
``REDIS_URL`` separated by a comma), where the table's group may sit on either."""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.servers import Browser, RawSocket, Server, scratch_database, second_redis

pytestmark = pytest.mark.services

MARKUP = "<img src=x onerror=alert(1)> two & <u>three</u>"


@pytest.fixture(scope="module", params=["one Redis", "two Redis"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    tmp = tmp_path_factory.mktemp("chat2")
    with contextlib.ExitStack() as stack:
        redis_url = os.environ["REDIS_URL"]
        if request.param == "two Redis":
            redis_url += "," + stack.enter_context(second_redis(tmp)).url
        env = {
            "DATABASE_URL": scratch_database("chat2", fresh=True), "REDIS_URL": redis_url,
            "DEBUG": "true",
            "ALLOWED_HOSTS": "127.0.0.1", "TABLES_BOT_PAUSE": "0.3",
            "TABLES_CLOCK_INTERVAL": "0.05",
        }
        running = [
            Server({**env, "SERVER_LOG": str(Path(tmp) / f"daphne-{n}.log")}) for n in (1, 2)
        ]
        running[0].manage("migrate", "--noinput")
        for server in running:
            server.start()
        yield running
        for server in running:
            server.stop()


def _until_line(ws: RawSocket) -> list[str]:
    for _ in range(300):
        _c, _s, text = ws.frame()
        if 'id="chat-log"' in text:
            found = re.findall(r"data-chat-text>(.*?)</span></li>", text, re.S)
            assert all("<" not in line for line in found)  # escaped: shown as text
            return [html.unescape(line) for line in found]
    raise AssertionError("no chat line")


def test_a_line_said_through_one_process_reaches_a_phone_of_the_other(
    servers: list[Server],
) -> None:
    one, two = servers
    asha = Browser(one.base)
    url, _page = asha.post("/new/?mode=computer", {
        "mode": "computer", "name": "Asha", "seats": "3", "length": "chips",
        "blind_every": "10", "level": "easy", "turn_seconds": "60",
    })
    code = url.rstrip("/").split("/")[-1]
    watcher = Browser(two.base)
    watcher.get(f"/t/{code}/")
    path = f"/ws/t/{code}/"
    with (
        RawSocket(one.port, path, {"Origin": one.base, "Cookie": asha.cookie_header()},
                  None) as player,
        RawSocket(two.port, path, {"Origin": two.base, "Cookie": watcher.cookie_header()},
                  None) as spectator,
    ):
        player.frame()
        spectator.frame()
        player.send_text(json.dumps({"type": "chat", "text": MARKUP}))
        assert _until_line(spectator) == [MARKUP]  # through Redis, drawn by the other process
        assert _until_line(player) == [MARKUP]
