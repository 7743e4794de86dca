"""A tournament of ten phones and fourteen computers, played through in the browser.

Not part of the test suite (its time budget is full): run it by hand,

    nice -n 10 .venv/bin/python scripts/tournament_ten_phones.py [--seed 7] [--minutes 30]

It starts Daphne on a free loopback port with its own SQLite database and short pauses (as the
browser tests' own servers do), opens ten headless Chromium phones at 390x844, and:

- the first phone creates a 24-entrant tournament (computers fill up, blinds up every 5 hands,
  15 seconds a turn); nine phones join by its code on the home page; the host starts;
- every phone plays by tapping its own action bar (check or call mostly, sometimes fold or all
  in, more often all in as time goes by, so that the game ends);

and checks, printing what it saw: each phone lands at its own table; every move of a person
between tables is followed by their phone without a tap, with the notice "You moved to table
N, seat M"; a table breaks; the final table forms; at the end every one of the 24 entrants has
one place (places shared only by T5's rule); the chips at the tables are always 24,000.
The phones and the server are scripts/tournament_phones.py. Screenshots (lobby, a move notice,
the final table, the places) go to ``benchmarks/out/tournament_ten/`` (git-ignored). Exit status 0
when every check held.
"""

from __future__ import annotations

import argparse
import faulthandler
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The phones and the server, beside this script (its folder is first on the path).
from tournament_phones import (  # noqa: E402
    CHROMIUM_ARGS,
    LOOK,
    OUT,
    Db,
    Phone,
    fall_asleep,
    new_phone,
    notice_text,
    shot,
    start_server,
    tap,
    wake_up,
)

from tests.helpers.servers import Server  # noqa: E402

NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Elina", "Gopal", "Hari", "Indra", "Jyoti", "Kiran"]
ENTRANTS = 24
FOLLOW_SECONDS = 20  # a moved phone shows its new table within this (once awake)
SLEEP_SECONDS = 30


@dataclass
class Move:
    name: str
    to_code: str
    to_table: int
    to_seat: int
    at: float
    notice: str | None = None
    followed_after: float | None = None
    tapped_between: bool = False
    asleep: bool = False  # the phone was asleep (no socket) when the move was saved


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    computer_moves: int = 0
    breaks: list[int] = field(default_factory=list)
    final_table_at: float | None = None
    chip_checks: int = 0
    sleeps: int = 0
    taps: int = 0

    def problem(self, text: str) -> None:
        print("PROBLEM:", text, flush=True)
        self.problems.append(text)


def create_and_join(server: Server, phones: list[Phone]) -> tuple[str, Any]:
    host = phones[0].page
    host.goto(server.base + "/new/?mode=tournament")
    host.fill("input[name=name]", phones[0].name)
    host.fill("input[name=entrants]", str(ENTRANTS))
    host.locator("details.more summary").click()
    host.check("input[name=level_length][value=h5]")
    host.check("input[name=turn_seconds][value='15']")
    host.get_by_test_id("tournament-submit").click()
    host.get_by_test_id("start-tournament").wait_for()
    code = host.locator("#tournament-code").inner_text().replace(" ", "")
    for phone in phones[1:]:
        page = phone.page
        page.goto(server.base + "/")
        # The home page's "join with a code" takes a tournament's code.
        page.fill("input[name=code]", code)
        name = page.locator("input[name=name]")
        if name.count():
            name.first.fill(phone.name)
        page.locator("input[name=code]").press("Enter")
        page.wait_for_url(f"**/tournament/{code}/")
        if page.locator("#join-name").count():
            page.fill("#join-name", phone.name)
            page.get_by_test_id("join-submit").click()
        page.get_by_test_id("waiting-for-host").wait_for()
    host.locator("[data-testid=entrant]").nth(len(phones) - 1).wait_for()
    shot(host, "1-waiting-host")
    host.get_by_test_id("start-tournament").click()
    return code, host


