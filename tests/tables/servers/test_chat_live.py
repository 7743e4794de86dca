"""Table talk on a real Daphne server: a player's line holding markup reaches the player and a
spectator, as text, while the table plays on (tables.live.talk)."""

from __future__ import annotations

import html
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.servers import Browser, RawSocket, Server, new_table, sqlite_server

MARKUP = '<script>alert("hi")</script><b>gg</b> & ok'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    tmp = tmp_path_factory.mktemp("chat")
    with sqlite_server(
        tmp, TABLES_BOT_PAUSE="0.2", TABLES_NEXT_HAND_PAUSE="0.3", TABLES_CLOCK_INTERVAL="0.05"
    ) as server:
        yield server, tmp / "db.sqlite3"


def _until_chat(ws: RawSocket, limit: int = 200) -> str:
    for _ in range(limit):
        _compressed, _size, text = ws.frame()
        if 'id="chat-log"' in text:
            return text
    raise AssertionError("no chat frame")


def _lines(text: str) -> list[str]:
    found = re.findall(r'data-chat-text>(.*?)</span></li>', text, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in found]


def test_a_line_with_markup_reaches_the_player_and_a_spectator_as_text(
    server: tuple[Server, Path],
) -> None:
    daphne, db = server
    code, asha, page = new_table(daphne, seats=3)
    # The drawer is on the page; its reactions and text box come over the websocket.
    assert "id=\"chat\"" in page and "id=\"chat-compose\"" in page
    watcher = Browser(daphne.base)
    watcher.get(f"/t/{code}/")
    path = f"/ws/t/{code}/"
    with (
        RawSocket(daphne.port, path, asha,
                  None) as player,
        RawSocket(daphne.port, path, {"Origin": daphne.base,
                                      "Cookie": watcher.cookie_header()}, None) as spectator,
    ):
        player.frame()
        spectator.frame()
        player.send_text(json.dumps({"type": "chat_history"}))
        assert 'data-testid="chat-text"' in _until_chat(player)
        player.send_text(json.dumps({"type": "chat", "text": MARKUP}))
        for ws in (player, spectator):
            text = _until_chat(ws)
            assert _lines(text) == [MARKUP]
            assert "<script>" not in text and "<b>" not in text
        # The spectator may read the drawer but not talk.
        spectator.send_text(json.dumps({"type": "chat_history"}))
        drawer = _until_chat(spectator)
        assert _lines(drawer) == [MARKUP] and 'data-off="0"' in drawer
        spectator.send_text(json.dumps({"type": "chat", "text": "me too"}))
        for _ in range(200):
            _c, _s, text = spectator.frame()
            if 'id="table-notice"' in text and 'data-code="watching"' in text:
                break
        else:
            raise AssertionError("no refusal")
    # Stored once, as typed, beside the table (the spectator's line was refused).
    with sqlite3.connect(db) as conn:
        said = conn.execute(
            "SELECT c.name, c.text FROM tables_chatmessage c JOIN tables_table t"
            " ON t.id = c.table_id WHERE t.code = ?", (code,),
        ).fetchall()
    assert said == [("Asha", MARKUP)]
