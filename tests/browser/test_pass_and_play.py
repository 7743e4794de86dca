"""Three people share one phone: the page never holds anyone's cards but the current player's."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    assert_no_foreign_cards,
    frame,
    hand_number,
    screenshot,
    take_turn,
)


def test_pass_and_play_never_puts_another_players_cards_in_the_page(
    app_server: LiveServer, new_phone: Any
) -> None:
    phone = new_phone()
    phone.goto(app_server.url + "/")
    phone.get_by_role("link", name="Pass and play").click()
    phone.fill("input[name=name]", "Asha")
    phone.fill("input[name=name_2]", "Bikash")
    phone.fill("input[name=name_3]", "Chandra")
    phone.locator("summary", has_text="Game settings").click()
    phone.check("input[name=seats][value='3']")
    phone.get_by_test_id("create-submit").click()
    phone.get_by_test_id("start-game").click()
    phone.locator("[data-testid=handoff], [data-testid=action-bar]").first.wait_for()
    code = frame(phone)["code"]

    checked = handoffs = turns = 0
    viewers: set[int] = set()
    deadline = time.monotonic() + 300  # a bound on a loaded machine, not a pace
    while hand_number(phone) < 4 and time.monotonic() < deadline:
        if assert_no_foreign_cards(phone, app_server, code):
            checked += 1
        if phone.get_by_test_id("handoff").count():
            if not handoffs:
                screenshot(phone, "handoff")
            # Nothing of anyone's hand is on screen while the phone changes hands.
            assert phone.locator("#my-cards .card[data-card]").count() == 0
            handoffs += 1
            phone.get_by_test_id("handoff-confirm").click()
            phone.locator("[data-testid=action-bar], [data-testid=waiting-bar]").first.wait_for()
            continue
        seat = frame(phone)["seat"]
        if phone.get_by_test_id("action-bar").count():
            assert seat is not None
            viewers.add(seat)
            assert phone.locator("#my-cards .card[data-card]").count() == 2
            if take_turn(phone):
                turns += 1
            continue
        time.sleep(0.05)

    assert hand_number(phone) >= 4, "three hands were not played in time"
    assert len(viewers) == 3 and handoffs >= 3 and turns >= 6, (viewers, handoffs, turns)
    assert checked >= turns, (checked, turns)
    assert not JS_ERRORS, JS_ERRORS
