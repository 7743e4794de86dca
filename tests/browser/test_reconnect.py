"""Phones that sleep and lose signal (issue 24): back at once, and no ghost taps.

Each test runs its own Daphne (on its own port and database) so that it can stop it and start
it again on the same address, as a restart or a deploy does. What is measured in seconds (how
soon a phone is live again after outages of 5 s to 5 minutes) is in
``benchmarks/outage.py``; these tests check the behaviour: the state the page reaches.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    frame,
    screenshot,
    start_computer_game,
    wait_connection,
)
from tests.browser.scripts import VISIBILITY
from tests.helpers.servers import Server


@pytest.fixture
def own_server(app_server: LiveServer, tmp_path: Path) -> Iterator[Server]:
    """A Daphne of this test's own, on the browser suite's collected static files."""
    server = Server({
        "DEBUG": "true", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TABLES_BOT_PAUSE": "0.05,0.15", "TABLES_AWAY_PAUSE": "0.1",
        "TABLES_NEXT_HAND_PAUSE": "1.2", "TABLES_CLOCK_IN_SERVER": "true",
        "TABLES_CLOCK_INTERVAL": "0.05", "STATIC_COLLECTED": "true",
        "STATIC_ROOT": str(app_server.db_path.parent / "static"),
        "REDIS_URL": "", "PUBLIC_URL": "", "SERVER_LOG": str(tmp_path / "server.log"),
    })
    server.manage("migrate", "--noinput", "-v0")
    server.start()
    server.db = tmp_path / "db.sqlite3"  # type: ignore[attr-defined]
    yield server
    server.stop()


def _version_in_db(server: Server, code: str) -> int:
    with sqlite3.connect(server.db, timeout=10) as db:  # type: ignore[attr-defined]
        row = db.execute("SELECT version FROM tables_table WHERE code = ?", (code,)).fetchone()
    return int(row[0])


def _recent_actions(server: Server, code: str) -> list[str]:
    """The action ids the table applied last (tables.write.play)."""
    with sqlite3.connect(server.db, timeout=10) as db:  # type: ignore[attr-defined]
        row = db.execute(
            "SELECT recent_actions FROM tables_table WHERE code = ?", (code,)
        ).fetchone()
    return list(json.loads(row[0]))


def _connection(page: Any) -> str:
    return str(page.evaluate("() => document.getElementById('table-live').dataset.connection"))


def _wait_current(page: Any, server: Server, code: str) -> int:
    """Until the page shows the version the database holds (the clock may move it on
    meanwhile: read it again until they agree)."""
    for _ in range(50):
        version = _version_in_db(server, code)
        page.wait_for_function(
            "v => Number(document.getElementById('table-frame').dataset.version) >= v",
            arg=version, timeout=60_000,
        )
        if frame(page)["version"] == _version_in_db(server, code):
            return version
    raise AssertionError("the page never caught up with the table")


def _start_computer_table(page: Any, server: Server) -> str:
    page.goto(server.base + "/new/?mode=computer")
    page.fill("input[name=name]", "Asha")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("action-bar").wait_for()  # our turn: the hand waits for us
    wait_connection(page, "open")
    return str(frame(page)["code"])


def test_a_visible_page_is_live_again_once_the_server_is_back_and_queues_no_tap(
    own_server: Server, new_phone: Any
) -> None:
    phone = new_phone()
    code = _start_computer_table(phone, own_server)
    before = _wait_current(phone, own_server, code)

    own_server.stop()  # a deploy, a crash: the socket closes under the page
    wait_connection(phone, "closed")
    banner = phone.get_by_test_id("connection-banner")
    banner.wait_for()
    assert "Not connected: reconnecting" in banner.inner_text()
    buttons = phone.locator("[data-action-bar] form[ws-send] button")
    assert buttons.count() >= 2
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    # A tap now (the form sent as a keyboard or a script would) is refused on the spot and
    # remembered nowhere.
    tapped = phone.locator("[data-action-bar] form[ws-send]").first.evaluate(
        "f => { f.requestSubmit(); return f.elements.action_id.value; }"
    )
    assert "Not connected: reconnecting" in phone.locator(".toast").inner_text()
    screenshot(phone, "reconnect-390x844-not-connected")

    own_server.start()  # back on the same address
    wait_connection(phone, "open")
    assert banner.is_hidden()
    after = _wait_current(phone, own_server, code)
    assert after >= before
    assert tapped not in _recent_actions(own_server, code)  # the tap made while down never went
    buttons = phone.locator("[data-action-bar] form[ws-send] button")
    assert buttons.count() >= 2 and not buttons.first.is_disabled()
    assert not JS_ERRORS, JS_ERRORS


def test_a_hidden_page_reconnects_the_moment_it_is_shown_again(
    own_server: Server, new_phone: Any
) -> None:
    phone = new_phone()
    phone.context.add_init_script(VISIBILITY)
    code = _start_computer_table(phone, own_server)
    phone.evaluate("() => window.__setVisibility('hidden')")  # the phone is locked
    own_server.stop()
    wait_connection(phone, "closed")
    own_server.start()
    # Hidden, the page may wait up to 30 s between tries; shown again, it tries at once.
    phone.evaluate("() => window.__setVisibility('visible')")
    wait_connection(phone, "open")
    _wait_current(phone, own_server, code)
    assert not JS_ERRORS, JS_ERRORS


def test_the_back_off_never_waits_more_than_2_5_s_while_the_page_is_visible(
    app_server: LiveServer, new_phone: Any
) -> None:
    phone = new_phone()
    start_computer_game(phone, app_server, "Asha")
    # The frame can be drawn before the deferred scripts have run (a loaded machine).
    phone.wait_for_function("() => window.Holdem && window.Holdem.live")
    waits = phone.evaluate(
        """() => {
          const out = {visible: [], hidden: [], first: []};
          for (let n = 0; n < 40; n++) {
            for (let k = 0; k < 25; k++) {
              out.visible.push(Holdem.live.delayFor(n, true));
              out.hidden.push(Holdem.live.delayFor(n, false));
            }
          }
          for (let k = 0; k < 100; k++) out.first.push(Holdem.live.delayFor(0, true));
          return out;
        }"""
    )
    assert max(waits["visible"]) <= 2500
    assert max(waits["hidden"]) <= 30000 and max(waits["hidden"]) > 3000
    assert max(waits["first"]) < 200  # the first try after a drop goes at once
    assert len(set(waits["visible"])) > 100  # jitter: phones do not all come back together


def test_a_tap_lost_in_a_drop_is_reported_on_return_and_never_played(
    own_server: Server, new_phone: Any
) -> None:
    phone = new_phone()
    dropped: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            if not dropped and isinstance(message, str) and '"type":"action"' in message:
                dropped.append(message)  # the tap goes into a socket that is already dead
                ws.close(code=4000)
                server.close()
                return
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    phone.route_web_socket(re.compile(r"/ws/t/"), route)
    code = _start_computer_table(phone, own_server)
    before = _wait_current(phone, own_server, code)
    phone.locator(
        "[data-action-bar] [data-act=check], [data-action-bar] [data-act=call]"
    ).first.click()
    # The page comes back by itself and asks what became of its tap.
    # (On a slow machine the turn's time may run out meanwhile: then that is what it says.)
    notice = phone.locator(
        "#table-notice[data-code=pending_lost], #table-notice[data-code=too_late]"
    )
    notice.wait_for()
    text = notice.inner_text()
    assert "did not reach the table" in text or "your time ran out" in text, text
    assert dropped and '"action_id"' in dropped[0]
    assert _connection(phone) == "open"
    assert _wait_current(phone, own_server, code) >= before
    lost = json.loads(dropped[0])["action_id"]
    assert lost not in _recent_actions(own_server, code)  # nothing was played for it
    screenshot(phone, "reconnect-390x844-tap-lost")
    assert not JS_ERRORS, JS_ERRORS


# Records, for every socket the page opens, whether the document had run all its deferred
# scripts (DOMContentLoaded) by then. This listener is the page's first, so it runs before
# live.js's own.
_SOCKET_TIMING = """
(() => {
  window.__domReady = false;
  window.__socketsBeforeReady = 0;
  document.addEventListener("DOMContentLoaded", () => { window.__domReady = true; });
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    if (!window.__domReady) window.__socketsBeforeReady += 1;
    return new Native(...args);
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {
    CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3,
  });
})();
"""


def test_the_socket_opens_only_once_every_script_of_the_page_listens(
    app_server: LiveServer, new_phone: Any
) -> None:
    """A socket opened while chat.js was still loading could say "open" to nobody, and the
    talk's drawer was then never asked for (a CI run waited 30 s for it under load)."""
    phone = new_phone()
    phone.context.add_init_script(_SOCKET_TIMING)
    phone.goto(app_server.url + "/new/?mode=computer")
    phone.fill("input[name=name]", "Asha")
    phone.get_by_test_id("create-submit").click()
    wait_connection(phone, "open")
    phone.locator("#chat-log[data-initial]").wait_for(state="attached")
    assert phone.evaluate("() => window.__domReady") is True
    assert phone.evaluate("() => window.__socketsBeforeReady") == 0
    assert not JS_ERRORS, JS_ERRORS

