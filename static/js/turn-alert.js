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
    // Before the first tap a browser refuses and logs an error in the console: skip it.
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
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