def check_places(entrants: list[dict[str, Any]], report: Report) -> None:
    """Every entrant placed once; shared places only as T5 gives them (competition ranks)."""
    places = sorted(e["place"] for e in entrants if e["place"] is not None)
    if len(entrants) != ENTRANTS:
        report.problem(f"{len(entrants)} entrants, not {ENTRANTS}")
    if len(places) != len(entrants):
        report.problem(f"{len(entrants) - len(places)} entrants have no place")
    if len({e["id"] for e in entrants}) != len(entrants):
        report.problem("an entrant counted twice")
    expected = 1
    index = 0
    while index < len(places):
        place = places[index]
        same = places.count(place)
        if place != expected:
            report.problem(f"place {place} where {expected} was due: {places}")
            break
        expected += same
        index += same
    if places.count(1) != 1:
        report.problem(f"not one winner: {places[:3]}")


def play(server: Server, db: Db, phones: list[Phone], lobby: Any, minutes: float,
         rng: random.Random, report: Report) -> dict[str, Any]:
    started = time.monotonic()
    by_name = {p.name: p for p in phones}
    entrants = db.entrants()
    where = {e["name"]: e["table"] for e in entrants if not e["computer"]}
    # Each phone lands at its own table by itself.
    for phone in phones:
        code = where[phone.name]
        try:
            phone.page.wait_for_url(f"**/t/{code}/", timeout=30_000)
            phone.page.get_by_test_id("table-frame").wait_for()
            look = phone.page.evaluate(LOOK)
            if look["seat"] is None or look["code"] != code:
                report.problem(f"{phone.name} at {code} does not hold a seat: {look}")
        except Exception as exc:
            report.problem(f"{phone.name} did not land at table {code}: {exc}")
    numbers = sorted({e["number"] for e in entrants})
    print(f"seated: {ENTRANTS} entrants at tables {numbers}; phones at their own tables",
          flush=True)
    lobby.goto(server.base + f"/tournament/{db.code}/")
    lobby.get_by_test_id("tournament-facts").wait_for()
    shot(lobby, "2-lobby")
    shot(phones[0].page, "3-host-at-table")
    pending: dict[str, Move] = {}
    seen_tables = {t["number"] for t in db.tables()}
    open_tables = set(seen_tables)
    notice_shot = final_shot = False
    last_print = 0.0
    status = "playing"
    rounds = 0
    sleeping_at: dict[str, str] = {}
    while time.monotonic() - started < minutes * 60:
        elapsed = time.monotonic() - started
        shove = min(0.5, 0.03 + elapsed / 1800)  # more all in as time goes by
        looks = {}
        for phone in phones:
            if phone.asleep_since is not None:
                continue
            try:
                looks[phone.name] = look = phone.page.evaluate(LOOK)
            except Exception:
                continue  # navigating: looked at again next round
            if look["notice"] and look["notice"]["code"] == "tournament_moved" and not notice_shot:
                shot(phone.page, "4-move-notice")
                notice_shot = True
            if tap(phone, look, rng, shove):
                report.taps += 1
        # The database: moves, breaks, the final table, chips.
        _tid, status = db.tournament()
        tables = db.tables()
        chips = sum(t["game"].total_chips() for t in tables if t["game"] is not None)
        report.chip_checks += 1
        if chips != 1000 * ENTRANTS:
            report.problem(f"{chips} chips at the tables at {elapsed:.0f} s")
        entrants = db.entrants()
        now_open = {
            t["number"] for t in tables
            if t["game"] is not None and t["game"].seats and not t["game"].finished
        }
        for number in sorted(open_tables - now_open):
            if status != "finished":
                report.breaks.append(number)
                print(f"{elapsed:6.0f} s  table {number} broke", flush=True)
        open_tables = now_open
        alive = [e for e in entrants if e["place"] is None]
        # Now and then a person at the shortest table (the next to break, T3) puts their
        # phone away for 30 s: a move saved meanwhile reaches it when it comes back.
        asleep = [p for p in phones if p.asleep_since is not None]
        for phone in asleep:
            if time.monotonic() - (phone.asleep_since or 0) > SLEEP_SECONDS:
                wake_up(phone, server, sleeping_at.pop(phone.name))
        if not asleep and len(now_open) > 1 and report.sleeps < 4 and elapsed > 10:
            sizes = {n: sum(1 for e in alive if e["number"] == n) for n in now_open}
            shortest = min(sizes, key=lambda n: (sizes[n], -n))
            sleepy = [by_name[e["name"]] for e in alive
                      if not e["computer"] and e["number"] == shortest]
            if sleepy:
                phone = rng.choice(sleepy)
                sleeping_at[phone.name] = fall_asleep(phone)
                report.sleeps += 1
                print(f"{elapsed:6.0f} s  {phone.name}'s phone goes to sleep for 30 s at table "
                      f"{shortest}", flush=True)
        if (status != "finished" and len(alive) <= 6 and len(now_open) == 1
                and report.final_table_at is None):
            report.final_table_at = elapsed
            print(f"{elapsed:6.0f} s  final table: {', '.join(e['name'] for e in alive)}",
                  flush=True)
        for entrant in entrants:
            if entrant["place"] is not None or entrant["computer"]:
                continue
            name = entrant["name"]
            if where.get(name) != entrant["table"] and entrant["table"] is not None:
                move = Move(name, entrant["table"], entrant["number"], entrant["position"] + 1,
                            time.monotonic())
                move.asleep = by_name[name].asleep_since is not None
                pending[name] = move
                report.moves.append(move)
                print(f"{elapsed:6.0f} s  {name} moved to table {move.to_table}, seat "
                      f"{move.to_seat}", flush=True)
            where[name] = entrant["table"]
        for name, move in list(pending.items()):
            phone = by_name[name]
            look = looks.get(name)
            if move.notice is None:
                texts = [t for at, t in phone.moved_frames if at >= move.at - 5]
                if texts:
                    move.notice = notice_text(texts[-1])
            if look and look["path"] == f"/t/{move.to_code}/" and look["seat"] is not None:
                move.followed_after = time.monotonic() - move.at
                # No tap of this phone between the move being saved and its new table.
                move.tapped_between = any(
                    t >= move.at and path != look["path"] for t, path in phone.taps
                )
                del pending[name]
            elif time.monotonic() - max(move.at, phone.woke_at or 0) > FOLLOW_SECONDS and (
                phone.asleep_since is None
            ):
                report.problem(f"{name}'s phone did not follow to table {move.to_table} in "
                               f"{FOLLOW_SECONDS} s (it shows {look})")
                del pending[name]
        if report.final_table_at is not None and not final_shot:
            at_final = [p for p in phones if looks.get(p.name, {}).get("seat") is not None
                        and looks[p.name]["code"] in {e["table"] for e in alive}]
            page = at_final[0].page if at_final else None
            if page is None:
                lobby.goto(server.base + f"/t/{alive[0]['table']}/")
                lobby.get_by_test_id("table-frame").wait_for()
                page = lobby
            shot(page, "5-final-table")
            final_shot = True
        if status == "finished":
            break
        rounds += 1
        if elapsed - last_print > 30:
            last_print = elapsed
            print(f"{elapsed:6.0f} s  {len(alive)} left at tables {sorted(now_open)}, "
                  f"{db.hands()} hands, {report.taps} taps, {rounds} rounds", flush=True)
        time.sleep(0.05)
    return {"status": status, "seconds": time.monotonic() - started}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=30)
    args = parser.parse_args()
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid>: where the script is
    # kill <pid>: the server and the browser are stopped too (the finally blocks run).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    rng = random.Random(args.seed)
    report = Report()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tournament-ten-") as tmp:
        work = Path(tmp)
        server = start_server(work)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=CHROMIUM_ARGS)
                phones = [new_phone(browser, name) for name in NAMES]
                lobby = new_phone(browser, "lobby").page
                code, _host = create_and_join(server, phones)
                db = Db(work / "db.sqlite3", code)
                result = play(server, db, phones, lobby, args.minutes, rng, report)
                entrants = db.entrants()
                if result["status"] != "finished":
                    report.problem(f"the tournament did not finish in {args.minutes} minutes")
                else:
                    check_places(entrants, report)
                lobby.goto(server.base + f"/tournament/{code}/")
                lobby.get_by_test_id("tournament-live").wait_for()
                if result["status"] == "finished":
                    lobby.get_by_test_id("places").wait_for()
                    shown = lobby.locator("[data-testid=place]").count()
                    if shown != ENTRANTS:
                        report.problem(f"the page shows {shown} places, not {ENTRANTS}")
                shot(lobby, "6-places")
                if lobby.get_by_test_id("places").count():
                    lobby.get_by_test_id("places").scroll_into_view_if_needed()
                    shot(lobby, "6-places-list")
                    lobby.screenshot(path=str(OUT / "6-places-full.png"), full_page=True)
                for phone in phones:
                    shot(phone.page, f"7-end-{phone.name}")
                errors = [e for phone in phones for e in phone.errors]
                if errors:
                    report.problem(f"JavaScript errors: {errors[:5]}")
                summary(report, result, db, entrants)
                browser.close()
        finally:
            server.stop()
            log = (work / "server.log").read_text(errors="replace")
            if "Traceback" in log:
                (OUT / "server.log").write_text(log)
                report.problem("the server logged a traceback (benchmarks/out/tournament_ten/"
                               "server.log)")
    print("OK: every check held" if not report.problems else
          f"{len(report.problems)} PROBLEMS")
    return 0 if not report.problems else 1


