"""The host's sheet: a question the host opened there (end the game now?) stays open when the
controls are drawn again (the server's answer to opening the sheet, a new host, a late
friend's request), so it never closes under the host's finger."""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer
from tests.browser.layout import computer_table, still_phone

FRESH_MENU = "() => !document.getElementById('host-menu').dataset.old"


def _drawn_again(page: Any) -> None:
    """Ask the server for the controls again and wait until a fresh #host-menu is in."""
    page.evaluate("() => { document.getElementById('host-menu').dataset.old = '1'; }")
    page.evaluate("() => Holdem.live.send({ type: 'host', do: 'menu' })")
    page.wait_for_function(FRESH_MENU)


def test_an_open_question_stays_open_when_the_controls_are_drawn_again(
    app_server: LiveServer, browser: Any
) -> None:
    page = still_phone(browser)
    computer_table(page, app_server, seats=3, level="easy", turn=90)
    page.locator("#host-menu[data-host='1']").wait_for(state="attached")
    page.get_by_test_id("host-toggle").click()
    page.locator("[data-host-panel]").wait_for()
    _drawn_again(page)  # the sheet's own request answered too, or before
    question = page.locator("details.host-end")
    assert not question.evaluate("d => d.open")
    question.locator("summary").click()
    _drawn_again(page)
    assert question.evaluate("d => d.open"), "the question closed when the menu came again"
    page.get_by_test_id("host-end").wait_for()  # its answer still there to tap
    # Closed by the host, it stays closed when drawn again.
    question.locator("summary").click()
    _drawn_again(page)
    assert not question.evaluate("d => d.open")
    assert not JS_ERRORS, JS_ERRORS
