"""Restart: kill the server mid-hand, start it again, and the hand goes on from the same state."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from engine.game import Game
from tests.helpers.servers import new_table, sqlite_server, table_row

pytestmark = pytest.mark.slow


def frame_data(text: str) -> dict[str, object]:
    match = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', text, re.S)
    return json.loads(match.group(1)) if match else {}


async def play_until_a_deadline_is_pending(
    url: str, headers: dict[str, str], db: Path, code: str
) -> dict[str, object]:
    """Act when it is our turn; return the table row as soon as the clock has something
    pending for later (a computer player thinking, or the pause before the next deal)."""
    cookie = {"Cookie": headers["Cookie"]}
    async with connect(url, origin=Origin(headers["Origin"]), additional_headers=cookie) as ws:
        acted = 0
        for _ in range(200):
            data = frame_data(str(await asyncio.wait_for(ws.recv(), 10)))
            if data.get("legal"):
                legal = data["legal"]
                assert isinstance(legal, dict)
                kind = "check" if legal["check"] else "call"
                await ws.send(json.dumps({
                    "type": "action", "kind": kind, "version": data["version"],
                    "action_id": f"r{acted}",
                }))
                acted += 1
                continue
            row = table_row(db, code)
            pending = row["next_deadline"] and row["deadline_kind"] in ("bot", "next_hand")
            if acted and pending and row["version"] == data["version"]:
                return row
    raise AssertionError("never caught a pending deadline")


def test_a_killed_server_comes_back_with_the_same_hand_and_fires_overdue_deadlines(
    tmp_path: Path,
) -> None:
    db = tmp_path / "db.sqlite3"
    with sqlite_server(
        tmp_path, TABLES_BOT_PAUSE="1.5", TABLES_NEXT_HAND_PAUSE="1.5",
        TABLES_CLOCK_INTERVAL="0.05",
    ) as server:
        code, headers, _page = new_table(server, seats=3)
        ws_url = f"ws://127.0.0.1:{server.port}/ws/t/{code}/"
        row = asyncio.run(play_until_a_deadline_is_pending(ws_url, headers, db, code))
        server.kill()
        after_kill = table_row(db, code)
        assert after_kill["version"] == row["version"] and after_kill["state"] == row["state"]
        game = Game.from_dict(after_kill["state"])
        assert game.total_chips() == 3000
        # The server stays down until the pending deadline is overdue (the deadline moved
        # back instead of waiting for it: the same row the clock finds at start-up).
        overdue = datetime.now(UTC) - timedelta(seconds=1)
        with sqlite3.connect(db) as conn:
            conn.execute(
                "UPDATE tables_table SET next_deadline = ? WHERE code = ?",
                (overdue.strftime("%Y-%m-%d %H:%M:%S.%f"), code),
            )

        server.start()  # nobody connects: the clock starts with the server
        bound = time.monotonic() + 60  # a bound for a loaded machine, not a pace
        now = table_row(db, code)
        while now["version"] <= after_kill["version"] and time.monotonic() < bound:
            time.sleep(0.05)
            now = table_row(db, code)
        assert now["version"] > after_kill["version"], "the overdue deadline did not fire"
        resumed = Game.from_dict(now["state"])
        assert resumed.total_chips() == 3000
        if after_kill["deadline_kind"] == "bot":
            # The same hand went on: its actions so far are exactly the ones before the kill.
            assert resumed.hand_number == game.hand_number
            assert resumed.hand is not None and game.hand is not None
            assert resumed.hand.actions[: len(game.hand.actions)] == game.hand.actions
            assert len(resumed.hand.actions) > len(game.hand.actions)
            assert resumed.hand.deck == game.hand.deck
        else:
            assert resumed.hand_number == game.hand_number + 1

        async def reconnect() -> dict[str, object]:
            cookie = {"Cookie": headers["Cookie"]}
            async with connect(ws_url, origin=Origin(server.base), additional_headers=cookie) as ws:
                return frame_data(str(await asyncio.wait_for(ws.recv(), 10)))

        data = asyncio.run(reconnect())
        assert data["mine"] == [0] and data["screen"] in ("play", "over")
        assert isinstance(data["version"], int) and data["version"] >= now["version"]
