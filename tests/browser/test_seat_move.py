"""Moving a seat to another phone in the middle of a hand, by tapping (issue 18): the link's QR
page on the old phone, the confirmation on the new one, the cards follow, the old phone watches."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    create_friends_table,
    expect_console,
    frame,
    join_by_link,
    run_axe,
    screenshot,
)


def _my_cards(page: Any) -> list[str]:
    html = page.locator("#my-cards").inner_html()
    return re.findall(r'data-card="(\w\w)"', html)


def test_a_seat_moves_to_another_phone_mid_hand(app_server: LiveServer, new_phone: Any) -> None:
    asha = new_phone()
    link = create_friends_table(asha, app_server)
    bikash = new_phone()
    join_by_link(bikash, link, "Bikash")
    asha.get_by_test_id("start-game").click()
    asha.locator("[data-screen=play]").wait_for()
    cards = _my_cards(asha)
    assert len(cards) == 2
    code = frame(asha)["code"]

    asha.goto(f"{app_server.url}/t/{code}/move/")
    asha.locator("[data-testid^=move-seat-]").first.click()
    asha.get_by_test_id("move-qr").wait_for()
    screenshot(asha, "seat-move-link")
    assert not run_axe(asha)
    url = asha.get_by_test_id("move-link").get_attribute("href")
    assert url and "/move/" in url

    new = new_phone()
    new.goto(url)
    assert "Play as Asha on this phone?" in new.locator("h1").inner_text()
    screenshot(new, "seat-move-confirm")
    new.get_by_test_id("move-confirm").click()
    new.locator("[data-screen=play]").wait_for()
    assert _my_cards(new) == cards  # the cards followed, mid-hand
    screenshot(new, "seat-move-new-phone")

    asha.goto(f"{app_server.url}/t/{code}/")
    asha.get_by_test_id("watching").wait_for()
    assert asha.locator("#my-cards").count() == 0
    assert not set(cards) & set(re.findall(r'data-card="(\w\w)"', asha.content()))

    again = new_phone()
    expect_console(r"status of 410")  # the used link's refusal, asked for here
    again.goto(url)  # the link worked once
    assert "already used" in again.get_by_test_id("message-text").inner_text()
    assert not JS_ERRORS, JS_ERRORS
