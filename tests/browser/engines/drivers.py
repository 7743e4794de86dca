"""One small interface over three browser engines, so the same journey runs in each.

- Chromium: Playwright driving Debian's ``/usr/bin/chromium`` (the rest of tests/browser).
- WebKit: Debian's ``WebKitWebDriver`` (webkit2gtk-driver) driving WebKitGTK's MiniBrowser
  under Xvfb, through Selenium. WebKit is Safari's engine.
- Firefox: Debian's ``firefox-esr`` started with ``--marionette --headless`` on its own
  temporary profile, driven by ``marionette-driver`` (no geckodriver).

A ``Phone`` finds elements by CSS selector, taps them with the engine's own pointer input
(WebDriver's element click: scrolled into view, refused when something covers the element),
types with its keyboard, and waits for a state of the page by asking the page again and again
until it holds, never for a fixed time. Every phone is 390x844 CSS pixels.

The WebDriver engines give no console, so each page gets a small collector of uncaught
errors, unhandled rejections and ``console.error`` calls (htmx reports its errors there); every
wait and every look drains it into ``errors``. Chromium's phone reads the console itself. Errors
thrown before the collector is in place (while a page is still loading its scripts) are caught
another way: the journeys check that the page's scripts ran (``window.Holdem``).

This module holds the interface and Chromium's phone; WebKit's and Firefox's, the two WebDriver
engines, are tests/browser/engines/webdriver_phones.py.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.browser.helpers import NETWORK_NOISE, PHONE, SCREENSHOTS

WIDTH, HEIGHT = PHONE["width"], PHONE["height"]
TIMEOUT = 30.0
"""Seconds a wait may last: a bound for a loaded 2-core machine, not a pace."""
POLL = 0.05

WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER_GLOB = "/usr/lib/*/webkit2gtk-4.*/MiniBrowser"
FIREFOX = Path("/usr/bin/firefox-esr")
XVFB = Path("/usr/bin/Xvfb")

KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "End": "\ue010", "Home": "\ue011",
        "Enter": "\ue007", "Escape": "\ue00c", "Control": "\ue009", "Null": "\ue000",
        "Delete": "\ue017"}
"""WebDriver's code points for the keys the journeys press (the same in Selenium and
Marionette)."""

# Installed in every page the WebDriver engines look at (again after each navigation).
_COLLECT = """
if (!window.__engineErrors) {
  window.__engineErrors = [];
  window.addEventListener("error", function (e) {
    window.__engineErrors.push("error: " + e.message + " at " + e.filename + ":" + e.lineno);
  });
  window.addEventListener("unhandledrejection", function (e) {
    window.__engineErrors.push("unhandled rejection: " + (e.reason && e.reason.stack || e.reason));
  });
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__engineErrors.push("CSP violation: " + e.violatedDirective + " blocked " +
                               (e.blockedURI || "inline"));
  });
  var consoleError = console.error;
  console.error = function () {
    window.__engineErrors.push("console.error: " + Array.prototype.map.call(arguments, String)
                               .join(" "));
    return consoleError.apply(console, arguments);
  };
}
var drained = window.__engineErrors.splice(0);
"""

# The state a wait asks for: an element matching the selector (and holding the text, when
# given) that is visible, merely in the document, hidden or absent.
_TABLE_STATE = """
var live = document.getElementById('table-live') || {dataset: {}};
var frame = document.getElementById('table-frame') || {dataset: {}};
var data = {};
try { data = JSON.parse((document.getElementById('table-data') || {}).textContent || '{}'); }
catch (e) { data = {error: String(e)}; }
var notice = document.getElementById('table-notice');
return JSON.stringify({connection: live.dataset.connection, version: frame.dataset.version,
  screen: frame.dataset.screen, seat: frame.dataset.seat, to_act: data.to_act, you: data.you,
  status: data.status, bar: !!document.querySelector('[data-action-bar]'),
  notice: notice ? notice.textContent.trim().slice(0, 120) : null});
