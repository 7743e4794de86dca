"""Every tappable element is big enough for a thumb on the screens around the table.

The layout test (tests/browser/test_layout.py) checks the table itself in every state; this
walk checks what is around it, at the two phone sizes people use most: table talk open, the
home page once it lists a game, the hand list, a replayed hand with its deck proof, and the
recap. The rule and its listed exceptions are tests/browser/layout.py's TARGETS_JS.
"""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    play_until_hand,
    screenshot,
    start_computer_game,
)
from tests.browser.layout import TARGETS_JS, laid_out, settle

SIZES = [(320, 568), (390, 844)]


def _targets(page: Any, screen: str, found: dict[str, list[str]]) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        laid_out(page, width, height)
        settle(page)
        screenshot(page, f"targets-{screen}-{width}x{height}")
        problems = page.evaluate(TARGETS_JS + "targetProblems()")
        if problems:
            found[f"{screen} {width}x{height}"] = problems


def test_every_tappable_element_around_the_table_is_at_least_44_px(
    app_server: LiveServer, new_phone: Any
) -> None:
    page = new_phone()
    code = start_computer_game(page, app_server, "Asha")
    play_until_hand(page, 2)
    found: dict[str, list[str]] = {}
    page.locator("[data-chat-toggle]").click()
    page.locator("#chat-panel").wait_for()
    _targets(page, "talk", found)
    page.goto(app_server.url + "/")
    page.get_by_test_id("game-line").first.wait_for()
    _targets(page, "home-with-a-game", found)
    page.goto(app_server.url + f"/t/{code}/hands/")
    page.get_by_test_id("hand-list").wait_for()
    _targets(page, "hand-list", found)
    page.get_by_test_id("hand-link").first.click()
    page.get_by_test_id("replayer").wait_for()
    _targets(page, "replay", found)
    page.goto(app_server.url + f"/t/{code}/recap/")
    _targets(page, "recap", found)
    page.set_viewport_size({"width": 390, "height": 844})
    assert not found, "\n".join(f"{k}: {p}" for k, v in found.items() for p in v)
    assert not JS_ERRORS, JS_ERRORS
