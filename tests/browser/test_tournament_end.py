"""A tournament's host at their table: the crown opens the host's sheet with the tournament's
controls; the host ends the tournament there; the winner's table says who won, by name ("You
won the tournament!" on the winner's phone) with the places, "you" marked; the tournament's
page marks which entrant is you; joining it afterwards says it is over. Screenshots at 320x568
and 390x844: screenshots/tournament-end-*.png."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.helpers import JS_ERRORS, LiveServer, frame, hand_number, screenshot, take_turn
from tests.browser.layout import laid_out

pytestmark = pytest.mark.slow

SIZES = ({"width": 320, "height": 568}, {"width": 390, "height": 844})


def _both_sizes(page: Any, name: str) -> None:
    for size in SIZES:
        page.set_viewport_size(size)
        laid_out(page, size["width"], size["height"])
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"], f"{name} scrolls sideways at {size}"
        screenshot(page, f"tournament-end-{name}-{size['width']}x{size['height']}")
    page.set_viewport_size(SIZES[1])


def test_the_host_ends_the_tournament_and_the_winner_is_named(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    asha.goto(app_server.url + "/")
    asha.get_by_test_id("play-tournament").click()
    asha.fill("input[name=name]", "Asha")
    asha.fill("input[name=entrants]", "7")
    asha.get_by_test_id("tournament-submit").click()
    asha.get_by_test_id("start-tournament").wait_for()
    code = asha.locator("#tournament-code").inner_text().replace(" ", "")
    asha.get_by_test_id("start-tournament").click()
    asha.get_by_test_id("table-frame").wait_for()
    # A few hands, so that the chips differ (the places go by chips); Asha keeps hers.
    deadline = time.monotonic() + 120
    while hand_number(asha) < 4 and time.monotonic() < deadline:
        if not take_turn(asha, cautious=True):
            asha.wait_for_timeout(100)  # (a poll of the page, not a synchronisation)

    assert frame(asha)["seat"] is not None  # still in, at her table
    # The crown: the tournament's controls, in the host's own sheet.
    asha.get_by_test_id("host-toggle").click()
    asha.get_by_test_id("host-tournament-end").wait_for(state="attached")
    assert asha.get_by_test_id("host-tournament-pause").is_visible()
    _both_sizes(asha, "host-sheet")
    asha.locator(".host-end summary").click()
    asha.get_by_test_id("host-tournament-end").click()
    asha.locator("[data-screen=over]").wait_for()
    title = asha.locator("[data-testid=tournament-won], [data-testid=tournament-winner]")
    title.wait_for()
    assert asha.locator(".standing--you").count() == 1
    assert asha.get_by_test_id("standing").count() == 7
    _both_sizes(asha, "winner-table")

    # The tournament's page: the places, with Asha's marked.
    asha.goto(f"{app_server.url}/tournament/{code}/")
    asha.get_by_test_id("tournament-over").wait_for()
    assert asha.get_by_test_id("place-you").count() == 1
    _both_sizes(asha, "page")

    # Joining now says the tournament is over.
    late = new_phone()
    late.goto(app_server.url + "/")
    late.fill("#join-code", code)
    late.fill("#join-name", "Dipa")
    late.locator("#join-name").press("Enter")
    late.locator(".message--error", has_text="This tournament is over").wait_for()
    assert "already started" not in late.content()
    assert not JS_ERRORS, JS_ERRORS