def summary(report: Report, result: dict[str, Any], db: Db, entrants: list[dict[str, Any]]
            ) -> None:
    followed = [m for m in report.moves if m.followed_after is not None]
    for move in report.moves:
        if move.notice is None:
            report.problem(f"{move.name} moved to table {move.to_table} with no notice")
        elif f"table {move.to_table}, seat {move.to_seat}" not in move.notice:
            report.problem(f"{move.name}'s notice says {move.notice!r}")
        if move.tapped_between:
            report.problem(f"{move.name} tapped between the move and the new table")
    if not report.moves:
        report.problem("no person moved between tables")
    if not report.breaks:
        report.problem("no table broke")
    if report.final_table_at is None:
        report.problem("no final table formed")
    slowest = max((m.followed_after or 0 for m in followed), default=0)
    print("\n---- summary ----")
    print(f"duration            {result['seconds']:.0f} s ({result['status']})")
    print(f"hands dealt         {db.hands()} (all tables)")
    print(f"taps                {report.taps} by ten phones")
    print(f"moves of people     {len(report.moves)} ({len(followed)} followed by the phone, "
          f"slowest {slowest:.1f} s after the move was saved)")
    for move in report.moves:
        after = f"{move.followed_after:.1f} s" if move.followed_after is not None else "never"
        asleep = " (its phone asleep when it was saved)" if move.asleep else ""
        print(f"  {move.name:8} -> table {move.to_table}, seat {move.to_seat}{asleep}: notice "
              f"{move.notice!r}, at the new table after {after}")
    slept = sum(1 for m in report.moves if m.asleep)
    print(f"phones asleep       {report.sleeps} times 30 s; {slept} moves saved meanwhile")
    print(f"tables broken       {len(report.breaks)} ({report.breaks})")
    final = f"{report.final_table_at:.0f} s" if report.final_table_at is not None else "never"
    print(f"final table at      {final}")
    print(f"chip checks         {report.chip_checks} (24,000 every time: "
          f"{not any('chips' in p for p in report.problems)})")
    places = sorted((e["place"] or 99, e["name"]) for e in entrants)
    print("places              " + ", ".join(f"{p}. {n}" for p, n in places))
    print(f"screenshots         {OUT}")


if __name__ == "__main__":
    raise SystemExit(main())
