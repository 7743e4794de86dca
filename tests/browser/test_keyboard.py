"""Playing from a keyboard: F folds, C checks or calls, R opens the bet sheet, Enter confirms,
Escape cancels; never while typing in a field; the hint shows only with a mouse."""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    frame,
    start_computer_game,
    wait_connection,
    wait_new_version,
    watch_errors,
)


def _desktop(browser: Any, fine_pointer: bool = True) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, device_scale_factor=1, locale="en-GB",
        has_touch=not fine_pointer, is_mobile=not fine_pointer,
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch_errors(page)
    return page


def _my_turn(page: Any, server: LiveServer) -> None:
    start_computer_game(page, server, "Asha", until="action-bar")
    # A click waits for a button to be enabled by itself; a key does not, and the buttons are
    # disabled until the socket opens (a clean-clone run saw R open no sheet).
    wait_connection(page, "open")


def test_keys_open_the_sheet_cancel_it_and_act(app_server: LiveServer, browser: Any) -> None:
    page = _desktop(browser)
    _my_turn(page, app_server)
    assert page.locator(".key-hint").is_visible()
    page.locator("body").click(position={"x": 5, "y": 400})
    if page.locator("[data-open-bet-sheet]").count():
        page.keyboard.press("r")
        page.locator("[data-bet-sheet]").wait_for()
        # Typing a number in the amount field is typing, not a key for the table.
        page.locator("#bet-amount").press("c")
        assert page.locator("[data-bet-sheet]").is_visible()
        page.keyboard.press("Escape")
        page.locator("[data-bet-sheet]").wait_for(state="hidden")
    old = frame(page)["version"]
    page.keyboard.press("c")
    wait_new_version(page, old)
    assert not JS_ERRORS, JS_ERRORS


def test_enter_confirms_the_bet(app_server: LiveServer, browser: Any) -> None:
    page = _desktop(browser)
    for _ in range(3):
        _my_turn(page, app_server)
        if page.locator("[data-open-bet-sheet]").count():
            break
    page.keyboard.press("r")
    page.locator("[data-bet-sheet]").wait_for()
    page.locator("[data-bet-sheet] h2").click()  # focus out of the field: Enter is the key's
    old = frame(page)["version"]
    page.keyboard.press("Enter")
    wait_new_version(page, old)
    log = page.evaluate("() => document.getElementById('log').textContent")
    assert "Asha bets" in log or "Asha raises" in log, log


def test_the_hint_is_not_shown_on_a_touch_screen(app_server: LiveServer, browser: Any) -> None:
    page = _desktop(browser, fine_pointer=False)
    _my_turn(page, app_server)
    assert page.locator(".key-hint").count() == 1
    assert not page.locator(".key-hint").is_visible()
