"""The time bank on the countdown ring (P4) and what would have come (P5) fit the small phones.

A heads-up table against the computer: on a turn, the ring is shown in its bank phase (the frame
as drawn, its seconds set inside the bank: no waiting for the time to act to run out), and
after a hand that ended before the river the phone asks what would have come and the cards are
shown, marked not played. Each state is frozen and measured at every size
(tests/browser/layout.py); screenshots: screenshots/<size>/time-bank.png and rest-of-board.png.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, tap_fold
from tests.browser.layout import computer_table, freeze, measure, still_phone, thaw

BANK_PHASE_JS = """() => {
  const ring = document.querySelector('#me [data-countdown][data-bank]');
  if (!ring) return false;
  ring._start = null;  // read again: 12 s left, all of them bank
  ring.setAttribute('data-remaining', '12');
  return true;
}"""


def _fold(page: Any) -> None:
    from playwright.sync_api import Error as PlaywrightError

    with contextlib.suppress(PlaywrightError):  # the view changed under the finger
        tap_fold(page)


def test_p4_p5_the_bank_ring_and_what_would_have_come_fit_every_size(
    app_server: LiveServer, browser: Any
) -> None:
    page = still_phone(browser)
    computer_table(page, app_server, seats=2)
    found: dict[str, Any] = {}
    seen: set[str] = set()
    deadline = time.monotonic() + 240
    while seen != {"time-bank", "rest-of-board"} and time.monotonic() < deadline:
        ask = page.get_by_test_id("ask-rest-of-board")
        if "rest-of-board" not in seen and ask.count():
            try:
                ask.click(timeout=2000)
                page.get_by_test_id("rest-of-board").wait_for(timeout=2000)
            except Exception:
                continue  # the next hand came first: another time
            freeze(page)
            assert "not played" in page.get_by_test_id("rest-of-board").inner_text()
            measure(page, "rest-of-board", found)
            seen.add("rest-of-board")
            thaw(page)
            continue
        if page.locator("[data-action-bar]").count():
            if "time-bank" not in seen:
                freeze(page)
                if page.evaluate(BANK_PHASE_JS):
                    page.locator("#me .countdown--bank").wait_for(timeout=3000)
                    measure(page, "time-bank", found)
                    seen.add("time-bank")
                thaw(page)
            _fold(page)
        time.sleep(0.05)
    assert seen == {"time-bank", "rest-of-board"}, seen
    assert not found, found
    assert not JS_ERRORS, JS_ERRORS
