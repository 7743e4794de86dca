"""Your games and a group's season in a browser, at a phone's size and a desktop's, in English
and in Nepali: drawn, axe clean, and no hole card but those shown at a showdown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    expect_console,
    run_axe,
    screenshot,
    start_computer_game,
)

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"phone": (360, 740), "desktop": (1280, 800)}


def _seed(server: LiveServer, games: int = 3, hands: int = 30) -> dict[str, Any]:
    return server.seed("tests.browser.season_data", str(games), str(hands))


def _cards(page: Any) -> set[str]:
    return set(re.findall(r'data-card="(\w\w)"', page.content()))


def test_your_games_and_the_season_page_at_a_phones_size_and_a_desktops(
    app_server: LiveServer, new_phone: Any
) -> None:
    data = _seed(app_server)
    phone = new_phone()
    app_server.sign_in(phone, data["session"])
    for size, (width, height) in SIZES.items():
        phone.set_viewport_size({"width": width, "height": height})
        phone.goto(app_server.url + "/games/")
        phone.get_by_test_id("your-games").wait_for()
        lines = phone.get_by_test_id("game-line")
        assert lines.count() == len(data["games"])
        assert lines.first.get_attribute("data-code") == data["games"][-1]  # newest first
        screenshot(phone, f"season-games-{size}")
        assert not run_axe(phone)
        assert phone.evaluate("document.scrollingElement.scrollWidth") <= width
        phone.goto(app_server.url + f"/g/{data['group']}/")
        phone.get_by_test_id("season-standings").wait_for()
        assert phone.get_by_test_id("season-line").count() == 6
        screenshot(phone, f"season-page-{size}")
        phone.screenshot(path=str(ROOT / "screenshots" / f"season-page-{size}-full.png"),
                         full_page=True)
        assert not run_axe(phone)
        assert phone.evaluate("document.scrollingElement.scrollWidth") <= width
    assert not JS_ERRORS, JS_ERRORS


def test_a_stranger_with_the_link_sees_the_season_only_with_cards_shown_at_showdowns(
    app_server: LiveServer, new_phone: Any
) -> None:
    data = _seed(app_server, games=2, hands=30)
    stranger = new_phone()
    stranger.set_viewport_size({"width": 360, "height": 740})
    stranger.goto(app_server.url + f"/g/{data['group']}/")
    stranger.get_by_test_id("season-standings").wait_for()
    shown = set()
    for item in stranger.get_by_test_id("season-hands").locator("li").all():
        shown |= set(re.findall(r'data-card="(\w\w)"', item.inner_html()))
    assert _cards(stranger) <= shown
    expect_console(r"status of 403")  # the refusal asked for here
    response = stranger.goto(app_server.url + f"/t/{data['games'][0]}/hands/")
    assert response is not None and response.status == 403
    # In Nepali.
    stranger.goto(app_server.url + f"/g/{data['group']}/")
    with stranger.expect_navigation():
        stranger.locator('form.lang-form button[value="ne"]').first.click()
    stranger.goto(app_server.url + f"/g/{data['group']}/")
    stranger.get_by_test_id("season-standings").wait_for()
    assert "स्थिति" in stranger.content()
    screenshot(stranger, "season-page-phone-ne")
    assert not run_axe(stranger)
    assert not JS_ERRORS, JS_ERRORS


def test_a_tap_on_a_seat_opens_that_players_figures_for_this_game(
    app_server: LiveServer, new_phone: Any
) -> None:
    phone = new_phone()
    phone.set_viewport_size({"width": 360, "height": 740})
    start_computer_game(phone, app_server, "Asha")
    seat = phone.locator(".seat[data-seat]:not(.seat--you) .seat__avatar").first
    seat.click()
    dialog = phone.get_by_test_id("seat-stats")
    dialog.wait_for()
    assert dialog.get_by_test_id("stats-line").locator("tr").count() == 10
    screenshot(phone, "season-seat-tap-phone")
    assert not run_axe(phone)
    dialog.locator("[data-close]").click()
    dialog.wait_for(state="hidden")
    assert not JS_ERRORS, JS_ERRORS
