"""The phones of scripts/tournament_ten_phones.py and the server they play on.

A phone is a page of one headless Chromium at 390x844 (``new_phone``): what it shows is read in
one go (``LOOK``), it taps its own action bar (``tap``), falls asleep and wakes up on the page it
showed, and its errors and "You moved" notices are recorded. The server is Daphne on a free
loopback port with its own SQLite database and short pauses (``start_server``), whose database is
read back the way the server wrote it (``Db``). Screenshots go to ``OUT``.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.game import Game
from tests.helpers.servers import Server

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out" / "tournament_ten"
PHONE = {"width": 390, "height": 844}
# Ten pages of one browser: none is "in the background" (a backgrounded page's animation frames
# are throttled, and a tap waits for the page to be still).
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]

# What a phone shows, read in one go (the frame may be swapped at any moment).
LOOK = """() => {
  const f = document.getElementById('table-frame');
  const bar = document.querySelector('[data-testid=action-bar]');
  const n = document.getElementById('table-notice');
  return {
    path: location.pathname,
    code: f ? f.dataset.code : null,
    version: f ? Number(f.dataset.version) : -1,
    screen: f ? f.dataset.screen : null,
    seat: f && f.dataset.seat !== undefined && f.dataset.seat !== '' ? Number(f.dataset.seat)
          : null,
    sending: f ? f.hasAttribute('data-sending') : false,
    bar: !!bar,
    notice: n ? {code: n.dataset.code, text: n.textContent.trim()} : null,
  };
}"""


@dataclass
class Phone:
    name: str
    page: Any
    taps: list[tuple[float, str]] = field(default_factory=list)  # when, on which page
    tapped_version: int = -1
    moved_frames: list[tuple[float, str]] = field(default_factory=list)  # ws frames: notices
    asleep_since: float | None = None  # its page closed (a phone asleep): since when
    woke_at: float | None = None
    sleeps: int = 0

    @property
    def context(self) -> Any:
        return self.page.context
    errors: list[str] = field(default_factory=list)
    errors_tapping: int = 0


def shot(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        page.screenshot(path=str(OUT / f"{name}.png"), animations="disabled")
    except Exception as exc:  # a page navigating away: no picture, the run goes on
        print(f"(no screenshot {name}: {exc})")


def start_server(work: Path) -> Server:
    env = {
        "DEBUG": "true", "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TABLES_BOT_PAUSE": "0.05,0.15", "TABLES_AWAY_PAUSE": "0.1",
        "TABLES_NEXT_HAND_PAUSE": "1.2", "TABLES_CLOCK_IN_SERVER": "true",
        "TABLES_CLOCK_INTERVAL": "0.05", "STATIC_COLLECTED": "true",
        "STATIC_ROOT": str(work / "static"), "REDIS_URL": "", "PUBLIC_URL": "",
        "SERVER_LOG": str(work / "server.log"), "PYTHONUNBUFFERED": "1",
    }
    server = Server(env)
    server.manage("migrate", "--noinput", "-v0")
    server.manage("collectstatic", "--noinput", "-v0")
    server.start()
    return server


class Db:
    """The server's database, read the way the server wrote it."""

    def __init__(self, path: Path, code: str) -> None:
        self.path = path
        self.code = code

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.path, timeout=10) as db:
            return db.execute(sql, args).fetchall()

    def tournament(self) -> tuple[int, str]:
        row = self.rows("SELECT id, status FROM tables_tournament WHERE code = ?", self.code)[0]
        return int(row[0]), str(row[1])

    def entrants(self) -> list[dict[str, Any]]:
        rows = self.rows(
            "SELECT e.id, e.name, e.is_computer, e.place, e.position, t.code, t.tournament_number,"
            " e.bust_table, e.bust_hand FROM tables_entrant e"
            " JOIN tables_tournament r ON r.id = e.tournament_id"
            " LEFT JOIN tables_table t ON t.id = e.table_id WHERE r.code = ?", self.code,
        )
        keys = ("id", "name", "computer", "place", "position", "table", "number", "bust_table",
                "bust_hand")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def tables(self) -> list[dict[str, Any]]:
        """Every table of the tournament, read in one statement (one consistent moment)."""
        rows = self.rows(
            "SELECT t.code, t.tournament_number, t.status, t.state FROM tables_table t"
            " JOIN tables_tournament r ON r.id = t.tournament_id WHERE r.code = ?"
            " ORDER BY t.id", self.code,
        )
        out = []
        for code, number, status, state in rows:
            game = Game.from_dict(json.loads(state)) if state else None
            out.append({"code": code, "number": number, "status": status, "game": game})
        return out

    def hands(self) -> int:
        return int(self.rows(
            "SELECT COUNT(*) FROM tables_hand h JOIN tables_table t ON t.id = h.table_id"
            " JOIN tables_tournament r ON r.id = t.tournament_id WHERE r.code = ?", self.code,
        )[0][0])


