"""The friends' layer on phones (issue 17): table talk, a pause by the host from the host's own
sheet, a friend arriving late (the host's badge, the answer in that sheet), the host ending the
game and the recap, tapping the real buttons at 390x844."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    create_friends_table,
    join_by_link,
    run_axe,
    screenshot,
)

pytestmark = pytest.mark.slow

MARKUP = "<b>nice</b> & <i>hi</i>"


def _open_chat(page: Any) -> None:
    if page.locator("[data-chat-panel]").is_hidden():
        page.get_by_test_id("chat-toggle").click()
    page.locator("[data-chat-panel]").wait_for(state="visible")


def _close_chat(page: Any) -> None:
    if page.locator("[data-chat-panel]").is_visible():
        page.locator("[data-chat-close]").click()


def _open_host(page: Any) -> None:
    if page.locator("[data-host-panel]").is_hidden():
        page.get_by_test_id("host-toggle").click()
    page.locator("[data-host-panel] [data-testid=host-menu][data-host='1']").wait_for()


def _close_host(page: Any) -> None:
    if page.locator("[data-host-panel]").is_visible():
        page.locator("[data-host-close]").click()


def test_talk_a_pause_a_late_friend_and_the_recap(app_server: LiveServer, new_phone: Any) -> None:
    asha = new_phone()
    # No time bank (P4): the late friend sits down after the people's time-outs, not a minute on.
    link = create_friends_table(asha, app_server, seats=3, from_home=True, bank=0)
    bikash = new_phone()
    join_by_link(bikash, link, "Bikash")
    asha.locator(".lobby-seat:not(.lobby-seat--open)").nth(1).wait_for()
    asha.get_by_test_id("start-game").click()
    for phone in (asha, bikash):
        phone.locator("[data-screen=play]").wait_for()
        phone.locator("#chat-log[data-initial]").wait_for(state="attached")

    # Talk: Asha types markup; Bikash sees it, as text, in a bubble at her seat and unread.
    _open_chat(asha)
    asha.get_by_test_id("chat-text").fill(MARKUP)
    asha.get_by_test_id("chat-send").click()
    bubble = bikash.locator(".seat[data-seat='0'] [data-testid=chat-bubble]")
    bubble.wait_for()
    assert bubble.inner_text() == MARKUP
    assert bikash.locator("#chat-log b, #chat-log i, .chat-bubble b").count() == 0
    assert bikash.get_by_test_id("chat-unread").inner_text() == "1"
    assert asha.get_by_test_id("chat-text").input_value() == ""  # the box is cleared
    screenshot(bikash, "talk-bubble")
    _open_chat(bikash)
    bikash.get_by_test_id("react-nice_hand").click()
    asha.locator(".seat[data-seat='1'] [data-testid=chat-bubble]", has_text="Nice hand").wait_for()
    assert bikash.get_by_test_id("chat-line").nth(0).inner_text() == f"Asha {MARKUP}"
    screenshot(bikash, "talk-drawer")
    problems = {"talk drawer": run_axe(bikash)}
    _close_chat(bikash)

    # The host pauses for everyone, from the host's own sheet (the crown button, not talk's).
    _close_chat(asha)
    assert bikash.get_by_test_id("host-toggle").is_hidden()
    _open_host(asha)
    assert asha.locator("[data-chat-panel]").is_hidden()
    asha.get_by_test_id("host-pause").click()
    for phone in (asha, bikash):
        phone.get_by_test_id("paused").filter(has_text="Paused by Asha").wait_for()
    screenshot(asha, "host-sheet")
    problems["host sheet"] = run_axe(asha)
    _close_host(asha)
    screenshot(bikash, "paused")
    _open_host(asha)
    asha.get_by_test_id("host-resume").click()
    bikash.get_by_test_id("paused").wait_for(state="detached")
    _close_host(asha)

    # A friend arrives late: the computer's seat, once the host says yes.
    chandra = new_phone()
    chandra.goto(link)
    chandra.get_by_test_id("late-form").wait_for()
    screenshot(chandra, "late-offer")
    problems["late offer"] = run_axe(chandra)
    chandra.fill("#late-name", "Chandra")
    chandra.get_by_test_id("late-ask").click()
    chandra.get_by_test_id("late-pending").wait_for()
    # The host learns of it on the crown's badge, and answers in the host's sheet.
    asha.get_by_test_id("host-badge").wait_for()
    _open_host(asha)
    asha.get_by_test_id("late-request").wait_for()
    screenshot(asha, "late-request")
    problems["late request"] = run_axe(asha)
    asha.get_by_test_id("late-yes").click()
    asha.get_by_test_id("late-request").wait_for(state="detached")
    _close_host(asha)
    chandra.locator("[data-screen=play]").wait_for(timeout=90_000)  # between hands
    assert chandra.locator("#me .me__name, #me").first.inner_text().count("Chandra") >= 1
    _open_chat(chandra)
    chandra.locator("[data-event=took_over]").wait_for(state="attached")
    screenshot(chandra, "late-seated")
    _close_chat(chandra)

    # The host ends the game now; everyone gets the standings and the recap. On the smallest
    # phone the question's answer comes into sight once the question opens (no scrolling).
    asha.set_viewport_size({"width": 320, "height": 568})
    _open_host(asha)
    asha.locator(".host-end summary").click()
    asha.wait_for_function("""() => {
      const r = document.querySelector('[data-testid=host-end]').getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    }""")
    asha.get_by_test_id("host-end").click()
    for phone in (asha, bikash, chandra):
        phone.get_by_test_id("standings").wait_for()
    assert asha.locator("[data-host-panel]").is_hidden()  # closed with the game's end
    asha.get_by_test_id("recap-link").click()
    asha.get_by_test_id("recap").wait_for()
    assert asha.get_by_test_id("chip-graph").count() == 1
    assert asha.locator(".chip-graph polyline").count() == 3
    screenshot(asha, "recap")
    problems["recap"] = run_axe(asha)
    assert not any(problems.values()), problems
    assert not JS_ERRORS, JS_ERRORS
