"""The two WebDriver engines of tests/browser/engines/drivers.py's interface, the same calls
through two client libraries: WebKit (Debian's ``WebKitWebDriver`` driving WebKitGTK's
MiniBrowser under Xvfb, through Selenium) and Firefox (``firefox-esr --marionette --headless``
on its own temporary profile, through ``marionette-driver``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.browser.engines.drivers import (
    FIREFOX,
    HEIGHT,
    KEYS,
    MINIBROWSER_GLOB,
    POLL,
    TIMEOUT,
    TO_TAP,
    WEBKIT_DRIVER,
    WIDTH,
    EngineError,
    Phone,
)

_STEADY = """
var el = arguments[0], done = arguments[arguments.length - 1];
function box() {
  var r = el.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height].join(",");
}
function inside() {
  var r = el.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
  return x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
}
var last = box(), still = 0, frames = 0;
function tick() {
  if (!el.isConnected || ++frames > 120) return done(false);
  var now = box();
  if (now === last) still += 1; else { still = 0; last = now; }
  if (still >= 2 && inside()) return done(true);
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
"""


class _WebDriverPhone(Phone):
    def _element(self, css: str, text: str | None) -> Any:
        element = self.evaluate(TO_TAP, css, text)
        if element is None:
            raise EngineError(f"no visible {css!r}")
        return element

    def _tap(self, css: str, text: str | None) -> None:
        element = self._element(css, text)
        # Playwright taps only what stands still; WebDriver taps where the element is at that
        # instant, and WebKitWebDriver says nothing when that is off the screen (the bet sheet
        # still sliding up). A finger waits for the button to stop, inside the screen.
        if not self._async(_STEADY, element):
            raise EngineError(f"{css!r} did not come to rest on the screen")
        element.click()

    def _async(self, body: str, *args: Any) -> Any:
        raise NotImplementedError

    def _type(self, css: str, value: str, clear: bool) -> None:
        element = self._element(css, None)
        if clear:
            # As a person does: select what is there and type over it. (WebDriver's Element
            # Clear would also blur the field, and its change event makes the bet sheet put
            # the minimum back before the new amount is typed.)
            element.send_keys(KEYS["Control"] + "a" + KEYS["Null"])
            element.send_keys(KEYS["Delete"])
        element.send_keys(value)


class WebKitPhone(_WebDriverPhone):
    """MiniBrowser in full-screen mode (no toolbar, so the page gets the whole window), sized
    to the phone, with its own ephemeral session (cookies, storage) as WebKitWebDriver gives
    every automation session."""

    engine = "webkit"

    def __init__(self, display: str) -> None:
        super().__init__()
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = minibrowser()
        options.add_argument("--automation")
        options.add_argument("--full-screen")
        service = Service(executable_path=str(WEBKIT_DRIVER),
                          env={**os.environ, "DISPLAY": display})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_window_rect(width=WIDTH, height=HEIGHT)
        self.driver.set_script_timeout(TIMEOUT)

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def url(self) -> str:
        return str(self.driver.current_url)

    def evaluate(self, body: str, *args: Any) -> Any:
        return self.driver.execute_script(body, *args)

    def _async(self, body: str, *args: Any) -> Any:
        return self.driver.execute_async_script(body, *args)

    def _png(self) -> bytes:
        # WebKit's snapshot is the last frame painted: let the page paint what it now holds.
        self._async("var done = arguments[arguments.length - 1];"
                    " requestAnimationFrame(function () { requestAnimationFrame(done); });")
        return bytes(self.driver.get_screenshot_as_png())

    def close(self) -> None:
        self.driver.quit()


class FirefoxPhone(_WebDriverPhone):
    """Firefox ESR, headless, on a profile of its own made for this phone and removed after.

    Firefox's window has a minimum width of 500 px (set by its own toolbar's style sheet);
    the phone's 390 px is had by lifting that minimum and hiding the toolbar from the
    browser's chrome, which Marionette reaches with ``-remote-allow-system-access``."""

    engine = "firefox"

    def __init__(self) -> None:
        super().__init__()
        from marionette_driver.marionette import Marionette

        self.profile = Path(tempfile.mkdtemp(prefix="holdem-firefox-"))
        # Port 0: Firefox picks a free port and writes it to MarionetteActivePort.
        (self.profile / "user.js").write_text("".join(
            f'user_pref("{name}", {value});\n' for name, value in FIREFOX_PREFS.items()
        ))
        self.process = subprocess.Popen(
            [str(FIREFOX), "--marionette", "--headless", "--no-remote",
             "-remote-allow-system-access", "--profile", str(self.profile)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            port_file = self.profile / "MarionetteActivePort"
            deadline = time.monotonic() + 60
            while not (port_file.exists() and port_file.read_text().strip()):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise EngineError("Firefox did not start its Marionette server")
                time.sleep(POLL)
            self.driver = Marionette(host="127.0.0.1", port=int(port_file.read_text()))
            self.driver.start_session()
            with self.driver.using_context(self.driver.CONTEXT_CHROME):
                self.driver.execute_script(
                    "document.documentElement.style.setProperty('min-width', '0px', 'important');"
                    "document.getElementById('navigator-toolbox').style.display = 'none';"
                )
            self.driver.set_window_rect(width=WIDTH, height=HEIGHT)
        except BaseException:
            self.close()
            raise

    def goto(self, url: str) -> None:
        self.driver.navigate(url)

    def url(self) -> str:
        return str(self.driver.get_url())

    def evaluate(self, body: str, *args: Any) -> Any:
        # sandbox=None: in the page's own scope (window.Holdem and the error collector), as
        # WebDriver's Execute Script does.
        return self.driver.execute_script(body, script_args=list(args), sandbox=None)

    def _async(self, body: str, *args: Any) -> Any:
        return self.driver.execute_async_script(body, script_args=list(args), sandbox=None)

    def _png(self) -> bytes:
        return bytes(self.driver.screenshot(format="binary", full=False))

    def close(self) -> None:
        driver = getattr(self, "driver", None)
        if driver is not None:
            with contextlib.suppress(Exception):
                driver.delete_session()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


FIREFOX_PREFS = {
    "marionette.port": 0,
    # A quiet browser: no first-run pages, updates, telemetry or calls home (the machine has
    # no network but its own loopback anyway).
    "browser.shell.checkDefaultBrowser": "false",
    "browser.startup.homepage_override.mstone": '"ignore"',
    "browser.aboutwelcome.enabled": "false",
    "datareporting.policy.dataSubmissionEnabled": "false",
    "datareporting.healthreport.uploadEnabled": "false",
    "toolkit.telemetry.enabled": "false",
    "app.update.disabledForTesting": "true",
    "app.normandy.enabled": "false",
    "browser.safebrowsing.malware.enabled": "false",
    "browser.safebrowsing.phishing.enabled": "false",
    "network.captive-portal-service.enabled": "false",
    "network.connectivity-service.enabled": "false",
    "extensions.update.enabled": "false",
    "browser.region.network.url": '""',
    "intl.accept_languages": '"en-GB"',
}


def minibrowser() -> str:
    import glob

    found = sorted(glob.glob(MINIBROWSER_GLOB))
    if not found:
        raise EngineError("WebKitGTK's MiniBrowser is missing (apt-get install webkit2gtk-driver)")
    return found[-1]
