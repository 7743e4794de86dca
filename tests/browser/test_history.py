"""The hand history list and the replayer: what the player saw, and nothing more."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, play_until_hand, run_axe, screenshot
from tests.tables.helpers import allowed_cards, leaked_cards


def _hand_record(server: LiveServer, code: str, number: int) -> dict[str, Any]:
    with sqlite3.connect(server.db_path, timeout=10) as db:
        row = db.execute(
            "SELECT h.record FROM tables_hand h JOIN tables_table t ON t.id = h.table_id"
            " WHERE t.code = ? AND h.number = ? ORDER BY t.id DESC LIMIT 1",
            (code, number),
        ).fetchone()
    assert row is not None
    return dict(json.loads(row[0]))


def test_the_history_lists_the_hands_and_replays_one_as_the_player_saw_it(
    app_server: LiveServer, asha_at_a_computer_table: tuple[Any, str]
) -> None:
    phone, code = asha_at_a_computer_table
    assert phone.get_by_test_id("history-link").count()
    history_url = phone.get_by_test_id("history-link").get_attribute("href") or ""
    # Play until the third hand is dealt, or until the game ends (Asha only calls, so the
    # computers may take all her chips first: R33 then ends the game).
    play_until_hand(phone, 3)

    phone.goto(app_server.url + history_url)
    phone.get_by_test_id("hand-list").wait_for()
    screenshot(phone, "history")
    assert not run_axe(phone)
    phone.get_by_test_id("hand-link").last.click()
    phone.get_by_test_id("replayer").wait_for()
    number = int(phone.locator("h1").inner_text().split("#")[-1])
    record = _hand_record(app_server, code, number)
    data = json.loads(phone.locator("#replay-data").text_content() or "{}")
    seat = data.get("viewer")
    allowed = allowed_cards({"hand": record}, seat)
    assert not leaked_cards(phone.content(), allowed)
    for _ in range(60):
        nxt = phone.get_by_test_id("replay-next")
        if nxt.is_disabled():
            break
        nxt.click()
    screenshot(phone, "history-replay")
    assert not leaked_cards(phone.content(), allowed)
    assert not run_axe(phone)
    assert not JS_ERRORS, JS_ERRORS
