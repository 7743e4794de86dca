"""The question "Fold even though you can check for free?" belongs to one turn: a new view of
the table (the turn timed out, the hand moved on, the player was moved to another table) closes
it unanswered, so that its "Check instead" never acts on a later turn and the modal dialog
does not leave the page's buttons untappable. Found by scripts/tournament_ten_phones.py."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from tests.browser.helpers import JS_ERRORS, LiveServer, frame, start_computer_game

pytestmark = pytest.mark.slow


def _my_turn_with_a_free_check(page: Any, server: LiveServer) -> None:
    """Call whenever it is this phone's turn until a turn comes where checking is free (a
    game the computers won meanwhile, calling everything, is started again)."""
    deadline = time.monotonic() + 300  # a bound on a loaded machine, not a pace
    while not page.locator("[data-action-bar] [data-act=check]").count():
        assert time.monotonic() < deadline, "no turn with a free check came"
        if frame(page)["screen"] == "over":
            start_computer_game(page, server, "Asha")
            continue
        call = page.locator("[data-action-bar] [data-act=call]")
        if call.count():
            with contextlib.suppress(Exception):  # the view changed under the finger
                call.first.click(timeout=2000)
        page.wait_for_timeout(50)


def test_a_new_view_of_the_table_closes_the_fold_question_of_a_turn_that_is_gone(
    app_server: LiveServer, new_phone: Any
) -> None:
    page = new_phone()
    start_computer_game(page, app_server, "Asha")
    _my_turn_with_a_free_check(page, app_server)
    version = frame(page)["version"]
    page.locator("[data-action-bar] [data-act=fold]").click()
    page.locator("dialog.confirm").wait_for()
    # A new view arrives (here the same table drawn again, as the socket swaps it in).
    page.evaluate(
        "() => { const f = document.getElementById('table-frame');"
        " const html = f.outerHTML.replace('<section', '<section hx-swap-oob=\"true\"');"
        " htmx.swap(document.body, html, {swapStyle: 'none'}); }"
    )
    page.wait_for_function("() => !document.querySelector('dialog.confirm')")
    # Nothing was sent for the turn the question was about, and the page's buttons answer.
    assert frame(page)["version"] == version
    page.locator("[data-action-bar] [data-act=check]").click()
    page.wait_for_function(
        "v => Number(document.getElementById('table-frame').dataset.version) > v", arg=version
    )
    assert not JS_ERRORS, JS_ERRORS
