"""A hand from elsewhere in the replayer, in the browser (issue 18): a player's own PHH download
pasted into /replay/ plays back step by step; a broken file gets its reason."""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    expect_console,
    play_until_hand,
    run_axe,
    screenshot,
)


def test_a_downloaded_hand_pasted_into_the_replayer_plays_back(
    app_server: LiveServer, asha_at_a_computer_table: tuple[Any, str]
) -> None:
    phone, code = asha_at_a_computer_table
    play_until_hand(phone, 2)
    text = phone.request.get(f"{app_server.url}/t/{code}/hands/1/hand.phh").text()
    assert 'variant = "NT"' in text

    phone.goto(app_server.url + "/")
    phone.get_by_test_id("foreign-link").click()
    phone.get_by_test_id("foreign-text").fill(text)
    screenshot(phone, "foreign-upload")
    assert not run_axe(phone)
    phone.get_by_test_id("foreign-submit").click()
    phone.get_by_test_id("replayer").wait_for()
    for _ in range(60):
        nxt = phone.get_by_test_id("replay-next")
        if nxt.is_disabled():
            break
        nxt.click()
    assert phone.locator("[data-replay-me] .card").count() == 2  # Asha's own cards
    screenshot(phone, "foreign-replay")
    assert not run_axe(phone)

    phone.get_by_test_id("foreign-again").click()
    expect_console(r"status of 400")  # the refusal of a hand of another game
    phone.get_by_test_id("foreign-text").fill(text.replace('variant = "NT"', 'variant = "FT"'))
    phone.get_by_test_id("foreign-submit").click()
    error = phone.get_by_test_id("foreign-error")
    assert "the variant 'FT' is not no-limit Texas hold'em" in error.inner_text()
    screenshot(phone, "foreign-refused")
    assert not JS_ERRORS, JS_ERRORS
