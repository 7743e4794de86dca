"""No console error at the moment a game starts, whichever answer reaches the host's phone first.

The host's "Start the game" is a form post; its answer is the table's frame, and so is the
websocket's announcement of the same change. When the websocket's frame is drawn first, the form
that asked is gone from the page: htmx then looked for ``#table-frame`` and ``#table-data``
inside that detached form, found nothing and wrote ``htmx:oobErrorNoTarget`` to the console
(static/js/live.js now draws the answer at the document, and never an older frame over a newer
one). Every browser test fails on a console error (tests/browser/conftest.py); this one makes
the race certain by holding the answer back until the websocket has drawn the game.
"""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, frame, wait_connection

# The answer to the start post waits until the websocket has drawn the started game.
HOLD_START_ANSWER = """
(() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__url = String(url);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (/\\/start\\/$/.test(this.__url) && this.onload) {
      const answer = this.onload, xhr = this;
      this.onload = function (event) {
        const later = () => {
          const frame = document.getElementById('table-frame');
          if (!frame || frame.dataset.screen === 'lobby') return setTimeout(later, 20);
          window.__versionAtAnswer = Number(frame.dataset.version);
          answer.call(xhr, event);
          window.__startAnswered = true;
        };
        later();
      };
    }
    return send.apply(this, args);
  };
})();
"""


def test_the_start_answer_arriving_after_the_websocket_frame_logs_no_error(
    app_server: LiveServer, new_phone: Any
) -> None:
    host = new_phone()
    host.context.add_init_script(HOLD_START_ANSWER)
    host.goto(app_server.url + "/new/?mode=friends")
    host.fill("input[name=name]", "Asha")
    host.get_by_test_id("create-submit").click()
    # Once the socket is open, htmx has taken the start form (its answer is an XHR, held back
    # above); tapped before, on a loaded machine, the form is posted as a plain page.
    wait_connection(host, "open")
    host.get_by_test_id("start-game").click()
    host.wait_for_function("() => window.__startAnswered === true")
    host.locator("#seats").wait_for()
    # The answer (drawn at the start's version) never takes the page back to an older view.
    assert frame(host)["version"] >= host.evaluate("() => window.__versionAtAnswer")
    assert frame(host)["screen"] == "play"
    assert not JS_ERRORS, JS_ERRORS
