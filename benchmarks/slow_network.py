"""A phone on slow mobile data: how long things take, and how many bytes an hour costs (issue 24).

    python -m benchmarks.slow_network [--taps 50] [--minutes 5] [--latency 400] [--kbit 400]
        [--cpu 4]

A Daphne of its own (SQLite, the app's settings) and Debian's Chromium through Playwright at
390x844. Chromium's DevTools protocol emulates the network (``--latency`` ms added to each round
trip, ``--kbit`` kbit/s each way; Chromium applies them to websockets too) and a processor
``--cpu`` times slower. Every byte the phones receive goes through a counting TCP relay in
front of the server, so the figures are what crosses the wire (compressed HTTP, websocket
frames after permessage-deflate, headers and handshakes).

1. First visit: a friend opens a table link on the slow phone. Measured from the navigation to
   the join form being usable, then from the tap on Join to the table (its waiting screen)
   live with the socket open.
2. Taps: two slow phones heads-up at a friends table (fast server pauses), each tapping Check or
   Call on its turn, ``--taps`` times: from the tap (the page's own click time) to the tapping
   phone drawing the new version, and to the other phone drawing it (p50, p95, max).
3. Bytes per hour: one person at a six-seat table with five computer players at the app's own
   pace (computer players think 0.8 to 2.5 s, 5 s between hands, the person answers after 3 s),
   for ``--minutes``, not slowed down; the bytes the phone received, scaled to an hour, with the
   hands and actions seen (goal: under 1 MB per hour).

Reference in the same run: the same taps on an unthrottled phone pair, so the slow figures can
be read against what this machine does with no emulation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.outage import ARGS, CHROMIUM, Daphne
from tests.helpers.servers import free_port

# Each page records when a tap happened and when each version was drawn (wall clock, ms).
_PROBE = """
(() => {
  window.__taps = [];
  window.__versions = {};
  document.addEventListener("click", (e) => {
    if (e.target.closest && e.target.closest("[data-act]")) window.__taps.push(Date.now());
  }, true);
  const seen = () => {
    const f = document.getElementById("table-frame");
    if (f && !(f.dataset.version in window.__versions)) {
      window.__versions[f.dataset.version] = Date.now();
    }
  };
  new MutationObserver(seen).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-version"]});
  document.addEventListener("DOMContentLoaded", seen);
})();
"""


class Relay:
    """A TCP relay on its own port in front of the server, counting the bytes sent each way."""

    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self.target = target_port
        self.down = 0  # server -> phone
        self.up = 0  # phone -> server
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        self._ready.wait()

    def reset(self) -> None:
        self.down = self.up = 0

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    down: bool) -> None:
        try:
            while data := await reader.read(65536):
                if down:
                    self.down += len(data)
                else:
                    self.up += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            s_reader, s_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, s_writer, False),
                             self._pipe(s_reader, writer, True))

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._client, "127.0.0.1", self.port)
        )
        self._ready.set()
        self._loop.run_forever()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _slow(page: Any, latency: int, kbit: int, cpu: int) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = kbit * 1000 / 8
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency, "downloadThroughput": rate, "uploadThroughput": rate,
    })
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    page.__dict__["_cdp"] = cdp  # kept alive with the page


def _phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    context.set_default_timeout(120_000)
    context.add_init_script(_PROBE)
    return context.new_page()


def _friends_table(page: Any, url: str, seats: int) -> str:
    page.goto(url + "/new/?mode=friends")
    page.fill("input[name=name]", "Asha")
    page.locator("summary", has_text="Game settings").click()
    page.check(f"input[name=seats][value='{seats}']")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("start-game").wait_for()
    return str(page.locator("#join-link").get_attribute("href"))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(values: list[float]) -> str:
    return (f"p50 {statistics.median(values):6.0f} ms  p95 {_pct(values, 0.95):6.0f} ms  "
            f"max {max(values):6.0f} ms  (n={len(values)})")


def first_visit(browser: Any, url: str, slow: tuple[int, int, int]) -> tuple[float, float]:
    host = _phone(browser)
    link = _friends_table(host, url, 2)
    friend = _phone(browser)
    _slow(friend, *slow)
    started = time.time()
    friend.goto(link, wait_until="commit")
    friend.locator("#join-name").wait_for()
    friend.wait_for_function("() => document.readyState === 'complete'")
    usable = time.time() - started
    friend.fill("#join-name", "Bikash")
    tapped = time.time()
    friend.get_by_test_id("join-submit").click()
    friend.get_by_test_id("waiting-for-host").wait_for()
    friend.wait_for_function(
        "() => (document.getElementById('table-live') || {dataset: {}}).dataset.connection"
        " === 'open'"
    )
    live = time.time() - tapped
    host.context.close()
    friend.context.close()
    return usable, live


def taps(browser: Any, url: str, count: int, slow: tuple[int, int, int] | None
         ) -> tuple[list[float], list[float]]:
    asha = _phone(browser)
    link = _friends_table(asha, url, 2)
    bikash = _phone(browser)
    bikash.goto(link)
    bikash.fill("#join-name", "Bikash")
    bikash.get_by_test_id("join-submit").click()
    bikash.get_by_test_id("waiting-for-host").wait_for()
    asha.get_by_test_id("start-game").click()
    phones = [asha, bikash]
    for phone in phones:
        phone.get_by_test_id("table-frame").and_(phone.locator("[data-screen=play]")).wait_for()
        if slow:
            _slow(phone, *slow)
    own: list[float] = []
    other: list[float] = []
    deadline = time.monotonic() + 1800
    while len(own) < count and time.monotonic() < deadline:
        for me in phones:
            them = bikash if me is asha else asha
            button = me.locator("[data-action-bar] [data-act=check], [data-action-bar] "
                                "[data-act=call]")
            if not button.count() or frame_screen(me) != "play":
                continue
            version = int(me.evaluate(
                "() => Number(document.getElementById('table-frame').dataset.version)"))
            try:
                button.first.click(timeout=5000)
            except Exception:  # the view changed under the finger
                continue
            for page in (me, them):
                page.wait_for_function(
                    "v => Object.keys(window.__versions).some(k => Number(k) > v)", arg=version,
                )
            tap = me.evaluate("() => window.__taps[window.__taps.length - 1]")
            drawn = [page.evaluate(
                "v => Math.min(...Object.entries(window.__versions)"
                ".filter(([k]) => Number(k) > v).map(([, t]) => t))", version)
                for page in (me, them)]
            own.append(drawn[0] - tap)
            other.append(drawn[1] - tap)
        if frame_screen(asha) == "over":
            break
        asha.wait_for_timeout(20)  # polling both phones for a turn
    asha.context.close()
    bikash.context.close()
    return own, other


def frame_screen(page: Any) -> str:
    return str(page.evaluate(
        "() => (document.getElementById('table-frame') || {dataset: {}}).dataset.screen || ''"))


def bytes_per_hour(browser: Any, relay: Relay, minutes: float) -> dict[str, float]:
    page = _phone(browser)
    page.goto(relay.url + "/new/?mode=computer")
    page.fill("input[name=name]", "Asha")
    page.locator("summary", has_text="Game settings").click()
    page.check("input[name=seats][value='6']")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("table-frame").wait_for()
    page.wait_for_function(
        "() => document.getElementById('table-live').dataset.connection === 'open'")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    frames: list[int] = []
    cdp.on("Network.webSocketFrameReceived",
           lambda e: frames.append(len(e["response"]["payloadData"])))
    relay.reset()
    start_versions = len(page.evaluate("() => Object.keys(window.__versions)"))
    first_hand = int(page.evaluate(
        "() => Number((document.querySelector('[data-hand]') || {dataset: {}}).dataset.hand)"
        " || 0"))
    started = time.monotonic()
    while time.monotonic() - started < minutes * 60:
        if frame_screen(page) == "over":
            break
        # A cautious person (check, else fold) stays in the game for the whole measurement.
        check = page.locator("[data-action-bar] [data-act=check]")
        fold = page.locator("[data-action-bar] [data-act=fold]")
        if fold.count():
            page.wait_for_timeout(3000)  # the person thinks (the pace being measured)
            with contextlib.suppress(Exception):  # the view changed under the finger
                (check if check.count() else fold).first.click(timeout=2000)
        page.wait_for_timeout(100)
    elapsed = time.monotonic() - started
    hands = int(page.evaluate(
        "() => Number((document.querySelector('[data-hand]') || {dataset: {}}).dataset.hand)"
        " || 0")) - first_hand
    versions = len(page.evaluate("() => Object.keys(window.__versions)")) - start_versions
    page.context.close()
    return {"frames": len(frames), "inflated": sum(frames), "seconds": elapsed,
            "down": relay.down, "up": relay.up, "hands": hands,
            "versions": versions, "per_hour_down": relay.down * 3600 / elapsed,
            "per_hour_up": relay.up * 3600 / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--latency", type=int, default=400)
    parser.add_argument("--kbit", type=int, default=400)
    parser.add_argument("--cpu", type=int, default=4)
    parser.add_argument("--skip", default="", help="comma-separated: visit,taps,reference,bytes")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    slow = (args.latency, args.kbit, args.cpu)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        (Path(folder) / "fast").mkdir()
        (Path(folder) / "real").mkdir()
        fast = Daphne(Path(folder) / "fast")
        fast.start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print(f"slow data: {args.latency} ms added per round trip, {args.kbit} kbit/s each way, "
              f"processor {args.cpu}x slower; load average {os.getloadavg()[0]:.1f}", flush=True)
        try:
            if "visit" not in skip:
                usable, live = [], []
                for _ in range(3):
                    u, v = first_visit(browser, fast.url, slow)
                    usable.append(u)
                    live.append(v)
                print(f"first visit to a table link, join form usable: "
                      f"{', '.join(f'{x:.2f}' for x in usable)} s (median "
                      f"{statistics.median(usable):.2f} s)", flush=True)
                print(f"tap on Join to the table live: {', '.join(f'{x:.2f}' for x in live)} s "
                      f"(median {statistics.median(live):.2f} s)", flush=True)
            if "taps" not in skip:
                own, other = taps(browser, fast.url, args.taps, slow)
                print(f"slow: tap to the tapping phone's frame: {_summary(own)}", flush=True)
                print(f"slow: tap to the other phone's frame:   {_summary(other)}", flush=True)
            if "reference" not in skip:
                own, other = taps(browser, fast.url, args.taps, None)
                print(f"reference (no emulation): tap to own frame:   {_summary(own)}",
                      flush=True)
                print(f"reference (no emulation): tap to other frame: {_summary(other)}",
                      flush=True)
        finally:
            fast.stop()
        if "bytes" not in skip:
            real = Daphne(Path(folder) / "real")
            for key in ("TABLES_BOT_PAUSE", "TABLES_NEXT_HAND_PAUSE", "TABLES_CLOCK_INTERVAL"):
                real.env.pop(key, None)  # the app's own pace
            real.start()
            relay = Relay(real.port)
            try:
                b = bytes_per_hour(browser, relay, args.minutes)
            finally:
                real.stop()
            print(f"six-seat table at the app's pace for {b['seconds'] / 60:.1f} min: "
                  f"{b['hands']} hands, {b['versions']} versions drawn, {b['frames']} websocket "
                  f"frames ({b['inflated'] / 1000:.0f} KB inflated); received "
                  f"{b['down'] / 1000:.0f} KB, sent {b['up'] / 1000:.0f} KB; per hour "
                  f"{b['per_hour_down'] / 1e6:.2f} MB received, {b['per_hour_up'] / 1e6:.2f} MB "
                  f"sent (goal: under 1 MB received)", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
