"""Computer players who say why (issue 27), in the browser at phone size and on a wide screen:
a tap on a computer player's action badge shows its reason in plain words, which names no
card. Screenshots: screenshots/reasons-*.png."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import (
    LiveServer,
    assert_no_foreign_cards,
    screenshot,
    start_computer_game,
    take_turn,
)

SIZES = {"phone": {"width": 360, "height": 740}, "wide": {"width": 1280, "height": 800}}


def _tap_a_reason(phone: Any, timeout: float = 120) -> str:
    """Play (check or call) until a computer player's badge is there, tap it; the sheet's text."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        badges = phone.locator("#seats [data-why]")
        if badges.count():
            try:
                badges.first.click(timeout=2000)
                phone.get_by_test_id("why-lines").wait_for(timeout=5000)
                return str(phone.get_by_test_id("why-sheet").inner_text())
            except Exception:  # the frame moved on under the tap: look again
                continue
        if not take_turn(phone):
            phone.wait_for_timeout(100)  # (a poll of the page, not a synchronisation)
    raise AssertionError("no computer player's reason could be tapped")


def test_a_tap_on_a_computer_players_action_shows_why(
    app_server: LiveServer, new_phone: Any
) -> None:
    for size, viewport in SIZES.items():
        phone = new_phone()
        phone.set_viewport_size(viewport)
        code = start_computer_game(phone, app_server, "Asha")
        text = _tap_a_reason(phone)
        assert text.startswith("Why ") and ("I " in text)
        assert "cards stay hidden" in text
        screenshot(phone, f"reasons-{size}")
        assert assert_no_foreign_cards(phone, app_server, code)
        phone.locator("[data-why-close]").click()
        phone.locator("[data-testid=why-sheet]").wait_for(state="detached")
