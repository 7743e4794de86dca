"""The core journeys in three engines: Chromium, WebKit (Safari's engine) and Firefox.

The same journey code runs in each (tests/browser/engines/drivers.py), tapping the real
buttons of a 390x844 page: two friends at a table (one creates it, the other joins by code
from a second browser; table talk; the bet sheet with its slider and a typed amount; a hand
played to the showdown; the hand's replayer; the deck proof checked in the page with Web
Crypto), then one phone alone (a table against the computer; pass and play with the hand-off
screen). Screenshots go to screenshots/<engine>/.
"""

from __future__ import annotations

import time
from typing import Any

from tests.browser.engines.drivers import TIMEOUT, EngineError, Phone
from tests.browser.helpers import LiveServer

TALK = "<b>nice</b> & <i>hi</i>"
MOVE = "[data-action-bar] [data-act=check], [data-action-bar] [data-act=call]"
# The number of the hand whose showdown is on screen (0 if none), read in one look: the next
# hand may be dealt between two looks on a loaded machine.
SHOWDOWN = """
var banner = document.querySelector('.result-banner');
if (!banner || document.querySelectorAll('#seats .card[data-card]').length < 2) return 0;
var e = document.querySelector('[data-hand]');
return e ? Number(e.dataset.hand) || 0 : 0;
"""
# A page's scripts ran: every page's core (app.js), and on the table page (argument true) its
# own scripts too (each page links only the scripts it uses).
SCRIPTS_RAN = """
var H = window.Holdem;
if (!arguments[0]) return !!(H && H.onLoad && H.storage) && document.readyState === "complete";
return !!(H && H.betSheet && H.preActions && H.live);
"""


def version(phone: Phone) -> int:
    return int(phone.look("var f = document.getElementById('table-frame');"
                          " return f ? Number(f.dataset.version) : -1;"))


def hand_number(phone: Phone) -> int:
    return int(phone.look("var e = document.querySelector('[data-hand]');"
                          " return e ? Number(e.dataset.hand) || 0 : 0;"))


def screen(phone: Phone) -> str:
    return str(phone.look("var f = document.getElementById('table-frame');"
                          " return f ? f.dataset.screen || '' : '';"))


def wait_new_version(phone: Phone, old: int) -> None:
    phone.wait_until("var f = document.getElementById('table-frame');"
                     " return f && Number(f.dataset.version) !== arguments[0];", old,
                     what=f"a version after {old}")


def table_page(phone: Phone) -> None:
    """The table page is up, its scripts ran and its socket is open."""
    phone.wait_for("[data-testid=table-frame]", "attached")
    phone.wait_until(SCRIPTS_RAN, True, what="the table's scripts to run")
    phone.wait_for("[data-connection=open]", "attached")


def take_turn(phone: Phone) -> bool:
    """Check or call if it is this phone's turn; whether an action was sent and answered."""
    if not phone.visible(MOVE):
        return False
    old = version(phone)
    try:
        phone.click(MOVE, timeout=3)
    except EngineError:
        return False  # the view changed under the finger; the next look decides again
    wait_new_version(phone, old)
    return True


def create_table(phone: Phone, server: LiveServer, mode: str, names: list[str],
                 seats: int | None = None) -> None:
    """Create a table from the home page's menu; with ``seats``, also the slowest turn clock
    (90 s), so that a slow engine on a loaded machine is not timed out mid-journey (P1)."""
    phone.goto(server.url + "/")
    phone.wait_until(SCRIPTS_RAN, False, what="the home page's scripts to run")
    phone.click(f"a[href$='mode={mode}']")
    phone.wait_for("[data-testid=create-form]")
    phone.fill("input[name=name]", names[0])
    for n, name in enumerate(names[1:], start=2):
        phone.fill(f"input[name=name_{n}]", name)
    if seats is not None:
        phone.click("details.more summary", text="Game settings")
        phone.click(f"label.choice:has(input[name=seats][value='{seats}'])")
        phone.click("label.choice:has(input[name=turn_seconds][value='90'])")
        assert phone.look(f"return document.querySelector(\"input[name=seats][value='{seats}']\")"
                          ".checked;")
    phone.click("[data-testid=create-submit]")


