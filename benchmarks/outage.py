"""How soon a phone at a table is live again after the server was away (issue 24).

    python -m benchmarks.outage [--outages 5,30,75,300] [--modes visible,hidden] [--runs 1]

A Daphne of its own (SQLite, the app's settings for a computer table), Debian's Chromium at
390x844 through Playwright, one person at a computer table whose turn it is (so the table
waits). For each outage length the server is stopped (SIGTERM, as a deploy does), left down
for that long, and started again on the same address; "back" is the moment its port accepts
connections again. "Live" is the moment the page's socket is open again
(``static/js/live.js`` reports it on ``#table-live[data-connection]``) with the table's
current version drawn.

- visible: the page stays visible throughout; measured from "back" to "live" (goal: 3 s).
- hidden: the page is hidden (a locked phone) before the server stops and shown again 5 s
  after the server is back; measured from "shown" to "live" (goal: 1 s).

Reference, in the same run: what a person would otherwise do, reload the page once the server
is back; measured from the reload to "live". The ratio reconnect/reload says how the page's own
reconnection compares with a manual reload on this machine.
"""

from __future__ import annotations

import argparse
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.browser.scripts import OPENS, VISIBILITY
from tests.helpers.servers import free_port

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

_PROBE = VISIBILITY + OPENS


class Daphne:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.db = folder / "db.sqlite3"
        self.env = {
            **os.environ, "DEBUG": "true", "DATABASE_URL": f"sqlite:///{self.db}",
            "ALLOWED_HOSTS": "127.0.0.1", "TABLES_BOT_PAUSE": "0.05,0.15",
            "TABLES_NEXT_HAND_PAUSE": "1.2", "TABLES_CLOCK_IN_SERVER": "true",
            "TABLES_CLOCK_INTERVAL": "0.05", "STATIC_COLLECTED": "true",
            "STATIC_ROOT": str(folder / "static"), "REDIS_URL": "", "PUBLIC_URL": "",
        }
        self.process: subprocess.Popen[bytes] | None = None
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env,
                           check=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> float:
        """Start it; returns the moment (time.time()) its port accepts connections."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "config.serve", "-b", "127.0.0.1", "-p", str(self.port),
             "config.asgi:application"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.05).close()
                return time.time()
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("daphne exited") from None
                time.sleep(0.01)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None

    def version(self, code: str) -> int:
        with sqlite3.connect(self.db, timeout=10) as db:
            row = db.execute("SELECT version FROM tables_table WHERE code = ?", (code,)).fetchone()
        return int(row[0])


def _live_at(page: Any, server: Daphne, code: str, since: float) -> float:
    """The wall-clock moment the page's socket opened again after ``since`` with the current
    version drawn."""
    page.wait_for_function(
        "t => window.__opens.some(x => x >= t)", arg=since * 1000, timeout=600_000
    )
    version = server.version(code)
    page.wait_for_function(
        "v => Number(document.getElementById('table-frame').dataset.version) >= v",
        arg=version, timeout=60_000,
    )
    opened = page.evaluate("t => window.__opens.find(x => x >= t)", since * 1000)
    drawn = page.evaluate("() => Date.now()")
    # The open is the moment the server could answer; the view follows within milliseconds
    # (the wait above only proves it came).
    return float(min(opened, drawn)) / 1000


def computer_game(page: Any, base: str) -> str:
    """A new game against the computer at ``base``, its socket open; its code."""
    page.goto(base + "/new/?mode=computer")
    page.fill("input[name=name]", "Asha")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("action-bar").wait_for(timeout=60_000)
    page.wait_for_function(
        "() => document.getElementById('table-live').dataset.connection === 'open'"
    )
    return str(page.evaluate("() => document.getElementById('table-frame').dataset.code"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outages", default="5,30,75,300")
    parser.add_argument("--modes", default="visible,hidden")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    outages = [float(x) for x in args.outages.split(",")]
    modes = args.modes.split(",")

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        server = Daphne(Path(folder))
        server.start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        results: list[tuple[str, float, float]] = []
        reloads: list[float] = []
        try:
            for _ in range(args.runs):
                for mode in modes:
                    for outage in outages:
                        context = browser.new_context(viewport={"width": 390, "height": 844})
                        context.add_init_script(_PROBE)
                        page = context.new_page()
                        code = computer_game(page, server.url)
                        if mode == "hidden":
                            page.evaluate("() => window.__setVisibility('hidden')")
                        server.stop()
                        time.sleep(outage)  # the outage itself (what is measured follows)
                        back = server.start()
                        since = back
                        already = False
                        if mode == "hidden":
                            time.sleep(5)  # the phone stays locked a while after the return
                            # (It may have come back by itself while hidden: then it is live
                            # the moment it is shown, once the view it asks for is drawn.)
                            since, already = page.evaluate(
                                "() => { const open = document.getElementById('table-live')"
                                ".dataset.connection === 'open';"
                                " window.__setVisibility('visible'); return [Date.now(), open]; }"
                            )
                            since /= 1000
                        live = since if already else _live_at(page, server, code, since)
                        results.append((mode, outage, live - since))
                        print(f"{mode:8} outage {outage:5.0f} s: live {live - since:6.2f} s after "
                              f"{'the return' if mode == 'visible' else 'being shown'}",
                              flush=True)
                        context.close()
                # The reference: a reload once the server is back.
                context = browser.new_context(viewport={"width": 390, "height": 844})
                context.add_init_script(_PROBE)
                page = context.new_page()
                code = computer_game(page, server.url)
                server.stop()
                server.start()
                started = page.evaluate("() => Date.now()") / 1000
                page.reload()
                reloads.append(_live_at(page, server, code, started) - started)
                print(f"reference: a reload once the server is back: live "
                      f"{reloads[-1]:.2f} s after the reload", flush=True)
                context.close()
        finally:
            browser.close()
            server.stop()
    reference = statistics.median(reloads)
    print("\nsummary (median over runs):")
    for mode in modes:
        for outage in outages:
            times = [t for m, o, t in results if m == mode and o == outage]
            goal = 3.0 if mode == "visible" else 1.0
            worst = max(times)
            print(f"  {mode:8} {outage:5.0f} s away: {statistics.median(times):5.2f} s "
                  f"(worst {worst:.2f}; goal {goal:.0f} s: {'met' if worst <= goal else 'MISSED'}; "
                  f"{statistics.median(times) / reference:.2f} x a reload)")
    print(f"  reference: reload once back: {reference:.2f} s")
    print(f"  load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
