"""A server that comes back slowly (tests/browser/stalled.py), in each engine: a try the page
began while the server was coming up hangs. The page gives a try, once it has opened a socket,
four times its last reconnection's handshake (static/js/live.js ``connectWait``; 1.5 s at least),
never the page's first socket's, which opens while the page is still loading, and begins the
next at once. Here, over three returns at different moments of the hold, the page comes back
live with the table's current version each time and gives a try less than CONNECT_WAIT (6 s).
How soon (goal: 3 s) is measured over many returns by ``benchmarks/outage_held.py --engine``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests.browser.engines.drivers import Phone, computer_table
from tests.browser.helpers import LiveServer
from tests.browser.scripts import OPENS
from tests.browser.stalled import Relay

OPENED_SINCE = """
var since = arguments[0];
return (window.__opens || []).some(function (x) { return x >= since; });
"""


@pytest.fixture
def relay(app_server: LiveServer) -> Iterator[Relay]:
    relay = Relay(int(urlsplit(app_server.url).port or 80))
    yield relay
    relay.close()


def test_a_held_try_does_not_keep_the_page_from_being_live(
    app_server: LiveServer, relay: Relay, phones: Callable[[], Phone]
) -> None:
    phone = phones()
    code = computer_table(phone, relay.base)
    phone.evaluate(OPENS)  # the socket's opens from now on (the page is not left again)
    # The first socket opened while the page loaded: no measure of the network yet.
    assert phone.look("return Holdem.live.connectWait();") == 1500
    for moment in (0.0, 1.0, 2.0):
        relay.down()
        phone.wait_until("return document.getElementById('table-live').dataset.connection"
                         " !== 'open';", what="the socket dropped")
        first = relay.held_tries()
        relay.hold()
        relay.wait_for_a_held_try(more_than=first)
        time.sleep(moment)  # the return at another moment of the hold (not what is measured)
        back = relay.up()
        phone.wait_until(OPENED_SINCE, back * 1000, what="the socket open after the return")
        for _ in range(50):  # the table may move on meanwhile: its current version drawn
            version = app_server.table_row(code)[0]
            phone.wait_until("return Number(document.getElementById('table-frame')"
                             ".dataset.version) >= arguments[0];", version,
                             what=f"version {version} drawn")
            if version == app_server.table_row(code)[0]:
                break
        else:
            raise AssertionError("the page never caught up with the table")
        # This machine's handshakes take milliseconds: a try is given far less than 6 s.
        shake = phone.look("return Holdem.live.handshake();")  # the policy, not the machine
        assert shake > 0, "the reconnection was timed"
        assert phone.look("return Holdem.live.connectWait();") == min(6000, max(1500, 4 * shake))
