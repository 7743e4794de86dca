/* Your turn: a short two-note beep (WebAudio, nothing downloaded) and a vibration where the
   phone allows, unless muted. The mute choice is kept on this phone (localStorage).

   Markup: [data-your-turn] data-turn-id (new for every turn) appears when it is your turn;
   [data-sound-toggle] buttons carry aria-pressed ("true" = sound on). */
(function () {
  "use strict";

  var H = window.Holdem || (window.Holdem = {});
  var store = H.storage || { get: function () { return null; }, set: function () {} };
  var ctx = null;
  var lastTurn = null;

  function muted() { return store.get("muted") === "1"; }

  function syncToggles() {
    document.querySelectorAll("[data-sound-toggle]").forEach(function (b) {
      b.setAttribute("aria-pressed", muted() ? "false" : "true");
    });
  }

  /* Browsers only let a page make sound after a tap; the first tap creates the context. */
  function unlock() {
    if (ctx || muted()) return;
    var AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    try { ctx = new AC(); } catch (e) { ctx = null; }
  }
  document.addEventListener("pointerdown", unlock, { passive: true });
  document.addEventListener("keydown", unlock);

  function tone(freq, start, length) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25, start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }

  H.beep = function () {
    if (muted() || !ctx) return;
    if (ctx.state === "suspended") ctx.resume();
    var now = ctx.currentTime + 0.01;
    tone(880, now, 0.11);
    tone(1320, now + 0.13, 0.14);
  };

  H.buzz = function () {
    if (muted() || !navigator.vibrate) return;
    // Chrome logs an error for a vibration before the person touched the page: wait for it.
    var touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : !!ctx;
    if (!touched) return;
    try { navigator.vibrate([60, 40, 60]); } catch (e) { /* not allowed */ }
  };

  function check(root) {
    var turn = root && root.querySelector
      ? (root.matches && root.matches("[data-your-turn]") ? root : root.querySelector("[data-your-turn]"))
      : null;
    syncToggles();
    if (!turn) return;
    var id = turn.getAttribute("data-turn-id") || "turn";
    if (id === lastTurn) return;
    lastTurn = id;
    H.beep();
    H.buzz();
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-sound-toggle]");
    if (!b) return;
    if (muted()) {
      store.remove ? store.remove("muted") : store.set("muted", "0");
      unlock();
      syncToggles();
      H.beep();
    } else {
      store.set("muted", "1");
      syncToggles();
    }
    var msg = b.getAttribute(muted() ? "data-label-off" : "data-label-on");
    if (msg && H.announce) H.announce(msg);
  });

  if (H.onLoad) H.onLoad(check);
  else document.addEventListener("htmx:load", function (e) { check(e.target); });
})();

/* Your turn is sacred: while the action bar is on screen, no sheet, drawer or panel (table
   talk, the host's sheet, the hint, why a computer played, what happened this hand) covers
   your cards, your clock or the bar. The room they take (your place, the pass and play
   controls and the bar below) is measured and set on the page: --turn-bottom when they are the
   bottom of the screen (the panels end above them), --turn-right when they are the column on
   the right of a phone on its side (the panels keep left of it), and data-turn-held ("below"
   or "side"); static/css/table.css gives the panels those edges. Measured again after every
   frame, resize (a phone turned too) and font load, so a turn arriving while a panel is open
   shrinks it at once. Your cards lean out of your place a little: 4 px more. */
(function () {
  "use strict";
  var root = document.documentElement;
  function measure() {
    var top = Infinity, left = Infinity;
    if (document.querySelector("#table-frame [data-action-bar]")) {
      ["me", "pass-controls", "action-bar"].forEach(function (id) {
        var el = document.getElementById(id), r = el && el.getBoundingClientRect();
        if (r && r.height) { top = Math.min(top, r.top); left = Math.min(left, r.left); }
      });
    }
    /* on its side, unless the table stacks again (desktops, tablets held sideways) */
    var side = matchMedia("(min-aspect-ratio: 4/3)").matches &&
      !matchMedia("(min-width: 1000px) and (min-height: 700px)").matches;
    var held = top < Infinity;
    var bottom = held && !side ? Math.ceil(innerHeight - top + 4) : 0;
    var right = held && side ? Math.ceil(innerWidth - left + 4) : 0;
    root.style.setProperty("--turn-bottom", bottom + "px");
    root.style.setProperty("--turn-right", right + "px");
    if (held) root.setAttribute("data-turn-held", side ? "side" : "below");
    else root.removeAttribute("data-turn-held");
  }
  document.addEventListener("holdem:frame-after", measure);
  addEventListener("resize", measure);
  document.addEventListener("DOMContentLoaded", measure);
  if (document.fonts) document.fonts.ready.then(measure);
  measure();
})();
