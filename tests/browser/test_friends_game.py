"""Three friends on three phones play a whole game by tapping the real buttons."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    hand_number,
    join_by_link,
    screenshot,
    take_turn,
)
from tests.browser.layout import settle

pytestmark = pytest.mark.slow

# Records the fill of each flying chip's top as it is laid over the page.
FLOWN_CHIPS = """() => {
  window.flownChips = [];
  new MutationObserver((changes) => changes.forEach((change) => change.addedNodes.forEach((n) => {
    if (!n.classList || !n.classList.contains("chip-fly")) return;
    const top = n.querySelector(".chips__top");
    window.flownChips.push(top ? getComputedStyle(top).fill : "none");
  }))).observe(document.body, {childList: true});
}"""


def _create_table(page: Any, server: LiveServer, name: str, seats: int) -> None:
    page.goto(server.url + "/")
    screenshot(page, "home")
    page.get_by_role("link", name="Play with friends").click()
    page.fill("input[name=name]", name)
    page.locator("summary", has_text="Game settings").click()
    page.check(f"input[name=seats][value='{seats}']")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("start-game").wait_for()


def test_three_phones_create_join_by_code_and_link_play_to_the_end(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    _create_table(asha, app_server, "Asha", seats=3)
    code = asha.locator("#table-code").inner_text()
    link = asha.locator("#join-link").get_attribute("href")
    assert link and code.replace(" ", "") in link

    # Bikash types the code the way people do: small letters and a space.
    bikash = new_phone()
    bikash.goto(app_server.url + "/")
    bikash.fill("#join-code", " " + code.lower() + " ")
    assert bikash.input_value("#join-code") == code.replace(" ", "")
    bikash.fill("#join-name", "Bikash")
    bikash.get_by_role("button", name="Join", exact=True).click()
    bikash.get_by_test_id("waiting-for-host").wait_for()

    # Chandra opens the link she was sent.
    chandra = new_phone()
    join_by_link(chandra, link, "Chandra")

    # The host sees both arrive without reloading.
    asha.locator(".lobby-seat:not(.lobby-seat--open)").nth(2).wait_for()
    assert asha.locator("#lobby-seats").inner_text().count("Bikash") == 1
    screenshot(asha, "lobby")

    asha.get_by_test_id("start-game").click()
    phones = [asha, bikash, chandra]
    for phone in phones:
        phone.get_by_test_id("table-frame").and_(phone.locator("[data-screen=play]")).wait_for()
    # The chips that fly (bets into the pot, the pot to its winner) are copies laid over the
    # page: each is coloured as the stack it leaves, never black for want of its colour.
    asha.evaluate(FLOWN_CHIPS)

    shots = {"table-your-turn": False, "table-bet-sheet": False, "table-showdown": False}
    hands_seen: set[int] = set()
    deadline = time.monotonic() + 400  # a bound, not a pace: the game ends long before
    while time.monotonic() < deadline:
        if all(p.get_by_test_id("standings").count() for p in phones):
            break
        for phone in phones:
            number = hand_number(phone)
            hands_seen.add(number)
            if not shots["table-showdown"] and phone.locator(".result-banner").count() and (
                phone.locator("#seats .card:not(.card--back)").count()
            ):
                screenshot(phone, "table-showdown")
                shots["table-showdown"] = True
            if not phone.get_by_test_id("action-bar").count():
                continue
            if phone is asha and not shots["table-your-turn"]:
                screenshot(asha, "table-your-turn")
                shots["table-your-turn"] = True
            if phone is asha and not shots["table-bet-sheet"] and asha.locator(
                "[data-open-bet-sheet]"
            ).count():
                asha.locator("[data-open-bet-sheet]").click()
                asha.locator("[data-bet-sheet]").wait_for()
                settle(asha)  # the sheet has finished sliding in
                assert asha.locator("[data-bet-confirm-label]").inner_text().endswith(
                    asha.input_value("#bet-amount")
                )
                screenshot(asha, "table-bet-sheet")
                shots["table-bet-sheet"] = True
                asha.locator("[data-bet-cancel]").click()
            # A few quiet hands first, then everyone pushes so the game ends.
            take_turn(phone, shove=number >= 3)
        time.sleep(0.05)

    for phone in phones:
        phone.get_by_test_id("standings").wait_for(timeout=5000)
    standings = asha.get_by_test_id("standing")
    assert standings.count() == 3
    assert standings.first.locator(".standing__chips").inner_text().split()[0] == "3000"
    assert len(hands_seen - {0}) >= 3, hands_seen
    assert all(shots.values()), shots
    screenshot(asha, "game-over")
    assert asha.get_by_test_id("play-again").count() == 1
    flown = asha.evaluate("window.flownChips")
    assert flown, "no chip flew in a whole game"
    assert all(fill not in ("none", "rgb(0, 0, 0)") for fill in flown), flown
    assert not JS_ERRORS, JS_ERRORS
