"""The table's layout judged from the elements' boxes, at every screen size the game supports.

A page is driven into a state by real play, then frozen (``freeze``: the websocket's messages
are held back, so the server's drawing stays put while the page is measured at each size), and
``check_all_sizes`` resizes the one page through the sizes, asserts from the boxes that the
parts of the table do not overlap, that nothing leaves the screen, that nothing needs scrolling,
that no name of up to 12 characters is cut, and writes ``screenshots/<size>/<state>.png``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.browser.helpers import SCREENSHOTS, LiveServer, screenshot, watch_errors

LONG_NAME = "Krishnamurti"  # 12 characters: never cut
assert len(LONG_NAME) == 12

SIZES = [(320, 568), (360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800)]

# While the page is frozen, the websocket's messages are held back (before any handler of the
# page sees them) and handed over in order when it thaws, as if they had just arrived.
FREEZE_SCRIPT = """
(() => {
  const Original = window.WebSocket, held = [], replayed = new WeakSet();
  window.__frozen = false;
  window.__thaw = () => {
    window.__frozen = false;
    while (held.length) {
      const [socket, data] = held.shift();
      const event = new MessageEvent('message', {data});
      replayed.add(event);
      socket.dispatchEvent(event);
    }
  };
  window.WebSocket = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', e => {
        if (window.__frozen && !replayed.has(e)) {
          e.stopImmediatePropagation();
          held.push([this, e.data]);
        }
      });
    }
  };
})();
"""

# Every tappable element (a link, a button, a field, a summary, a role=button) is at least 44x44
# CSS px, its label included for a radio or a checkbox. The exceptions, each with its reason:
# - a link inside a sentence (WCAG 2.5.8's "inline" exception): the sentence sets its height
#   (words around it; links between dots are a row, not a sentence);
# - COMPACT below: rows of links that must stay compact take WCAG 2.2 2.5.8's minimum instead,
#   24x24 or a 24 px circle round the target that touches no other target;
# - a target the page hides off screen until it has the focus (the skip link);
# - a disabled control (nothing happens on a tap).
COMPACT = [
    # The tournament's line above the table: one link in a strip the table's height leaves.
    ".tourney-line a",
]
TARGETS_JS = r"""
const COMPACT = COMPACT_LIST;
function targetProblems() {
  const found = [];
  const seen = new Set();
  const shown = el => {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || el.closest('[hidden], [inert]'))
      return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const label = el => (el.getAttribute('aria-label') || el.textContent || el.value ||
                       el.name || el.type || '').trim().replace(/\s+/g, ' ').slice(0, 28);
  const name = el => el.tagName.toLowerCase() +
    (el.dataset.testid ? '[' + el.dataset.testid + ']' : el.className && typeof el.className
     === 'string' ? '.' + el.className.trim().split(/\s+/)[0] : '') + ' "' + label(el) + '"';
  const all = [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')];
  const boxes = new Map();
  for (const el of all) {
    if (!shown(el) && !(el.labels && el.labels[0] && shown(el.labels[0]))) continue;
    if (el.disabled) continue;
    let r = el.getBoundingClientRect();
    if ((el.type === 'radio' || el.type === 'checkbox') && el.labels && el.labels[0]) {
      const l = el.labels[0].getBoundingClientRect();
      r = {left: Math.min(r.left, l.left), top: Math.min(r.top, l.top),
           right: Math.max(r.right, l.right), bottom: Math.max(r.bottom, l.bottom)};
      r.width = r.right - r.left; r.height = r.bottom - r.top;
    }
    if (r.right < 0 || r.bottom < 0 || r.left > innerWidth + 2000) continue;  // off screen
    boxes.set(el, r);
  }
  for (const [el, r] of boxes) {
    if (r.width >= 43.5 && r.height >= 43.5) continue;
    const style = getComputedStyle(el);
    // Inline in a sentence: words around it (a row of links between dots is no sentence).
    if (el.tagName === 'A' && style.display === 'inline' && el.parentElement &&
        /\p{L}/u.test([...el.parentElement.childNodes].filter(n => n.nodeType === 3)
                       .map(n => n.textContent).join(''))) continue;
    const small = `${name(el)} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`;
    if (!COMPACT.some(sel => el.matches(sel))) {
      if (!seen.has(small)) found.push('target under 44x44: ' + small);
      seen.add(small);
      continue;
    }
    if (r.width >= 24 && r.height >= 24) continue;
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    for (const [other, o] of boxes) {
      if (other === el) continue;
      const dx = Math.max(o.left - cx, 0, cx - o.right), dy = Math.max(o.top - cy, 0, cy - o.bottom);
      if (Math.hypot(dx, dy) < 12) {
        found.push('compact target without its 24 px: ' + small);
        break;
      }
    }
  }
  return found;
}
""".replace("COMPACT_LIST", json.dumps(COMPACT))

# Inside each seat (opponents' and your own place), what a person reads there never overlaps:
# the name, the chips, the word of its state (THINKING..., FOLDED...), the learning table's
# badge, the countdown's seconds, the computer mark and the dealer and blind markers. The name
# and the chips stay inside the seat's edge; the markers may sit on its corner but never leave
# the screen.
SEATS_JS = r"""
function seatProblems() {
  const found = [];
  const shown = el => {
    if (!el) return false;
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const rect = el => {
    const r = el.getBoundingClientRect();
    if (el.matches('[data-why]')) return {l: r.left, t: r.top + 11, r: r.right, b: r.bottom - 11};
    return {l: r.left, t: r.top, r: r.right, b: r.bottom};
  };
  const PARTS = [['name', '.seat__name-text, .me__name-text'], ['chips', '.seat__stack'],
    ['state', '.seat__state'], ['badge', '[data-why]'], ['seconds', '.seat .countdown__secs'],
    ['computer mark', '.seat__bot'], ['marker', '.marker']];
  document.querySelectorAll('#seats .seat, #me').forEach(seat => {
    const who = (seat.querySelector('.seat__name-text, .me__name-text') || {}).textContent || '?';
    const edge = rect(seat);
    const parts = [];
    for (const [name, sel] of PARTS) {
      seat.querySelectorAll(sel).forEach(el => {
        if (!shown(el) || el.closest('.visually-hidden')) return;
        const clipped = getComputedStyle(el).clip;
        if (clipped && clipped !== 'auto') return;  // kept for screen readers only
        parts.push([name === 'marker' ? 'marker ' + el.textContent.trim() : name, rect(el)]);
      });
    }
    for (let i = 0; i < parts.length; i++) {
      const [a, ra] = parts[i];
      if ((a === 'name' || a === 'chips') &&
          (ra.l < edge.l - 1 || ra.r > edge.r + 1 || ra.t < edge.t - 1 || ra.b > edge.b + 1))
        found.push(`${who.trim()}: the ${a} crosses the seat's edge`);
      if (ra.l < -1 || ra.r > innerWidth + 1 || ra.t < -1)
        found.push(`${who.trim()}: the ${a} leaves the screen`);
      for (let j = i + 1; j < parts.length; j++) {
        const [b, rb] = parts[j];
        const w = Math.min(ra.r, rb.r) - Math.max(ra.l, rb.l);
        const h = Math.min(ra.b, rb.b) - Math.max(ra.t, rb.t);
        if (w > 1 && h > 1)
          found.push(`${who.trim()}: the ${a} overlaps the ${b} by ${w.toFixed(0)}x${h.toFixed(0)}`);
      }
    }
  });
  return found;
}
"""

# Returns a list of problems (empty: the layout holds). Parts: the bar above the table, each
# opponent's seat (with its cards, bet and markers), your place (cards, name, chips, bet), the
# board, the pots, the log or result line, the bar below (actions or waiting) and the pass and
# play controls, the talk button, the host's button. Two parts may touch but not overlap by more
# than a pixel.
CHECK_JS = TARGETS_JS + SEATS_JS + r"""
() => {
  const vw = window.innerWidth, vh = window.innerHeight, problems = [];
  const visible = el => {
    if (!el) return false;
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const box = els => {
    let b = null;
    for (const el of els) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      b = b ? {l: Math.min(b.l, r.left), t: Math.min(b.t, r.top),
               r: Math.max(b.r, r.right), b: Math.max(b.b, r.bottom)}
            : {l: r.left, t: r.top, r: r.right, b: r.bottom};
    }
    return b;
  };
  const q = (sel, root) => [...(root || document).querySelectorAll(sel)];
  const parts = {};
  const overlaps = () => {
    const names = Object.keys(parts).filter(k => parts[k]);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = parts[names[i]], b = parts[names[j]];
        const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
        const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
        if (w > 1 && h > 1)
          problems.push(`${names[i]} overlaps ${names[j]} by ${w.toFixed(0)}x${h.toFixed(0)}`);
      }
    }
  };
  const screen = document.getElementById('table-frame')?.dataset.screen;
  if (screen === 'play' || screen === 'watch') {
    parts['top bar'] = box(q('.table-top > *'));
    q('#seats > li').forEach((li, i) => {
      const label = li.querySelector('.seat__name-text') || li.querySelector('.seat__name');
      const name = label ? label.textContent.trim() : i;
      parts['seat ' + name] = box([li.querySelector('.seat'),
        ...q('.seat__cards, .seat__bet, .seat__marks, .seat__hand, .seat__won', li)]);
    });
    const me = document.getElementById('me');
    if (me) parts['your place'] = box([me, ...q('.me__cards, .me__bet, .me__best, .card', me)]);
    parts['board'] = box(q('#board'));
    parts['pots'] = box(q('#pots > *'));
    parts['log line'] = box(q('#last-line'));
    parts['bar below'] = box(q('#action-bar, #waiting-bar'));
    parts['pass controls'] = box(q('#pass-controls > *'));
    parts['talk button'] = box(q('[data-chat-toggle]'));
    parts['host button'] = box(q('[data-host-toggle]'));
    overlaps();
    // The talk button is drawn outside the table; it keeps to the table's width all the same.
    const table = box(q('.table-screen')), talk = parts['talk button'];
    if (table && talk && (talk.l < table.l - 1 || talk.r > table.r + 1))
      problems.push('talk button outside the table');
    if (!parts['bar below'] && !parts['pass controls']) problems.push('no bar below the table');
  }
  if (screen === 'handoff') {
    parts['hand-off'] = box(q('.handoff__box'));
    parts['show my cards'] = box(q('[data-testid=handoff-confirm]'));
  }
  if (screen === 'over') {
    parts['standings'] = box(q('#standings'));
    parts['title'] = box(q('.game-over header'));
    parts['next'] = box(q('[data-testid=play-again], [data-testid=next-game]'));
    overlaps();
  }
  const sheet = document.querySelector('[data-bet-sheet]:not([hidden])');
  if (sheet) {
    parts['bet sheet'] = box([sheet]);
    q('button, input', sheet).forEach(el => {
      const r = el.getBoundingClientRect();
      if (r.width && (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1))
        problems.push('bet sheet control off screen: ' +
                      (el.textContent.trim() || el.name || el.type));
    });
    if (sheet.scrollHeight > sheet.clientHeight + 1) problems.push('the bet sheet scrolls');
  }
  for (const [name, b] of Object.entries(parts)) {
    if (!b) continue;
    if (b.l < -1 || b.t < -1 || b.r > vw + 1 || b.b > vh + 1)
      problems.push(`${name} leaves the screen: ${b.l.toFixed(0)},${b.t.toFixed(0)} to ` +
                    `${b.r.toFixed(0)},${b.b.toFixed(0)} of ${vw}x${vh}`);
  }
  const doc = document.scrollingElement;
  if (doc.scrollWidth > vw + 1)
    problems.push(`the page scrolls sideways (${doc.scrollWidth} > ${vw})`);
  if (screen !== 'over' && doc.scrollHeight > vh + 1)
    problems.push(`the page scrolls (${doc.scrollHeight} > ${vh})`);
  // Names of up to 12 characters are never cut.
  q('.seat__name-text, .me__name-text, .standing__name-text, .seat__name').forEach(el => {
    if (!visible(el)) return;
    const text = (el.dataset.fullName || el.textContent).trim();
    if (text.length <= 12 && el.scrollWidth > el.clientWidth + 0.5)
      problems.push(`name cut: ${text} (${el.scrollWidth} > ${el.clientWidth})`);
  });
  problems.push(...targetProblems());
  if (screen === 'play' || screen === 'watch') problems.push(...seatProblems());
  // A text cut after N lines is clipped at its padding's edge: vertical padding would show
  // the top of line N + 1 under the ellipsis.
  q('*').forEach(el => {
    const style = getComputedStyle(el);
    if (style.webkitLineClamp === 'none' || !visible(el)) return;
    if (parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) > 0)
      problems.push(`a cut text has room for its next line: ${el.className}`);
  });
  return problems;
}
"""


def freeze(page: Any) -> None:
    page.evaluate("() => { window.__frozen = true; }")


def thaw(page: Any) -> None:
    page.evaluate("() => window.__thaw()")


def settle(page: Any) -> None:
    """Wait for every finite animation (cards dealt, chips moving, a sheet sliding in)."""
    page.evaluate(
        """async () => {
          for (let round = 0; round < 10; round++) {
            const running = document.getAnimations().filter(a => a.playState === 'running' &&
              isFinite(a.effect.getComputedTiming().endTime));
            if (!running.length) break;
            await Promise.all(running.map(a => a.finished.catch(() => null)));
          }
        }"""
    )


def laid_out(page: Any, width: int, height: int) -> None:
    """Wait until the page has the new size and has been drawn at it (two frames later)."""
    page.wait_for_function(
        "([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height]
    )
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def check_all_sizes(page: Any, state: str) -> dict[str, list[str]]:
    """Resize the frozen page through every size; the problems found at each (empty: none)."""
    found: dict[str, list[str]] = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        laid_out(page, width, height)
        settle(page)
        size = f"{width}x{height}"
        folder = SCREENSHOTS / size
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{state}.png"))
        problems = page.evaluate(CHECK_JS)
        if problems:
            found[size] = problems
    with (SCREENSHOTS / "layout-problems.txt").open("a") as log:
        for size, problems in found.items():
            log.writelines(f"{state} {size}: {p}\n" for p in problems)
    return found


def measure(page: Any, state: str, found: dict[str, Any]) -> None:
    """``check_all_sizes`` for ``state``, its problems (if any) kept in ``found`` under it; the
    page back at the phone's size afterwards."""
    problems = check_all_sizes(page, state)
    page.set_viewport_size({"width": 390, "height": 844})
    if problems:
        found[state] = problems


