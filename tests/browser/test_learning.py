"""Learning while playing (issue 27) on a 360x740 phone: the odds at each seat while an all-in
hand's board is dealt, the hint button, and the replayer explaining the player's decisions.
Screenshots: screenshots/learn-*.png."""

from __future__ import annotations

import json
import time
from typing import Any, cast

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    assert_no_foreign_cards,
    frame,
    screenshot,
    start_computer_game,
    take_turn,
)

SMALL = {"width": 360, "height": 740}


# The odds badges and the frame's data read in one look, while a run-out is on screen: the
# run-out goes on meanwhile (on a loaded machine the river came between two looks).
RUNOUT_NOW = """() => document.querySelector('[data-testid=runout-note]') && ({
  texts: Array.from(document.querySelectorAll('.odds-badge'), b => b.innerText),
  data: document.getElementById('table-data').textContent,
})"""


def _run_out_seen(
    phone: Any, server: LiveServer, code: str, timeout: float = 240
) -> dict[str, Any] | None:
    """Go all in on every turn until a hand is run out with the hands face up (the odds show
    at the seats), or the game ends. Returns what was on screen then (RUNOUT_NOW), or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and frame(phone)["screen"] != "over":
        seen = phone.evaluate(RUNOUT_NOW)
        if seen:
            return cast(dict[str, Any], seen)
        if not take_turn(phone, shove=True):
            try:
                phone.wait_for_selector(
                    "[data-testid=runout-note], [data-testid=action-bar]", timeout=2000
                )
            except Exception:  # nothing came: look again
                continue
    return None


def test_the_odds_show_at_each_seat_while_an_all_in_hand_is_run_out(
    app_server: LiveServer, new_phone: Any
) -> None:
    seen_now = None
    for attempt in range(4):
        phone = new_phone()
        phone.set_viewport_size(SMALL)
        code = start_computer_game(phone, app_server, f"Asha{attempt}")
        seen_now = _run_out_seen(phone, app_server, code)
        if seen_now:
            break
    assert seen_now, "no hand was run out with the hands face up"
    texts = seen_now["texts"]
    assert len(texts) >= 2, texts
    assert all("Win" in t and "%" in t for t in texts)
    runout = json.loads(seen_now["data"] or "{}")["runout"]
    assert len(runout["seats"]) == len(texts)
    screenshot(phone, "learn-runout-odds")
    assert_no_foreign_cards(phone, app_server, code)
    # The result comes once the river is out: the badges go and the winner is shown.
    phone.wait_for_selector(".odds-badge", state="detached", timeout=20_000)
    assert not phone.locator("#table-frame.runout").count()
    assert not JS_ERRORS, JS_ERRORS


def test_the_hint_and_the_replayer_explain_the_players_own_decisions(
    app_server: LiveServer, new_phone: Any
) -> None:
    phone = new_phone()
    phone.set_viewport_size(SMALL)
    code = start_computer_game(phone, app_server, "Bina")
    phone.get_by_test_id("action-bar").wait_for(timeout=60_000)
    # The hand the hint is taken in: not always the first (the computer players may fold the
    # first one round to Bina's big blind, and then she never acts in it).
    hinted = int(phone.evaluate("() => document.querySelector('[data-hand]').dataset.hand"))
    # A view arriving as the page's socket opens (the table moved on while it loaded) draws
    # the bar again, and the hint box in it: ask again until the hint is shown.
    for _ in range(3):
        phone.get_by_test_id("hint").click()
        try:
            phone.get_by_test_id("hint-lines").wait_for(timeout=10_000)
            break
        except PlaywrightTimeout:
            continue
    phone.get_by_test_id("hint-lines").wait_for()
    screenshot(phone, "learn-hint")
    text = phone.get_by_test_id("hint-lines").inner_text()
    assert "Your chance" in text
    assert_no_foreign_cards(phone, app_server, code)
    phone.locator("[data-hint-close]").click()
    assert not phone.get_by_test_id("hint-lines").count()
    # Play this hand out (check or call), then open it in the replayer.
    history = phone.get_by_test_id("history-link").get_attribute("href") or ""
    deadline = time.monotonic() + 120
    while True:
        rows = phone.evaluate("() => document.querySelector('[data-hand]')?.dataset.hand")
        if (rows and int(rows) > hinted) or frame(phone)["screen"] == "over":
            break
        assert time.monotonic() < deadline, f"hand {hinted} was still being played after 120 s"
        if not take_turn(phone):
            time.sleep(0.05)  # a look again soon: it is not this phone's turn
    phone.goto(f"{app_server.url}{history.rstrip('/')}/{hinted}/")
    phone.get_by_test_id("replayer").wait_for()
    for _ in range(60):
        if phone.get_by_test_id("replay-explain").is_visible():
            break
        assert phone.get_by_test_id("replay-next").is_enabled(), (
            f"the end of hand {hinted} reached with no decision of Bina's explained"
        )
        phone.get_by_test_id("replay-next").click()
    explain = phone.get_by_test_id("replay-explain")
    assert explain.is_visible()
    phone.evaluate("() => document.querySelector('[data-testid=replay-explain]')"
                   ".scrollIntoView({block: 'end'})")
    screenshot(phone, "learn-replay-explain")
    assert "chance" in explain.inner_text()
    assert not JS_ERRORS, JS_ERRORS