"""
_STATE = """
function matches(css, text) {
  return Array.prototype.filter.call(document.querySelectorAll(css), function (el) {
    return text === null || (el.textContent || "").indexOf(text) !== -1;
  });
}
function shown(el) {
  if (!el.isConnected || !el.getClientRects().length) return false;
  var style = getComputedStyle(el);
  return style.visibility !== "hidden" && style.display !== "none";
}
function holds(css, text, state) {
  var found = matches(css, text);
  if (state === "attached") return found.length > 0;
  if (state === "detached") return found.length === 0;
  var visible = found.some(shown);
  return state === "visible" ? visible : !visible;
}
"""


class EngineError(AssertionError):
    """A wait that ran out, or a tap the page never let through, with what was last seen."""


class Phone:
    """What a journey does with one phone, whatever the engine."""

    engine: str

    def __init__(self) -> None:
        self.errors: list[str] = []

    # -- each engine's own primitives ---------------------------------------------------
    def goto(self, url: str) -> None:
        raise NotImplementedError

    def url(self) -> str:
        raise NotImplementedError

    def evaluate(self, body: str, *args: Any) -> Any:
        """Run ``body`` (a function body: ``return ...``, ``arguments[0]``) in the page."""
        raise NotImplementedError

    def _tap(self, css: str, text: str | None) -> None:
        """The engine's own click on the first visible match; raises when it cannot."""
        raise NotImplementedError

    def _type(self, css: str, value: str, clear: bool) -> None:
        raise NotImplementedError

    def _png(self) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- shared on top of them -----------------------------------------------------------
    def look(self, body: str, *args: Any) -> Any:
        """Evaluate ``body`` with the error collector in place and drained first."""
        result = self.evaluate(
            _COLLECT + "return [drained, (function () {" + body + "}).apply(null, arguments)];",
            *args,
        )
        self.errors.extend(result[0])
        return result[1]

    def wait_until(self, body: str, *args: Any, timeout: float = TIMEOUT, what: str = "") -> Any:
        """Ask the page ``body`` until it returns something truthy; that value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.look(body, *args)
            except Exception as exc:  # a navigation under the question: ask again
                if time.monotonic() > deadline:
                    raise EngineError(f"{self.engine}: {what or body}: {exc}") from exc
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: waited {timeout:.0f} s for {what or body}"
                                  f" at {self.url()}; the page: {self.table_state()}")
            time.sleep(POLL)

    def table_state(self) -> str:
        """What a table page shows, in a line, for a failure's message: the socket's state, the
        frame's version and screen, whose turn the frame says it is, the notice shown."""
        try:
            return str(self.look(_TABLE_STATE))
        except Exception as exc:  # not a table page, or the page is gone
            return f"(not read: {exc})"

    def wait_for(self, css: str, state: str = "visible", text: str | None = None,
                 timeout: float = TIMEOUT) -> None:
        self.wait_until(_STATE + "return holds(arguments[0], arguments[1], arguments[2]);",
                        css, text, state, timeout=timeout,
                        what=f"{css!r} {state}" + (f" with {text!r}" if text else ""))

    def count(self, css: str, text: str | None = None) -> int:
        return int(self.look(_STATE + "return matches(arguments[0], arguments[1]).length;",
                             css, text))

    def visible(self, css: str) -> bool:
        return bool(self.look(_STATE + "return matches(arguments[0], null).some(shown);", css))

    def text(self, css: str) -> str:
        """The rendered text (innerText) of the first match."""
        self.wait_for(css, "attached")
        return str(self.look("var e = document.querySelector(arguments[0]);"
                             " return e ? e.innerText : '';", css))

    def value(self, css: str) -> str:
        return str(self.look("return document.querySelector(arguments[0]).value;", css))

    def attr(self, css: str, name: str) -> str | None:
        found = self.look("var e = document.querySelector(arguments[0]);"
                          " return e ? e.getAttribute(arguments[1]) : null;", css, name)
        return None if found is None else str(found)

    def click(self, css: str, text: str | None = None, timeout: float = TIMEOUT) -> None:
        """Tap the first visible element matching ``css`` (holding ``text``), as a finger
        would. A tap that the page refuses for a moment (the element is being swapped out,
        something slides over it) is tried again until ``timeout``; then it fails."""
        self.wait_for(css, "visible", text, timeout=timeout)
        self._retry(lambda: self._tap(css, text), f"tap {css!r}", timeout)

    def fill(self, css: str, value: str, timeout: float = TIMEOUT) -> None:
        """Type ``value`` into the field after emptying it, key by key."""
        self.wait_for(css, "visible", timeout=timeout)
        self._retry(lambda: self._type(css, value, clear=True), f"type into {css!r}", timeout)

    def press(self, css: str, key: str, times: int = 1) -> None:
        """Press ``key`` (a name from KEYS) with the focus on the element."""
        self.wait_for(css, "visible")
        for _ in range(times):
            self._type(css, KEYS[key], clear=False)

    def screenshot(self, name: str) -> Path:
        """A picture of the page once its finite animations (cards turning over, chips
        sliding) have ended: taken in the middle of one, a card shows half turned and looks
        squashed. Endless or long ones (the glow of the seat to act, the turn timer running down)
        are not waited for, nor transitions (the timer's ring moves a little every second):
        only animations of at most two seconds."""
        running = (
            "if (!document.getAnimations) return [];"
            " return document.getAnimations().filter(function (a) {"
            "  var t = a.effect.getComputedTiming();"
            "  return a.playState === 'running' && t.iterations !== Infinity"
            "   && !(window.CSSTransition && a instanceof CSSTransition)"
            "   && t.activeDuration <= 2000; }).map(function (a) {"
            "  var e = a.effect.target;"
            "  return (a.animationName || a.transitionProperty || 'animation') + ' on '"
            "   + (e ? e.className : '?') + ' ' + a.effect.getComputedTiming().activeDuration; });")
        deadline = time.monotonic() + TIMEOUT
        while blocking := self.look(running):
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: animations still running: {blocking}")
            time.sleep(POLL)
        folder = SCREENSHOTS / self.engine
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        path.write_bytes(self._png())
        return path

    def _retry(self, action: Callable[[], None], what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                action()
                return
            except Exception as exc:
                if time.monotonic() > deadline:
                    raise EngineError(f"{self.engine}: could not {what}: {exc}") from exc
                time.sleep(POLL)


_FIRST_VISIBLE = _STATE + """
var found = matches(arguments[0], arguments[1]).filter(shown);
return found.length ? found[0] : null;
"""

# A finger scrolls what it wants to tap into the middle of the screen first. WebKitWebDriver's
# own scrolling leaves an element that has a scroll-margin (app.css gives every [id] 64 px,
# for the sticky header) out of view, and then refuses the click as not interactable.
TO_TAP = _FIRST_VISIBLE.replace("return found.length ? found[0] : null;", """
var el = found.length ? found[0] : null;
if (el) {
  var box = el.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
    el.scrollIntoView({block: "center", inline: "center"});
}
return el;
""")


# ---------------------------------------------------------------------------------------
# Chromium, through Playwright


class ChromiumPhone(Phone):
    engine = "chromium"

    def __init__(self, page: Any) -> None:
        super().__init__()
        self.page = page
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda message: self.errors.append(
            f"{page.url}: console.error {message.text}"
        ) if message.type == "error" and not NETWORK_NOISE.search(message.text) else None)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def url(self) -> str:
        return str(self.page.url)

    def evaluate(self, body: str, *args: Any) -> Any:
        return self.page.evaluate(
            "(args) => (function () {" + body + "}).apply(null, args)", list(args)
        )

    def _element(self, css: str, text: str | None) -> Any:
        # The same choice of element as the WebDriver engines make (first visible match).
        handle = self.page.evaluate_handle(
            "(args) => (function () {" + TO_TAP + "}).apply(null, args)", [css, text]
        ).as_element()
        if handle is None:
            raise EngineError(f"no visible {css!r}")
        return handle

    def _tap(self, css: str, text: str | None) -> None:
        self._element(css, text).click(timeout=3000)

    def _type(self, css: str, value: str, clear: bool) -> None:
        field = self._element(css, None)
        if clear:
            field.fill("", timeout=3000)
        names = {code: name for name, code in KEYS.items()}
        if value in names:
            field.press(names[value], timeout=3000)
        else:
            field.type(value, timeout=3000)

    def _png(self) -> bytes:
        return bytes(self.page.screenshot())

    def close(self) -> None:
        pass  # the new_phone fixture closes its contexts


