"""How soon a visible phone is live again when its server comes back slowly (issue 40, item 3:
within 3 s of the return, every time).

    .venv/bin/python -m benchmarks.outage_held [--returns 20] [--held 2.0]

A Daphne of its own (benchmarks/outage.py's), Debian's Chromium at 390x844 through Playwright,
one person at a computer table whose turn it is, and between the page and the server a relay
(tests/browser/stalled.py) that plays the server's outage: it drops the page's socket and turns
tries away (a server stopped), then for ``--held`` seconds accepts tries and never answers
them (a server coming up that has bound its port and does not serve yet), then relays again
("back"). A try begun in that last moment hangs, and Chromium begins no other try to the same
server while one is connecting. Measured: from "back" to the page's socket open again with the
table's current version drawn; the distribution over ``--returns`` returns.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.outage import ARGS, CHROMIUM, Daphne, computer_game
from tests.browser.scripts import OPENS
from tests.browser.stalled import Relay


def _live_after(page: Any, server: Daphne, code: str, back: float) -> float:
    """Seconds from ``back`` to the socket's open with the current version drawn."""
    page.wait_for_function(
        "t => window.__opens.some(x => x >= t)", arg=back * 1000, timeout=120_000
    )
    page.wait_for_function(
        "v => Number(document.getElementById('table-frame').dataset.version) >= v",
        arg=server.version(code), timeout=60_000,
    )
    opened = page.evaluate("t => window.__opens.find(x => x >= t)", back * 1000)
    return float(opened) / 1000 - back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--returns", type=int, default=20)
    parser.add_argument("--held", type=float, default=2.0)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server = Daphne(Path(folder))
        server.start()
        relay = Relay(server.port)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        times: list[float] = []
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_init_script(OPENS)
            page = context.new_page()
            code = computer_game(page, relay.base)
            for number in range(args.returns):
                relay.down()
                page.wait_for_function(
                    "() => document.getElementById('table-live').dataset.connection !== 'open'"
                )
                first = relay.held_tries()
                relay.hold()
                relay.wait_for_a_held_try(more_than=first)
                time.sleep(args.held * (number % 4) / 3)  # the return at different moments
                back = relay.up()
                times.append(_live_after(page, server, code, back))
                print(f"return {number + 1}: live {times[-1]:.2f} s after the server was back",
                      flush=True)
            context.close()
        finally:
            browser.close()
            relay.close()
            server.stop()
    ordered = sorted(times)
    print(f"\n{len(times)} returns: median {statistics.median(ordered):.2f} s, "
          f"p90 {ordered[int(0.9 * (len(ordered) - 1))]:.2f} s, worst {ordered[-1]:.2f} s "
          f"(goal 3 s: {'met' if ordered[-1] <= 3 else 'MISSED'})")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