def bet_with_the_sheet(asha: Phone, bikash: Phone) -> int:
    """Open the bet sheet, move its slider by a tap and by the keyboard, type an amount and
    confirm it; the other phone sees that bet. The amount bet."""
    asha.click("[data-open-bet-sheet]")
    asha.wait_for("[data-bet-sheet]")
    asha.wait_until("return document.activeElement && document.activeElement.id === 'bet-amount';",
                    what="the amount field focused")
    lo = int(asha.attr("[data-bet-sheet]", "data-min") or 0)
    hi = int(asha.attr("[data-bet-sheet]", "data-max") or 0)
    bb = int(asha.attr("[data-bet-sheet]", "data-bb") or 0)
    kind = asha.attr("[data-bet-sheet] input[name=kind]", "value")
    assert 0 < lo < hi and bb > 0, (lo, hi, bb)

    def shown() -> tuple[int, int, str]:
        got = asha.look("var s = document.querySelector('[data-bet-sheet]');"
                        " return [Number(s.querySelector('[data-bet-amount]').value),"
                        " Number(s.querySelector('[data-bet-slider]').value),"
                        " s.querySelector('[data-bet-confirm-label]').textContent];")
        return int(got[0]), int(got[1]), str(got[2])

    # A tap in the middle of the slider's track moves the amount there, and the label follows.
    asha.click("[data-bet-slider]")
    amount, slider, label = shown()
    assert lo < amount < hi and amount == slider and label.endswith(str(amount)), shown()
    # Two steps to the right with the keyboard.
    asha.press("[data-bet-slider]", "ArrowRight", times=2)
    assert shown()[:2] == (amount + 2, amount + 2), (amount, shown())
    asha.screenshot("bet-sheet-slider")
    # A typed amount: the slider and the label follow it.
    typed = lo + bb
    asha.fill("[data-bet-amount]", str(typed))
    try:
        asha.wait_until("return document.querySelector('[data-bet-confirm-label]').textContent"
                        ".endsWith(' ' + arguments[0]);", str(typed), what="the label")
    except EngineError as exc:
        raise AssertionError(f"{asha.engine}: typed {typed}, the sheet shows {shown()}") from exc
    assert shown() == (typed, typed, shown()[2]), shown()
    asha.screenshot("bet-sheet-typed")
    old = version(asha)
    asha.click("[data-bet-confirm]")
    wait_new_version(asha, old)
    asha.wait_for("[data-bet-sheet]", "hidden")
    said = f"Asha bets {typed}" if kind == "bet" else f"Asha raises to {typed}"
    bikash.wait_for("#last-line, [data-testid=log-line]", "attached", text=said)
    return typed


def test_two_friends_talk_bet_and_play_to_the_showdown_then_replay_and_check_the_deck(
    app_server: LiveServer, phones: Any, engine: str
) -> None:
    asha, bikash = phones(), phones()
    create_table(asha, app_server, "friends", ["Asha"], seats=2)
    asha.wait_for("[data-testid=start-game]")
    code = asha.text("#table-code").strip()
    asha.screenshot("lobby")

    # Bikash, in a browser of his own, types the code as people do: small letters, spaces.
    bikash.goto(app_server.url + "/")
    bikash.fill("#join-code", " " + code.lower() + " ")
    assert bikash.value("#join-code") == code.replace(" ", ""), bikash.value("#join-code")
    bikash.fill("#join-name", "Bikash")
    bikash.click("form[action$='/join/'] button[type=submit], .join-form button[type=submit]")
    bikash.wait_for("[data-testid=waiting-for-host]")
    asha.wait_for("#lobby-seats", text="Bikash")
    asha.click("[data-testid=start-game]")
    for phone in (asha, bikash):
        phone.wait_for("[data-screen=play]", "attached")
        table_page(phone)
        phone.wait_for("#chat-log[data-initial]", "attached")

    # Table talk: markup typed by Asha reaches Bikash as text, in a bubble at her seat.
    asha.click("[data-testid=chat-toggle]")
    asha.wait_for("[data-chat-panel]")
    asha.fill("[data-testid=chat-text]", TALK)
    asha.click("[data-testid=chat-send]")
    bubble = ".seat[data-seat='0'] [data-testid=chat-bubble]"
    bikash.wait_for(bubble, text=TALK)
    assert bikash.text(bubble) == TALK
    assert bikash.count("#chat-log b, #chat-log i, .chat-bubble b") == 0
    bikash.wait_for("[data-testid=chat-unread]", text="1")
    bikash.screenshot("talk-bubble")
    bikash.click("[data-testid=chat-toggle]")
    bikash.click("[data-testid=react-nice_hand]")
    asha.wait_for(".seat[data-seat='1'] [data-testid=chat-bubble]", text="Nice hand")
    bikash.wait_for("[data-testid=chat-line]", text=TALK)
    bikash.screenshot("talk-drawer")
    for phone in (asha, bikash):
        phone.click("[data-chat-close]")
        phone.wait_for("[data-chat-panel]", "hidden")

    # The hand: Asha bets with the sheet when she first can; both check or call to the river.
    bet = 0
    showdown = 0
    deadline = time.monotonic() + 4 * TIMEOUT  # a bound on a loaded machine, not a pace
    while not showdown:
        assert time.monotonic() < deadline, f"{engine}: no showdown"
        for phone in (asha, bikash):
            # Asha's phone decides: a hand counts once she saw Bikash's cards face up (a losing
            # hand may be mucked, and then only Bikash saw hers).
            showdown = int(phone.look(SHOWDOWN)) if phone is asha else 0
            if showdown:
                phone.screenshot("showdown")
                break
            if phone is asha and not bet and asha.visible("[data-open-bet-sheet]"):
                asha.screenshot("your-turn")
                bet = bet_with_the_sheet(asha, bikash)
                continue
            take_turn(phone)
    assert bet, f"{engine}: Asha never had the bet sheet"

    # The replayer, as Asha saw the hand, step by step to the end.
    asha.goto(f"{app_server.url}/t/{code}/hands/")
    asha.wait_for("[data-testid=hand-list]")
    asha.screenshot("history")
    asha.click(f"[data-testid=hand-link][href$='/hands/{showdown}/']")
    asha.wait_for("[data-testid=replayer]")
    steps = 0
    while not asha.look("return document.querySelector('[data-replay=next]').disabled;"):
        before = asha.text("[data-replay-step]")
        asha.click("[data-testid=replay-next]")
        asha.wait_until("return document.querySelector('[data-replay-step]').textContent"
                        " !== arguments[0];", before, what="the next step")
        steps += 1
        assert steps < 80, "the replayer does not end"
    assert steps >= 8, steps
    assert asha.count("[data-replay-board] .card") == 5
    # Bikash's two cards, shown at the showdown (the last step may still be drawing).
    asha.wait_until("return document.querySelectorAll("
                    "'[data-replay-seats] .card:not(.card--back)').length === 2;",
                    what="the opponent's shown cards in the replayer")
    asha.screenshot("replay-end")

    # The deck proof of that hand, checked by the page itself (Web Crypto's SHA-256).
    asha.wait_for("[data-deck-proof][data-state]", "attached")
    assert asha.attr("[data-deck-proof]", "data-state") == "verified", asha.text(
        "[data-deck-proof]")
    assert "deck verified ✓" in asha.text("[data-testid=deck-proof-result]")
    asha.look("document.querySelector('[data-deck-proof]').scrollIntoView();")
    asha.screenshot("deck-verified")


