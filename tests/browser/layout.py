"""The table's layout judged from the elements' boxes, at every screen size the game supports.

A page is driven into a state by real play, then frozen (``freeze``: the websocket's messages
are held back, so the server's drawing stays put while the page is measured at each size), and
``check_all_sizes`` resizes the one page through the sizes, asserts from the boxes that the
parts of the table do not overlap, that nothing leaves the screen, that nothing needs scrolling,
that no name of up to 12 characters is cut, and writes ``screenshots/<size>/<state>.png``.
"""

from __future__ import annotations

from typing import Any

from tests.browser.helpers import SCREENSHOTS

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

# Returns a list of problems (empty: the layout holds). Parts: the bar above the table, each
# opponent's seat (with its cards, bet and markers), your place (cards, name, chips, bet), the
# board, the pots, the log or result line, the bar below (actions or waiting) and the pass and
# play controls, the talk button, the host's button. Two parts may touch but not overlap by more
# than a pixel.
CHECK_JS = r"""
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
