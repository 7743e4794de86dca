/* Your turn is sacred: while the action bar is on screen, no sheet, drawer or panel (table talk,
   the host's sheet, the hint, why a computer played, what happened this hand) covers your
   cards, your clock or the bar. This measures the room they take (your place, the pass and
   play controls and the bar below) and sets it on the page: --turn-bottom when they are the
   bottom of the screen (the panels end above them), --turn-right when they are the column on
   the right of a phone on its side (the panels keep left of it), and data-turn-held ("below"
   or "side"); static/css/table.css gives the panels those edges. Measured again after every
   frame and resize, so a turn arriving while a panel is open shrinks it at once. */
(function () {
  "use strict";

  var SIDE = "(min-aspect-ratio: 4/3)";
  var STACKED = "(min-width: 1000px) and (min-height: 700px)"; /* the table stacks again */
  var MARGIN = 4; /* your cards lean out of your place a little */

  function clear(root) {
    if (!root.hasAttribute("data-turn-held")) return;
    root.style.removeProperty("--turn-bottom");
    root.style.removeProperty("--turn-right");
    root.removeAttribute("data-turn-held");
  }

  function measure() {
    var root = document.documentElement;
    var bar = document.querySelector("#table-frame [data-action-bar]");
    if (!bar) { clear(root); return; }
    var top = Infinity, left = Infinity;
    ["me", "pass-controls", "action-bar"].forEach(function (id) {
      var el = document.getElementById(id);
      if (!el) return;
      var r = el.getBoundingClientRect();
      if (!r.width || !r.height) return;
      top = Math.min(top, r.top);
      left = Math.min(left, r.left);
    });
    if (top === Infinity) { clear(root); return; }
    var side = window.matchMedia(SIDE).matches && !window.matchMedia(STACKED).matches;
    var bottom = side ? 0 : Math.max(0, Math.ceil(window.innerHeight - top + MARGIN));
    var right = side ? Math.max(0, Math.ceil(window.innerWidth - left + MARGIN)) : 0;
    var held = side ? "side" : "below";
    if (root.style.getPropertyValue("--turn-bottom") !== bottom + "px")
      root.style.setProperty("--turn-bottom", bottom + "px");
    if (root.style.getPropertyValue("--turn-right") !== right + "px")
      root.style.setProperty("--turn-right", right + "px");
    if (root.getAttribute("data-turn-held") !== held) root.setAttribute("data-turn-held", held);
  }

  var queued = false;
  function soon() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; measure(); });
  }

  document.addEventListener("holdem:frame-after", function () { measure(); soon(); });
  document.addEventListener("holdem:panel", soon);
  window.addEventListener("resize", measure);
  window.addEventListener("orientationchange", soon);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", measure);
  else measure();
  if (window.ResizeObserver) {
    var watched = document.getElementById("table-live");
    if (watched) new ResizeObserver(soon).observe(watched);
  }
})();
