"""A host and two phones join a 7-entrant tournament with computers, the host starts it, each
phone lands at its own table by itself, and the lobby shows the tables (issue 30)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.browser.helpers import JS_ERRORS, LiveServer, frame, screenshot
from tests.browser.layout import SMALL, both_sizes

pytestmark = pytest.mark.slow


def _seated(server: LiveServer, code: str) -> dict[str, str]:
    """Entrant name -> the code of the table they sit at (from the server's database)."""
    with sqlite3.connect(server.db_path, timeout=10) as db:
        rows = db.execute(
            "SELECT e.name, t.code FROM tables_entrant e JOIN tables_table t ON t.id = e.table_id"
            " JOIN tables_tournament r ON r.id = e.tournament_id WHERE r.code = ?",
            (code,),
        ).fetchall()
    return {name: table for name, table in rows}


def test_a_host_and_two_phones_start_a_tournament_and_land_at_their_tables(
    app_server: LiveServer, new_phone: Any
) -> None:
    asha = new_phone()
    asha.goto(app_server.url + "/")
    asha.get_by_test_id("play-tournament").click()
    asha.get_by_test_id("tournament-form").wait_for()
    asha.fill("input[name=name]", "Asha")
    asha.fill("input[name=entrants]", "7")
    both_sizes(asha, "create")
    asha.get_by_test_id("tournament-submit").click()
    asha.get_by_test_id("start-tournament").wait_for()
    code = asha.locator("#tournament-code").inner_text().replace(" ", "")
    link = asha.locator("#join-link").get_attribute("href")
    assert link and link.endswith(f"/tournament/{code}/")
    assert asha.get_by_test_id("join-qr").locator("svg").count() == 1

    phones = {"Asha": asha}
    for name in ("Bikash", "Chandra"):
        phone = new_phone()
        phone.goto(link)
        phone.fill("#join-name", name)
        phone.get_by_test_id("join-submit").click()
        phone.get_by_test_id("waiting-for-host").wait_for()
        phones[name] = phone
    # A refusal is shown: the name is taken.
    late = new_phone()
    late.goto(link)
    late.fill("#join-name", "bikash")
    late.get_by_test_id("join-submit").click()
    late.locator(".message--error", has_text="already called bikash").wait_for()

    # The host sees both arrive without reloading (the page polls).
    asha.locator("[data-testid=entrant]").nth(2).wait_for()
    assert asha.get_by_test_id("entrants").inner_text().count("Chandra") == 1
    both_sizes(asha, "waiting")
    both_sizes(phones["Bikash"], "waiting-guest")

    asha.get_by_test_id("start-tournament").click()
    seated = _seated(app_server, code)
    assert len(seated) == 7 and len(set(seated.values())) == 2  # 7 players at 2 tables
    for name, phone in phones.items():
        phone.wait_for_url(f"**/t/{seated[name]}/")
        phone.get_by_test_id("table-frame").wait_for()
        assert frame(phone)["seat"] is not None, f"{name} does not hold their seat"
    phones["Chandra"].set_viewport_size(SMALL)
    screenshot(phones["Chandra"], "tournament-table-320x568")

    lobby = new_phone()
    lobby.goto(link)
    lobby.get_by_test_id("tournament-facts").wait_for()
    assert lobby.locator("[data-testid=tournament-table]").count() == 2
    text = lobby.get_by_test_id("tables").inner_text()
    for name in seated:
        assert name in text
    assert lobby.get_by_test_id("players-left").inner_text() == "7 / 7"
    for code_of_table in set(seated.values()):
        assert lobby.locator(f"a[href='/t/{code_of_table}/']").count() == 1
    both_sizes(lobby, "lobby")
    # The host's own view of the lobby has the pause.
    asha.goto(link)
    asha.get_by_test_id("pause").wait_for()
    both_sizes(asha, "lobby-host")
    assert not JS_ERRORS, JS_ERRORS
