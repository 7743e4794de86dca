"""The "what happened this hand" drawer stays as the person left it while the table moves on.

Open, it stays open across every new view, and its links are the very same elements all along
(a link redrawn at every view lets no tap land); once the next hand is dealt it still shows who
won the last one, under "Last hand", above nothing but the new hand's blinds.
"""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    frame,
    hand_number,
    screenshot,
    start_computer_game,
    take_turn,
    wait_new_version,
)

MARK_LINKS = """() => {
  window.__links = [...document.querySelectorAll('.log-drawer a')];
  return window.__links.length;
}"""
SAME_LINKS = """() => {
  const now = [...document.querySelectorAll('.log-drawer a')];
  return now.length === window.__links.length && now.every((a, i) => a === window.__links[i])
    && now.every(a => a.isConnected);
}"""


def test_the_drawer_stays_open_with_still_links_and_shows_the_last_hands_result(
    app_server: LiveServer, new_phone: Any
) -> None:
    page = new_phone()
    start_computer_game(page, app_server, "Asha")
    page.get_by_test_id("action-bar").wait_for()
    page.locator(".log-drawer > summary").click()
    history = page.get_by_test_id("history-link")
    history.wait_for()
    assert page.evaluate(MARK_LINKS) == 3  # earlier hands, another phone, notifications
    first_hand = hand_number(page)
    versions_seen = 0
    deadline = time.monotonic() + 120  # a bound for a loaded machine
    while hand_number(page) == first_hand:
        assert time.monotonic() < deadline, "the first hand did not end"
        before = frame(page)["version"]
        if not take_turn(page, cautious=True):  # never all her chips: the game goes on
            try:
                wait_new_version(page, before, timeout=5)
            except Exception:  # no new view within the time: look again
                continue
        versions_seen += 1
        # Every new view: still open, the same links (taps land on them).
        assert page.locator(".log-drawer").evaluate("d => d.open"), "the drawer closed"
        assert page.evaluate(SAME_LINKS), "the drawer's links were redrawn"
    assert versions_seen >= 1
    # The next hand is dealt: the last hand's result is still in the drawer.
    last = page.get_by_test_id("log-last")
    last.wait_for()
    assert "wins" in last.inner_text(), last.inner_text()
    assert page.evaluate(SAME_LINKS)
    screenshot(page, "log-drawer-last-hand")
    # A tap on "Earlier hands" lands, whatever the table does meanwhile.
    history.click()
    page.wait_for_url("**/hands/")
    assert not JS_ERRORS, JS_ERRORS