SMALL = {"width": 320, "height": 568}


PHONE = {"width": 390, "height": 844}


def both_sizes(page: Any, name: str) -> None:
    """Screenshots at 320x568 and 390x844; at neither does the page scroll sideways."""
    for size in (SMALL, PHONE):
        page.set_viewport_size(size)
        laid_out(page, size["width"], size["height"])
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= size["width"], f"{name} scrolls sideways at {size}"
        screenshot(page, f"tournament-{name}-{size['width']}x{size['height']}")


def still_phone(browser: Any) -> Any:
    """A phone at 390x844 with motion reduced and the page's clock frozen on demand."""
    # Reduced motion: these tests measure the table at rest (tests/browser/layout.py settles
    # every animation before it measures), and a page whose seat to act glows forever costs the
    # headless browser's software compositor a frame 60 times a second (the four table-size
    # tests: 95 -> 36 s). Motion itself is played in every other browser test.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True,
        is_mobile=True, locale="en-GB", reduced_motion="reduce",
    )
    context.set_default_timeout(20_000)
    context.add_init_script(FREEZE_SCRIPT)
    page = context.new_page()
    watch_errors(page)
    return page


def computer_table(
    page: Any, server: LiveServer, seats: int, level: str = "hard", turn: int = 30,
    bank: int | None = None,
) -> None:
    """A new table against the computer, its first hand dealt (a long name: never cut)."""
    page.goto(server.url + "/new/?mode=computer")
    page.fill("input[name=name]", LONG_NAME)
    page.locator("summary", has_text="Game settings").click()
    page.check(f"input[name=seats][value='{seats}']")
    page.check(f"input[name=level][value='{level}']")
    page.check(f"input[name=turn_seconds][value='{turn}']")
    if bank is not None:  # P4: the time bank (default 60 s)
        page.check(f"input[name=time_bank][value='{bank}']")
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("table-frame").and_(page.locator("[data-screen=play]")).wait_for()
