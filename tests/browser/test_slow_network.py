"""Slow mobile data and a slow phone (issue 24): the table still works, only slower.

Chromium's DevTools protocol emulates the network of a phone on poor mobile data (400 ms added
to every round trip, 400 kbit/s each way: ``SLOW_DATA``) and a phone four times slower than this
machine (``Emulation.setCPUThrottlingRate``). Under both, a friend who opens the table link sees
the table they can join, and a tap on Call shows its result on the tapping phone and on the
other phone. The times are measured by ``benchmarks/slow_network.py``; these tests check that
the states are reached.
"""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    create_friends_table,
    frame,
    join_by_link,
    screenshot,
)

# Round trip added by the network (ms) and throughput each way (bytes per second).
SLOW_DATA = {"offline": False, "latency": 400, "downloadThroughput": 50_000,
             "uploadThroughput": 50_000}
CPU_SLOWDOWN = 4


def slow_down(page: Any) -> Any:
    """Put ``page`` on slow mobile data with a 4x slower processor; returns the DevTools
    session (the emulation lasts as long as it does)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_DATA)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return cdp


def test_a_first_visit_on_slow_data_shows_the_joinable_table(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    link = create_friends_table(asha, app_server, seats=2)  # Asha on a fast phone
    bikash = new_phone()
    cdp = slow_down(bikash)
    sizes: list[int] = []
    cdp.on("Network.loadingFinished", lambda e: sizes.append(int(e["encodedDataLength"])))
    bikash.goto(link, timeout=60_000)
    bikash.locator("#join-name").wait_for(timeout=60_000)
    assert bikash.get_by_test_id("join-submit").is_enabled()
    assert "Asha" in bikash.content()
    bikash.locator("#join-name").scroll_into_view_if_needed()
    screenshot(bikash, "slow-data-join")
    # The whole first visit travels (compressed) in well under what 400 kbit/s carries in a few
    # seconds: the page stays light enough for slow data.
    assert sizes and sum(sizes) < 200_000, sizes
    assert not JS_ERRORS, JS_ERRORS


def _the_phone_to_act(phones: list[Any]) -> tuple[Any, Any]:
    """(the phone whose turn it is, the other), once one of them has the action bar."""
    a, b = phones
    deadline = time.monotonic() + 60  # a bound, not a pace
    while time.monotonic() < deadline:
        for me, other in ((a, b), (b, a)):
            if me.get_by_test_id("action-bar").count():
                return me, other
        a.wait_for_timeout(50)  # polling two pages for one state
    raise AssertionError("neither phone was given its turn")


def test_a_tap_on_call_on_slow_data_reaches_both_phones(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    link = create_friends_table(asha, app_server, seats=2)  # Asha on a fast phone
    bikash = new_phone()
    join_by_link(bikash, link, "Bikash")
    asha.get_by_test_id("start-game").click()
    phones = [asha, bikash]
    for phone in phones:
        phone.get_by_test_id("table-frame").and_(phone.locator("[data-screen=play]")).wait_for()
        slow_down(phone)

    # Heads-up, the button posts the small blind and acts first before the flop: Call 10.
    me, other = _the_phone_to_act(phones)
    call = me.locator("[data-action-bar] [data-act=call]")
    call.wait_for()
    version = frame(me)["version"]
    call.click()
    for phone in (me, other):
        phone.wait_for_function(
            "v => Number(document.getElementById('table-frame').dataset.version) > v",
            arg=version, timeout=60_000,
        )
    # Both now show the call: the caller's bet matches the big blind, and it is the other
    # phone's turn to check or raise.
    other.locator("[data-action-bar] [data-act=check]").wait_for(timeout=60_000)
    assert not me.get_by_test_id("action-bar").count()
    screenshot(other, "slow-data-after-call")
    assert not JS_ERRORS, JS_ERRORS
