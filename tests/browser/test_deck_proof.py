"""The deck fixed before the first card, in the browser (issue 18): the table shows the deck
code during the hand, and the hand's page checks the proof with Web Crypto."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, play_until_hand, run_axe, screenshot


def test_the_table_shows_the_deck_code_and_the_hand_page_verifies_the_deck(
    app_server: LiveServer, asha_at_a_computer_table: tuple[Any, str]
) -> None:
    phone, code = asha_at_a_computer_table
    # In the drawer of the bar above the table, not on the bar itself.
    assert not phone.locator(".table-top__info [data-testid=deck-root]").count()
    phone.locator(".log-drawer > summary").click()
    shown = phone.get_by_test_id("deck-root").inner_text()
    assert len(shown.split()[-1]) == 4 and len(shown.split()) == 4  # "Deck 3f9a 1c27 b0e4"
    screenshot(phone, "table-deck-code")
    phone.locator(".log-drawer > summary").click()
    play_until_hand(phone, 2)

    phone.goto(f"{app_server.url}/t/{code}/hands/1/")
    result = phone.get_by_test_id("deck-proof-result")
    phone.wait_for_selector("[data-deck-proof][data-state]")
    assert phone.get_by_test_id("deck-proof").get_attribute("data-state") == "verified"
    assert "deck verified ✓" in result.inner_text()
    assert " ".join(shown.split()[1:]) in phone.get_by_test_id("deck-proof").inner_text()
    phone.get_by_test_id("deck-proof").scroll_into_view_if_needed()
    screenshot(phone, "history-deck-verified")
    assert not run_axe(phone)

    # A proof whose card was changed on the way is caught, with the reason.
    def altered(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        entry = data["revealed"][-1]
        entry["card"] = "2c" if entry["card"] != "2c" else "3c"
        route.fulfill(response=response, body=json.dumps(data))

    phone.route("**/proof.json*", altered)
    phone.reload()
    phone.wait_for_selector("[data-deck-proof][data-state]")
    assert phone.get_by_test_id("deck-proof").get_attribute("data-state") == "failed"
    text = result.inner_text()
    assert "could not be verified" in text and "does not match the commitment" in text
    phone.get_by_test_id("deck-proof").scroll_into_view_if_needed()
    screenshot(phone, "history-deck-failed")
    assert not JS_ERRORS, JS_ERRORS
