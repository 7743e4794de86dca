"""What the browser tests share: the server handle, screenshots, and tapping through a game."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.tables.helpers import allowed_cards, leaked_cards

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "screenshots"
VENDOR = Path(__file__).resolve().parent / "vendor"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]

# The marks of every test here (tests/browser/conftest.py gives them to each).
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]

JS_ERRORS: list[str] = []
"""Uncaught JavaScript errors and console errors of the pages of the running test (emptied
before each test by the ``_own_js_errors`` fixture, which fails the test if any is left when it
ends); tests may also assert it stays empty at a point of their own."""

NETWORK_NOISE = re.compile(r"^WebSocket connection to '[^']*' failed|net::ERR_")
"""Console errors the browser writes about the network, not the page: a websocket handshake or
a request the network (or a test cutting it) let fail. The page tries again by itself
(static/js/live.js; tests/browser/test_reconnect.py)."""


EXPECTED_CONSOLE: list[re.Pattern[str]] = []
"""Console errors the running test provokes on purpose (``expect_console``); emptied before
each test with JS_ERRORS."""


def expect_console(pattern: str) -> None:
    """Let the running test provoke a console error matching ``pattern`` (a refusal page it
    asks for on purpose: the browser writes "Failed to load resource: ... 403")."""
    EXPECTED_CONSOLE.append(re.compile(pattern))


def watch_errors(page: Any, skip: Any = None) -> None:
    """Put every uncaught error and every ``console.error`` of ``page`` on record in JS_ERRORS
    (``skip``: a test of a message that is recorded elsewhere, such as the policy's refusals)."""
    page.on("pageerror", lambda exc: JS_ERRORS.append(f"{page.url}: {exc}"))

    def console(message: Any) -> None:
        if message.type != "error" or NETWORK_NOISE.search(message.text):
            return
        if any(p.search(message.text) for p in EXPECTED_CONSOLE):
            return
        if skip is not None and skip(message):
            return
        JS_ERRORS.append(f"{page.url}: console.error {message.text}")

    page.on("console", console)


class LiveServer:
    def __init__(self, url: str, db_path: Path) -> None:
        self.url = url
        self.db_path = db_path

    def table_row(self, code: str) -> tuple[int, dict[str, Any] | None]:
        """(version, engine state) of a table, read straight from the server's database."""
        with sqlite3.connect(self.db_path, timeout=10) as db:
            row = db.execute(
                "SELECT version, state FROM tables_table WHERE code = ? ORDER BY id DESC LIMIT 1",
                (code,),
            ).fetchone()
        assert row is not None, code
        return int(row[0]), (json.loads(row[1]) if row[1] else None)

    def hand_record(self, code: str, number: int) -> dict[str, Any] | None:
        """The stored record of hand ``number`` of a table (None before it was stored)."""
        with sqlite3.connect(self.db_path, timeout=10) as db:
            row = db.execute(
                "SELECT h.record FROM tables_hand h JOIN tables_table t ON t.id = h.table_id"
                " WHERE t.code = ? AND h.number = ? ORDER BY t.id DESC LIMIT 1", (code, number),
            ).fetchone()
        return json.loads(row[0]) if row else None

    def seed(self, module: str, *args: str) -> dict[str, Any]:
        """Run ``python -m module args`` on the server's database (a script that writes past
        games there); what it prints last, as JSON."""
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.db_path}", "DEBUG": "true"}
        env.pop("REDIS_URL", None)
        out = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=600,
        ).stdout
        return dict(json.loads(out.strip().splitlines()[-1]))

    def sign_in(self, page: Any, session: str) -> None:
        """``page`` from now on as the phone whose session key is ``session``."""
        page.context.add_cookies([{"name": "sessionid", "value": session, "url": self.url}])


