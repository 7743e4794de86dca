"""How soon a visible phone is live again when its server comes back slowly (issue 40, item 3:
within 3 s of the return, every time, in Chromium, WebKit and Firefox).

    .venv/bin/python -m benchmarks.outage_held [--engine chromium|webkit|firefox]
        [--returns 20] [--held 2.0]

A Daphne of its own (benchmarks/outage.py's), one person at a computer table whose turn it is,
on a 390x844 phone of the chosen engine: Debian's Chromium through Playwright, WebKitGTK's
MiniBrowser through WebKitWebDriver (Selenium, under an Xvfb of its own) or Firefox ESR through
Marionette, as tests/browser/engines/drivers.py drives them. Between the page and the server a
relay (tests/browser/stalled.py) plays the server's outage: it drops the page's socket and turns
tries away (a server stopped), then for ``--held`` seconds accepts tries and never answers
them (a server coming up that has bound its port and does not serve yet), then relays again
("back"). A try begun in that last moment hangs, and a browser may begin no other try to the
same server while one is connecting. Measured: from "back" to the page's socket open again
(``window.__opens``, tests/browser/scripts.py's OPENS: the moments static/js/live.js reported
the socket open, by the page's own clock, which is this machine's) with the table's current
version drawn; the distribution over ``--returns`` returns.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.outage import ARGS, CHROMIUM, Daphne
from tests.browser.scripts import OPENS
from tests.browser.stalled import Relay

ENGINES = ("chromium", "webkit", "firefox")
_WAIT = 120.0  # s: a bound for a loaded machine, not a pace


def _phone(engine: str, stack: contextlib.ExitStack) -> Any:
    """A phone of ``engine`` (a drivers.Phone), closed with ``stack``. Chromium's page gets the
    OPENS recorder before its own scripts; the WebDriver engines have no such hook and are given
    it once the table is up (_table), before the first outage."""
    # drivers.py reads constants from the browser tests' helpers, which need Django's apps.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from tests.browser.engines import drivers, webdriver_phones

    if engine == "chromium":
        from playwright.sync_api import sync_playwright

        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        stack.callback(browser.close)
        context = browser.new_context(viewport={"width": drivers.WIDTH, "height": drivers.HEIGHT})
        context.add_init_script(OPENS)
        return drivers.ChromiumPhone(context.new_page())
    phone = (
        webdriver_phones.WebKitPhone(stack.enter_context(drivers.x_server()))
        if engine == "webkit" else webdriver_phones.FirefoxPhone()
    )
    stack.callback(phone.close)
    return phone


def _table(phone: Any, base: str) -> str:
    """drivers.computer_table, with ``window.__opens`` recording; the table's code."""
    from tests.browser.engines.drivers import computer_table

    code = computer_table(phone, base, timeout=_WAIT)
    if phone.engine != "chromium":
        phone.evaluate(OPENS)  # the page is not left again: it keeps recording
    assert phone.evaluate("return Array.isArray(window.__opens);"), "no socket recorder"
    return code


_OPENED_SINCE = """
var since = arguments[0];
return window.__opens.filter(function (x) { return x >= since; })[0] || null;
"""


def _live_after(phone: Any, server: Daphne, code: str, back: float) -> float:
    """Seconds from ``back`` to the socket's open with the current version drawn."""
    opened = phone.wait_until(_OPENED_SINCE, back * 1000, timeout=_WAIT,
                              what="the socket open after the return")
    version = server.version(code)
    phone.wait_until("return Number(document.getElementById('table-frame').dataset.version)"
                     " >= arguments[0];", version, timeout=_WAIT,
                     what=f"version {version} drawn")
    return float(opened) / 1000 - back


def measure(engine: str, returns: int, held: float) -> list[float]:
    """The seconds to live after each of ``returns`` returns."""
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        server = Daphne(Path(folder))
        server.start()
        stack.callback(server.stop)
        relay = Relay(server.port)
        stack.callback(relay.close)
        phone = _phone(engine, stack)
        code = _table(phone, relay.base)
        for number in range(returns):
            relay.down()
            phone.wait_until("return document.getElementById('table-live')"
                             ".dataset.connection !== 'open';", timeout=_WAIT,
                             what="the socket dropped")
            first = relay.held_tries()
            relay.hold()
            relay.wait_for_a_held_try(more_than=first)
            time.sleep(held * (number % 4) / 3)  # the return at different moments
            back = relay.up()
            times.append(_live_after(phone, server, code, back))
            print(f"{engine} return {number + 1}: live {times[-1]:.2f} s after the server was "
                  f"back (load average {os.getloadavg()[0]:.1f})", flush=True)
        if phone.errors:
            print(f"{engine}: the page reported errors:", *phone.errors, sep="\n  ")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=ENGINES, default="chromium")
    parser.add_argument("--returns", type=int, default=20)
    parser.add_argument("--held", type=float, default=2.0)
    args = parser.parse_args()
    times = measure(args.engine, args.returns, args.held)
    ordered = sorted(times)
    p90 = ordered[math.ceil(0.9 * len(ordered)) - 1]  # nearest rank
    print(f"\n{args.engine}, {len(times)} returns: median {statistics.median(ordered):.2f} s, "
          f"p90 {p90:.2f} s, worst {ordered[-1]:.2f} s "
          f"(goal 3 s: {'met' if ordered[-1] <= 3 else 'MISSED'})")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