def test_one_phone_plays_the_computer_then_passes_and_plays(
    app_server: LiveServer, phones: Any, engine: str
) -> None:
    phone = phones()

    # Against the computer: the table starts at once and shows the hand's deck code.
    create_table(phone, app_server, "computer", ["Asha"])
    table_page(phone)
    phone.click(".log-drawer > summary")  # the deck's code is in the drawer of the bar
    phone.wait_for("[data-testid=deck-root]")
    words = phone.text("[data-testid=deck-root]").split()
    assert len(words) == 4 and len(words[-1]) == 4, words  # "Deck 3f9a 1c27 b0e4"
    phone.screenshot("computer-table")
    phone.click(".log-drawer > summary")
    deadline = time.monotonic() + 4 * TIMEOUT
    while hand_number(phone) < 2 and screen(phone) != "over":
        assert time.monotonic() < deadline, f"{engine}: the first hand did not end"
        if not take_turn(phone):
            # (A bot may also win every chip in the first hand: then the game is over.)
            phone.wait_until("return !!document.querySelector(arguments[0]) ||"
                             " Number((document.querySelector('[data-hand]') || {dataset: {}})"
                             ".dataset.hand) >= 2 || (document.getElementById('table-frame')"
                             " || {dataset: {}}).dataset.screen === 'over';", MOVE,
                             what="a turn, the next hand or the game's end")

    # Pass and play: the hand-off screen hides every card while the phone changes hands.
    create_table(phone, app_server, "local", ["Asha", "Bikash"], seats=2)
    phone.click("[data-testid=start-game]")
    phone.wait_for("[data-testid=handoff], [data-testid=action-bar]")
    table_page(phone)
    handoffs = turns = 0
    viewers: set[str] = set()
    deadline = time.monotonic() + 4 * TIMEOUT
    while hand_number(phone) < 2 or handoffs < 2:
        assert time.monotonic() < deadline, (f"{engine}: pass and play stalled", handoffs, turns)
        if phone.visible("[data-testid=handoff]"):
            assert phone.count("#my-cards .card[data-card]") == 0
            if not handoffs:
                phone.screenshot("handoff")
            handoffs += 1
            phone.click("[data-testid=handoff-confirm]")
            phone.wait_for("[data-testid=action-bar], [data-testid=waiting-bar]")
            continue
        if phone.visible("[data-testid=action-bar]"):
            viewers.add(str(phone.attr("#table-frame", "data-seat")))
            assert phone.count("#my-cards .card[data-card]") == 2
            if turns == 1:
                phone.screenshot("pass-and-play-turn")
            if take_turn(phone):
                turns += 1
            continue
        phone.wait_until("return !!document.querySelector('[data-testid=handoff],"
                         " [data-testid=action-bar]') || Number((document.querySelector"
                         "('[data-hand]') || {dataset: {}}).dataset.hand) >= 2;",
                         what="the hand-off, a turn or the next hand")
    assert len(viewers) == 2 and turns >= 2, (viewers, turns)