def screenshot(page: Any, name: str) -> None:
    """The page as a player sees it once the motion has settled: finite animations (cards turning
    over at a run-out) are shown at their end, not caught half turned."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")


_FRAME = re.compile(r'<section id="table-frame"[^>]*>')


def frame_of(html: str) -> dict[str, Any]:
    """version, screen and viewing seat of the table frame in a page's HTML."""
    tag = _FRAME.search(html)
    assert tag, "no table frame on the page"
    attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag.group(0)))
    seat = attrs.get("data-seat")
    return {
        "version": int(attrs["data-version"]),
        "screen": attrs.get("data-screen"),
        "seat": int(seat) if seat not in (None, "") else None,
        "code": attrs.get("data-code"),
    }


def frame(page: Any) -> dict[str, Any]:
    """The table frame's attributes as the page holds them now; while the page is navigating
    (a move to another table, a reload) read again once it has loaded."""
    for _ in range(20):
        try:
            return frame_of(page.content())
        except PlaywrightError as exc:
            if "navigating" not in str(exc):
                raise
            page.wait_for_load_state()
    return frame_of(page.content())


def hand_number(page: Any) -> int:
    """The hand on screen (0: none yet). One read in the page: the element may be swapped out
    by a new view at any moment; while the page is navigating (the table's page still loading
    after the form that made it), read again once it has loaded."""
    for _ in range(20):
        try:
            number = page.evaluate(
                "() => { const e = document.querySelector('[data-hand]');"
                " return e ? Number(e.dataset.hand) || 0 : 0; }"
            )
            return int(number)
        except PlaywrightError as exc:
            if "navigat" not in str(exc) and "context was destroyed" not in str(exc):
                raise
            page.wait_for_load_state()
    return 0


def wait_connection(page: Any, state: str) -> None:
    """Wait for the table page's socket to be in `state` ("open", "closed"; static/js/live.js).
    The page is drawn by the server before its socket opens, with its buttons disabled until
    then: a key press or a count of handshakes waits for "open" first."""
    page.wait_for_function(
        "s => document.getElementById('table-live').dataset.connection === s", arg=state,
        timeout=60_000,
    )


def wait_new_version(page: Any, old: int, timeout: float = 20) -> None:
    page.wait_for_function(
        "old => { const f = document.getElementById('table-frame');"
        " return f && Number(f.dataset.version) !== old; }",
        arg=old, timeout=timeout * 1000,
    )


def take_turn(page: Any, shove: bool = False, cautious: bool = False) -> bool:
    """Tap the real buttons once if it is this phone's turn: check or call, or (shove) all in
    through the bet sheet, or (cautious) check, else fold: a cautious player keeps their chips
    for many hands whatever the computer players do. Returns whether an action was sent."""
    from playwright.sync_api import Error as PlaywrightError

    bar = page.locator("[data-testid=action-bar]")
    if not bar.count():
        return False
    try:
        old = frame(page)["version"]
        if shove and page.locator("[data-open-bet-sheet]").count():
            page.locator("[data-open-bet-sheet]").click(timeout=3000)
            page.locator("[data-bet-sheet] [data-preset=max]").click(timeout=3000)
            page.locator("[data-bet-confirm]").click(timeout=3000)
        elif cautious:
            check = page.locator("[data-action-bar] [data-act=check]")
            fold = page.locator("[data-action-bar] [data-act=fold]")
            (check if check.count() else fold).first.click(timeout=3000)
        else:
            page.locator(
                "[data-action-bar] [data-act=check], [data-action-bar] [data-act=call]"
            ).first.click(timeout=3000)
        wait_new_version(page, old)
        return True
    except PlaywrightError:
        return False  # the view changed under the finger; the next look decides again


def tap_fold(page: Any) -> None:
    """Tap fold, and confirm it when the app asks (checking was free: a new view may have made
    it so since the decision)."""
    page.locator("[data-action-bar] [data-act=fold]").click(timeout=3000)
    if page.locator("dialog.confirm").count():
        page.locator("dialog.confirm .btn--danger").click(timeout=3000)


def where_cards_are(html: str, cards: list[str]) -> str:
    """Where the page spells each card (its code, or rank and suit symbol): the text around."""
    spelled = {"T": "10"}
    found = []
    for card in cards:
        symbol = spelled.get(card[0], card[0]) + dict(zip("shdc", "♠♥♦♣", strict=True))[card[1]]
        for form in (card, symbol):
            at = html.find(form)
            if at >= 0:
                found.append(f"{form!r} in ...{html[max(0, at - 160):at + 60]!r}...")
    return "; ".join(found) or "(in another spelling)"