def new_phone(browser: Any, name: str) -> Phone:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, has_touch=True, is_mobile=True, locale="en-GB",
        reduced_motion="reduce",  # ten pages on one machine: no endless animation to draw
    )
    context.set_default_timeout(20_000)
    phone = Phone(name, None)
    watch_page(phone, context.new_page())
    return phone


def watch_page(phone: Phone, page: Any) -> None:
    """The phone's page from now on, its errors and its "You moved" notices recorded."""
    phone.page = page
    page.on("pageerror", lambda exc: phone.errors.append(f"{page.url}: {exc}"))

    def on_socket(ws: Any) -> None:
        def frame(payload: Any) -> None:
            text = payload if isinstance(payload, str) else ""
            if 'data-code="tournament_moved"' in text:
                phone.moved_frames.append((time.monotonic(), text))
        ws.on("framereceived", frame)

    page.on("websocket", on_socket)


def fall_asleep(phone: Phone) -> str:
    """The phone's page goes away (its socket closes: a phone asleep, in a tunnel); the
    address it was showing."""
    path = phone.page.evaluate("() => location.pathname")
    phone.page.close()
    phone.asleep_since = time.monotonic()
    return str(path)


def wake_up(phone: Phone, server: Server, path: str) -> None:
    """The phone comes back to the page it showed: a new socket to that table."""
    watch_page(phone, phone.context.new_page())
    phone.page.goto(server.base + path)
    phone.asleep_since = None
    phone.woke_at = time.monotonic()


def tap(phone: Phone, look: dict[str, Any], rng: random.Random, shove_chance: float) -> bool:
    """One tap on this phone's own action bar (check or call, sometimes fold or all in)."""
    page = phone.page
    if not look["bar"] or look["sending"] or look["version"] <= phone.tapped_version:
        return False
    roll = rng.random()
    try:
        if roll < shove_chance and page.locator("[data-open-bet-sheet]").count():
            page.locator("[data-open-bet-sheet]").click(timeout=3000, force=True)
            page.locator("[data-bet-sheet] [data-preset=max]").click(timeout=3000, force=True)
            page.locator("[data-bet-confirm]").click(timeout=3000, force=True)
        elif (roll < shove_chance + 0.08
              and not page.locator("[data-action-bar] [data-act=check]").count()):
            # A fold facing a bet (folding when a check is free asks "are you sure?").
            fold = page.locator("[data-action-bar] [data-act=fold]").first
            fold.click(timeout=3000, force=True)
        else:
            page.locator(
                "[data-action-bar] [data-act=check], [data-action-bar] [data-act=call]"
            ).first.click(timeout=3000, force=True)
    except Exception as exc:
        # The view changed under the finger: the next look decides again.
        phone.errors_tapping += 1
        if phone.errors_tapping <= 3:
            print(f"  ({phone.name}: tap failed: {str(exc).splitlines()[0][:160]})", flush=True)
        return False
    phone.tapped_version = look["version"]
    phone.taps.append((time.monotonic(), look["path"]))
    return True


def notice_text(html: str) -> str:
    found = re.search(r'<div id="table-notice"[^>]*>(.*?)</div>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else html[:120]