def missing(engine: str) -> str | None:
    """What Debian package this engine needs and lacks, if any."""
    if engine == "webkit":
        import glob

        if not WEBKIT_DRIVER.exists() or not glob.glob(MINIBROWSER_GLOB):
            return "webkit2gtk-driver"
        if not XVFB.exists():
            return "xvfb"
    if engine == "firefox" and not FIREFOX.exists():
        return "firefox-esr"
    if engine == "chromium" and not Path("/usr/bin/chromium").exists():
        return "chromium"
    return None


def computer_table(phone: Phone, base: str, timeout: float = TIMEOUT) -> str:
    """A new table against the computer at ``base`` (the server's address) whose turn is the
    phone's, so that the hand waits; once its socket is open, its code."""
    phone.goto(base + "/new/?mode=computer")
    phone.fill("input[name=name]", "Asha", timeout=timeout)
    phone.click("[data-testid=create-submit]", timeout=timeout)
    phone.wait_for("[data-testid=action-bar]", timeout=timeout)
    phone.wait_for("[data-connection=open]", "attached", timeout=timeout)
    return str(phone.look("return document.getElementById('table-frame').dataset.code;"))


@contextlib.contextmanager
def x_server() -> Iterator[str]:
    """An Xvfb server of its own, on a display number it picks itself (``-displayfd``), for
    WebKitGTK's MiniBrowser: its name (":N") while the block runs; stopped after."""
    read, write = os.pipe()
    server = subprocess.Popen(
        [str(XVFB), "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
         "-noreset"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as answer:
            number = answer.readline().strip()  # written once the server accepts clients
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