def assert_no_foreign_cards(page: Any, server: LiveServer, code: str) -> bool:
    """The whole page (DOM, scripts, attributes) holds no card this seat may not see now: not
    another player's hole card before it is shown, never the deck. What the hand before showed
    everyone (its board, the hands turned up) may stay on the page: the log drawer keeps the last
    hand's lines after the next deal. Returns False when the page and the database could not be
    caught at the same version (nothing was checked)."""
    for _ in range(40):
        html = page.content()
        seen = frame_of(html)
        version, state = server.table_row(code)
        if version == seen["version"]:
            allowed = allowed_cards(state, seen["seat"])
            number = state.get("hand_number") if state else None
            before = server.hand_record(code, number - 1) if isinstance(number, int) else None
            if before is not None:
                allowed |= allowed_cards({"hand": before}, seen["seat"])
            leaks = leaked_cards(html, allowed)
            assert not leaks, (
                f"seat {seen['seat']} at version {version} can see {leaks}: "
                + where_cards_are(html, leaks)
            )
            return True
        time.sleep(0.05)
    return False


def run_axe(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    # Evaluated by DevTools, not added as an inline <script>, which the page's Content Security
    # Policy refuses (hook(issue-19)).
    page.evaluate((VENDOR / "axe.min.js").read_text())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          // Contrast is judged on the page at rest: a card still fading in
          // (deal-in, 260 ms) is half transparent and would be measured
          // against the felt behind it. Endless effects (the turn's pulse)
          // only move a shadow and are left running.
          for (let round = 0; round < 20; round++) {
            const running = document.getAnimations().filter(
              a => a.playState === 'running' &&
                   isFinite(a.effect.getComputedTiming().endTime));
            if (!running.length) break;
            await Promise.all(running.map(a => a.finished.catch(() => null)));
          }
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary),
          }));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def start_computer_game(
    page: Any, server: LiveServer, name: str, until: str = "table-frame"
) -> str:
    """Create a game against the computer through the home page's form, waiting for the test
    id ``until`` (the table drawn, or ``action-bar``: the person's turn); its table code."""
    page.goto(server.url + "/new/?mode=computer")
    page.fill("input[name=name]", name)
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id(until).wait_for()
    code = frame(page)["code"]
    assert code
    return str(code)


def create_friends_table(
    page: Any, server: LiveServer, name: str = "Asha", seats: int | None = None,
    from_home: bool = False, bank: int | None = None,
) -> str:
    """A friends table created through the form (opened from the home page's link when
    ``from_home``; ``seats`` and the time ``bank`` (P4) chosen in the game settings), up to its
    lobby; its join link."""
    if from_home:
        page.goto(server.url + "/")
        page.get_by_role("link", name="Play with friends").click()
    else:
        page.goto(server.url + "/new/?mode=friends")
    page.fill("input[name=name]", name)
    if seats is not None or bank is not None:
        page.locator("summary", has_text="Game settings").click()
    if seats is not None:
        page.check(f"input[name=seats][value='{seats}']")
    if bank is not None:
        page.check(f"input[name=time_bank][value='{bank}']")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("start-game").wait_for()
    link = page.locator("#join-link").get_attribute("href")
    assert link
    return str(link)


def join_by_link(page: Any, link: str, name: str) -> None:
    """A friend opens the join link, gives their name and waits for the host in the lobby."""
    page.goto(link)
    page.fill("#join-name", name)
    page.get_by_test_id("join-submit").click()
    page.get_by_test_id("waiting-for-host").wait_for()


def play_until_hand(page: Any, number: int, timeout: float = 180) -> None:
    """Check or call on every turn until hand ``number`` is dealt or the game is over (the
    computers may take every chip first: R33 then ends the game)."""
    deadline = time.monotonic() + timeout
    while hand_number(page) < number and frame(page)["screen"] != "over":
        assert time.monotonic() < deadline, "the game did not move on"
        if not take_turn(page):
            time.sleep(0.05)
