"""Nothing drawn on a seat covers anything else on it, at every size, in English and in Nepali.

A six-seat friends table with four computer players (their actions are badges with a "?") is
frozen while a friend thinks (the countdown's seconds and "THINKING..." on his seat) and on your
own turn, and measured at every size by tests/browser/layout.py, whose seat
check asks that the name, the chips, the state word, the badge, the seconds, the computer mark
and the dealer and blind markers never overlap, that the name and the chips stay inside the
seat and that no marker leaves the screen. Screenshots: screenshots/<size>/seats-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    start_computer_game,
    take_turn,
    watch_errors,
)
from tests.browser.layout import FREEZE_SCRIPT, check_all_sizes, freeze, thaw

TALK_OVER_LOBBY = """() => {
  const talk = document.querySelector('[data-chat-toggle]').getBoundingClientRect();
  return [...document.querySelectorAll('.lobby > *')].filter(el => {
    const r = el.getBoundingClientRect();
    return r.width && Math.min(r.right, talk.right) - Math.max(r.left, talk.left) > 1 &&
      Math.min(r.bottom, talk.bottom) - Math.max(r.top, talk.top) > 1;
  }).map(el => el.className);
}"""
LOOK = """() => ({
  thinking: !!document.querySelector('#seats .seat--turn .countdown__secs'),
  mine: !!document.querySelector('[data-testid=action-bar]'),
  over: document.getElementById('table-frame')?.dataset.screen === 'over',
})"""


def _phone(browser: Any, language: str) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True,
        is_mobile=True, locale="ne-NP" if language == "ne" else "en-GB", reduced_motion="reduce",
    )
    context.set_default_timeout(20_000)
    context.add_init_script(FREEZE_SCRIPT)
    page = context.new_page()
    watch_errors(page)
    return page


@pytest.mark.parametrize("language", ["en", "ne"])
def test_a_seats_name_badges_countdown_and_markers_never_overlap(
    app_server: LiveServer, browser: Any, language: str
) -> None:
    """Asha hosts a friends table of six (four computer players), Bikash joins by link; Asha's
    phone is measured while Bikash thinks (his countdown and "THINKING...") and on her turn."""
    asha, bikash = _phone(browser, language), _phone(browser, "en")
    asha.goto(app_server.url + "/new/?mode=friends")
    assert asha.locator("html").get_attribute("lang") == language
    asha.fill("input[name=name]", "Krishnamurti")
    asha.locator("details:has(input[name=seats]) > summary").click()
    asha.check("input[name=seats][value='6']")
    asha.get_by_test_id("create-submit").click()
    # The talk button covers no card of the lobby, at the two phone sizes people use most.
    for width, height in [(320, 568), (390, 844)]:
        asha.set_viewport_size({"width": width, "height": height})
        covered = asha.evaluate(TALK_OVER_LOBBY)
        assert not covered, f"{width}x{height}: the talk button covers {covered}"
    asha.set_viewport_size({"width": 390, "height": 844})
    link = asha.locator("#join-link").get_attribute("href")
    bikash.goto(link)
    bikash.fill("#join-name", "Bikash")
    bikash.get_by_test_id("join-submit").click()
    bikash.get_by_test_id("waiting-for-host").wait_for()
    asha.locator(".lobby-seat:not(.lobby-seat--open)").nth(1).wait_for()
    asha.get_by_test_id("start-game").click()
    asha.get_by_test_id("table-frame").and_(asha.locator("[data-screen=play]")).wait_for()
    found: dict[str, Any] = {}
    wanted = {"thinking", "mine"}
    seen: set[str] = set()
    deadline = time.monotonic() + 240  # a bound for a loaded machine
    while seen != wanted and time.monotonic() < deadline:
        freeze(asha)
        look = asha.evaluate(LOOK)
        if look["over"]:
            break
        for state in sorted(wanted - seen):
            if look[state]:
                problems = check_all_sizes(asha, f"seats-{state}-{language}")
                asha.set_viewport_size({"width": 390, "height": 844})
                if problems:
                    found[state] = problems
                seen.add(state)
        thaw(asha)
        acted = take_turn(asha, cautious=True) if look["mine"] else False
        # Bikash thinks until Asha's phone was measured while he did.
        if "thinking" in seen:
            acted = take_turn(bikash, cautious=True) or acted
        if not acted:
            time.sleep(0.05)
    assert not found, found
    assert seen == wanted, seen
    assert not JS_ERRORS, JS_ERRORS


def test_a_long_notice_is_as_wide_as_the_screen_allows(
    app_server: LiveServer, browser: Any
) -> None:
    """A notice of a sentence or two (the learning table switched on, say) reads as a line or
    two across the top, not as a narrow dark column over the controls below it."""
    page = _phone(browser, "en")
    page.set_viewport_size({"width": 320, "height": 568})
    start_computer_game(page, app_server, "Asha")
    box = page.evaluate("""() => {
      const notice = document.getElementById('table-notice');
      notice.textContent = 'Learning table on: the computer players say why they act, and ' +
        'the hint button shows the odds.';
      const r = notice.getBoundingClientRect();
      return {left: r.left, right: r.right, height: r.height,
              line: parseFloat(getComputedStyle(notice).lineHeight) || 20};
    }""")
    assert box["left"] >= 0 and box["right"] <= 320, box
    assert box["right"] - box["left"] > 280, box
    assert box["height"] < 5 * box["line"], box  # three lines of text and its padding at most
