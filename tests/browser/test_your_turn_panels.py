"""Your turn is sacred: while it is your turn, no sheet, drawer or panel covers your cards, your
clock or the action bar, at any screen size (static/js/turn-alert.js, static/css/table.css).

A real table against the computer is played to a turn of yours where a computer player's
action can be asked about; the page is frozen (tests/browser/layout.py) and each panel is
opened in turn: table talk, the host's sheet, the hint, why a computer played, what happened
this hand. At every layout size each of the bar's buttons, each of your cards and your clock
must be the element a tap at its centre lands on (``elementFromPoint``), and the panel must
still be open. Then a turn arriving while table talk is open: the bar is tappable at once.
Screenshots: screenshots/<size>/turn-<panel>.png.
"""

from __future__ import annotations

import time
from typing import Any

from tests.browser.helpers import JS_ERRORS, LiveServer, take_turn, wait_connection
from tests.browser.helpers import SCREENSHOTS as SCREENSHOTS_DIR
from tests.browser.layout import SIZES, computer_table, freeze, laid_out, settle, still_phone, thaw

# Each of your turn's targets that a tap must reach, and whether it is there; [] = all reached.
REACHED_JS = r"""
(panel) => {
  const problems = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const shown = el => {
    if (!el) return false;
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0;
  };
  const open = document.querySelector(panel);
  if (!shown(open)) problems.push('the panel is not open: ' + panel);
  const targets = [
    ...[...document.querySelectorAll('#action-bar .btn')].map(el =>
      ['button ' + (el.dataset.act || el.dataset.testid || el.textContent.trim()), el]),
    ...[...document.querySelectorAll('#my-cards .card')].map((el, i) => ['card ' + (i + 1), el]),
    ['your clock', document.querySelector('#me .me__clock')],
    ['your chips', document.querySelector('#me .me__stack')],
  ];
  if (!document.querySelector('#action-bar')) problems.push('no action bar');
  if (!document.querySelectorAll('#my-cards .card').length) problems.push('no cards');
  for (const [name, el] of targets) {
    if (!shown(el)) { if (name !== 'your clock') problems.push(name + ' not shown'); continue; }
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > vw || y > vh) { problems.push(name + ' off screen'); continue; }
    const hit = document.elementFromPoint(x, y);
    const what = hit ? (hit.id || hit.className || hit.tagName) : 'nothing';
    if (!hit || !(hit === el || el.contains(hit))) problems.push(`${name} covered by ${what}`);
  }
  return problems;
}
"""

# name, how it opens, what is open
PANELS = [
    ("hint", "[data-testid=hint]", "[data-testid=hint-lines]"),
    ("why", "#seats [data-why]", "[data-testid=why-sheet]"),
    ("talk", "[data-chat-toggle]", "[data-chat-panel]"),
    ("host", "[data-host-toggle]", "[data-host-panel]"),
    ("log", ".log-drawer > summary", ".log-drawer[open] .log-panel"),
]
CLOSE = {
    "hint": "[data-hint-close]", "why": "[data-why-close]", "talk": "[data-chat-close]",
    "host": "[data-host-close]", "log": ".log-drawer > summary",
}


def _turn_with_a_reason(page: Any, timeout: float = 150) -> None:
    """Play on (check or call) until it is this phone's turn and a computer player's action
    can be asked about."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(
            "() => !!document.querySelector('[data-action-bar]') && "
            "!!document.querySelector('#seats [data-why]')"
        ):
            return
        if not take_turn(page):
            page.wait_for_timeout(50)  # (a poll of the page, not a synchronisation)
    raise AssertionError("no turn of yours with a computer player's reason to ask about")


def _check_every_size(page: Any, name: str, panel: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        laid_out(page, width, height)
        settle(page)
        folder = SCREENSHOTS_DIR / f"{width}x{height}"
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"turn-{name}.png"))
        problems = page.evaluate(REACHED_JS, panel)
        if problems:
            found[f"{name} {width}x{height}"] = problems
    page.set_viewport_size({"width": 390, "height": 844})
    laid_out(page, 390, 844)
    return found


def test_no_panel_covers_your_cards_your_clock_or_the_bar_at_any_size(
    app_server: LiveServer, browser: Any
) -> None:
    page = still_phone(browser)
    computer_table(page, app_server, seats=6, level="easy", turn=90)
    page.locator("#host-menu[data-host='1']").wait_for(state="attached")
    _turn_with_a_reason(page)
    freeze(page)
    found: dict[str, list[str]] = {}
    for name, opener, panel in PANELS:
        page.locator(opener).first.click()
        page.locator(panel).first.wait_for()
        found.update(_check_every_size(page, name, panel))
        page.locator(CLOSE[name]).first.click()
        page.locator(panel).first.wait_for(state="hidden")
    thaw(page)
    assert not found, found
    assert not JS_ERRORS, JS_ERRORS


def test_a_turn_arriving_while_table_talk_is_open_is_shown_at_once(
    app_server: LiveServer, browser: Any
) -> None:
    page = still_phone(browser)
    page.set_viewport_size({"width": 320, "height": 568})
    computer_table(page, app_server, seats=6, level="easy")
    page.get_by_test_id("action-bar").wait_for()
    # The bar's buttons work once the page's socket is open (a loaded machine takes a while).
    wait_connection(page, "open")
    assert take_turn(page), "the turn was taken"
    page.get_by_test_id("action-bar").wait_for(state="detached")
    page.locator("[data-chat-toggle]").click()
    page.locator("[data-chat-panel]").wait_for()
    # The next turn of yours: the sheet gives way as the bar arrives, before any tap.
    page.get_by_test_id("action-bar").wait_for(timeout=60_000)
    page.wait_for_function(
        f"() => ({REACHED_JS})('[data-chat-panel]').length === 0", timeout=1000
    )
    assert page.locator("[data-chat-panel]").is_visible()  # still open, above your place
    folder = SCREENSHOTS_DIR / "320x568"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "turn-arrives-talk-open.png"))
    assert not JS_ERRORS, JS_ERRORS
