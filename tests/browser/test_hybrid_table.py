"""A hybrid table in the browser (issue 18): Asha and Bikash share Asha's phone (pass and play),
Chandra plays on her own; after some play Bikash moves to a phone of his own mid-game. Every
phone's page is checked against the table's state: nobody sees a card they should not."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    assert_no_foreign_cards,
    frame,
    hand_number,
    join_by_link,
    screenshot,
    take_turn,
)


def play_a_little(phones: list[Any], server: LiveServer, code: str, until_hand: int) -> int:
    """Tap through turns and hand-offs on every phone until ``until_hand`` is dealt; returns the
    hand-offs seen on shared phones. Every page is checked for foreign cards as it goes."""
    handoffs = 0
    deadline = time.monotonic() + 300  # a bound on a loaded machine, not a pace
    # (A phone on its hand-off screen shows no hand number: the highest one is the table's.)
    while max(hand_number(phone) for phone in phones) < until_hand:
        if time.monotonic() > deadline:
            for k, phone in enumerate(phones):
                screenshot(phone, f"hybrid-stuck-{k}")
            raise AssertionError("the game did not move on")
        for phone in phones:
            assert_no_foreign_cards(phone, server, code)
            if phone.get_by_test_id("handoff").count():
                assert phone.locator("#my-cards .card[data-card]").count() == 0
                handoffs += 1
                phone.get_by_test_id("handoff-confirm").click()
                after = "[data-testid=action-bar], [data-testid=waiting-bar]"
                phone.locator(after).first.wait_for()
            elif not take_turn(phone, cautious=True):  # the game must last a few hands
                time.sleep(0.02)
    return handoffs


def test_a_hybrid_table_plays_and_a_local_player_moves_to_their_own_phone(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    asha.goto(app_server.url + "/new/?mode=friends")
    asha.fill("input[name=name]", "Asha")
    asha.get_by_test_id("people-here").locator("summary").click()
    asha.fill("input[name=name_2]", "Bikash")
    screenshot(asha, "hybrid-create")
    asha.get_by_test_id("create-submit").click()
    asha.get_by_test_id("start-game").wait_for()
    link = asha.locator("#join-link").get_attribute("href")
    assert link
    chandra = new_phone()
    join_by_link(chandra, link, "Chandra")
    asha.get_by_test_id("start-game").click()
    asha.locator("[data-testid=handoff], [data-screen=play]").first.wait_for()
    code = frame(asha)["code"]

    handoffs = play_a_little([asha, chandra], app_server, code, until_hand=3)
    assert handoffs >= 2

    # Bikash's own phone: made from the shared phone's menu, opened on his.
    asha.goto(f"{app_server.url}/t/{code}/move/")
    asha.get_by_role("button", name="Move Bikash (this phone)").click()
    url = asha.get_by_test_id("move-link").get_attribute("href")
    bikash = new_phone()
    bikash.goto(url or "")
    bikash.get_by_test_id("move-confirm").click()
    bikash.locator("[data-screen=play], [data-screen=over]").first.wait_for()
    asha.goto(f"{app_server.url}/t/{code}/")
    asha.locator("[data-screen]").first.wait_for()
    assert asha.locator("[data-testid=handoff]").count() == 0  # one person left on it
    assert "Bikash" in bikash.get_by_test_id("me").inner_text()
    now = max(hand_number(phone) for phone in (asha, chandra, bikash))
    play_a_little([asha, chandra, bikash], app_server, code, until_hand=now + 2)
    screenshot(bikash, "hybrid-moved")
    assert not JS_ERRORS, JS_ERRORS
