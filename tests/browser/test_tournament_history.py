"""A tournament in a browser after it is over (issue 30): the player's games list shows it
once, it opens to their hands at both tables they sat at, a hand opens in the replayer; the
tournament's page shows the recap; and a running tournament's table links to its lobby. At
320x568 and 390x844, no page scrolls sideways; screenshots in the test helpers' folder."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import JS_ERRORS, LiveServer
from tests.browser.layout import PHONE, SMALL, both_sizes

pytestmark = pytest.mark.slow


def test_a_finished_tournament_in_the_games_list_its_hands_its_recap_and_the_table_line(
    app_server: LiveServer, new_phone: Any
) -> None:
    data = app_server.seed("tests.browser.tournament_data")
    phone = new_phone()
    app_server.sign_in(phone, data["session"])
    phone.goto(app_server.url + "/games/")
    phone.get_by_test_id("your-games").wait_for()
    lines = phone.locator("[data-kind=tournament]")
    assert lines.count() == 2  # the two tournaments, each once; none of their tables apart
    assert phone.get_by_test_id("game-line").count() == 2
    over = phone.locator(f"[data-kind=tournament][data-code='{data['over']}']")
    assert "place" in over.get_by_test_id("game-result").inner_text()
    both_sizes(phone, "games")

    over.get_by_test_id("tournament-hands-link").click()
    phone.get_by_test_id("tournament-hands").wait_for()
    parts = phone.get_by_test_id("tournament-hands-table")
    assert parts.count() >= 2
    assert len({parts.nth(i).get_attribute("data-code") for i in range(parts.count())}) >= 2
    both_sizes(phone, "hands")
    phone.get_by_test_id("hand-link").first.click()
    phone.wait_for_url("**/hands/*/?seat=*")
    phone.get_by_test_id("replayer").wait_for()
    phone.get_by_test_id("replay-next").click()  # the replayer steps through the hand

    phone.goto(app_server.url + f"/tournament/{data['over']}/")
    recap = phone.get_by_test_id("tournament-recap")
    recap.wait_for()
    assert recap.locator("[data-testid=place]").count() == 13
    assert phone.get_by_test_id("recap-hands").inner_text().startswith(str(data["hands"]))
    assert "won by" in phone.get_by_test_id("recap-biggest-pot").inner_text()
    assert recap.get_by_test_id("knocked-out").first.inner_text().startswith("out to ")
    both_sizes(phone, "recap")

    phone.goto(app_server.url + f"/t/{data['table']}/")
    line = phone.get_by_test_id("tournament-line")
    line.wait_for()
    assert f"Tournament {data['running']}" in line.inner_text()
    assert "of 7 left" in line.inner_text()
    phone.get_by_test_id("table-frame").wait_for()
    both_sizes(phone, "table-line")
    for size in (SMALL, PHONE):  # the line takes no room from the table: all of it on screen
        phone.set_viewport_size(size)
        bottom = phone.evaluate(
            "() => document.querySelector('.table-screen').getBoundingClientRect().bottom"
        )
        assert bottom <= size["height"] + 0.5, (size, bottom)
        line_box = line.bounding_box()
        toggle = phone.get_by_test_id("chat-toggle").bounding_box()
        assert line_box is not None and toggle is not None
        assert toggle["y"] >= line_box["y"] + line_box["height"] - 0.5  # the talk button below
        whole = phone.evaluate(  # nothing of the line cut off
            "() => { const p = document.querySelector('.tourney-line');"
            " return p.scrollWidth <= p.clientWidth; }"
        )
        assert whole, size
    phone.get_by_test_id("tournament-lobby-link").click()
    phone.wait_for_url(f"**/tournament/{data['running']}/")
    phone.get_by_test_id("tournament-facts").wait_for()

    # A finished tournament's table ends by pointing to the tournament, not to a game of its own.
    phone.goto(app_server.url + f"/t/{data['over_table']}/")
    back = phone.get_by_test_id("tournament-page-link")
    back.wait_for()
    assert phone.get_by_test_id("play-again").count() == 0
    assert "wins the game" not in phone.get_by_test_id("table-frame").inner_text()
    both_sizes(phone, "table-over")
    back.click()
    phone.wait_for_url(f"**/tournament/{data['over']}/")
    assert not JS_ERRORS, JS_ERRORS
