/* Countdown rings: [data-countdown] data-remaining (seconds left when rendered) data-total.
   The ring empties smoothly and the number counts down; under 5 seconds it turns red-orange and
   says so in shape too (the number). One timer drives every ring on the page. While a moderator
   has paused the table ("paused" in the #table-data JSON, or data-paused on the ring) the rings
   stand still; the next frame after the resume brings fresh rings. With data-bank (the
   player's time bank, P4, counted in data-remaining) the ring first runs down the time to act,
   then the bank in its own colour (countdown--bank). */
(function () {
  "use strict";

  var timer = null;

  function tablePaused() {
    var data = document.getElementById("table-data");
    if (!data) return false;
    try { return JSON.parse(data.textContent || "{}").paused === true; } catch (e) { return false; }
  }

  function tick() {
    var rings = document.querySelectorAll("[data-countdown]");
    if (!rings.length) { window.clearInterval(timer); timer = null; return; }
    var now = performance.now();
    var paused = tablePaused();
    rings.forEach(function (el) {
      if (!el._start) {
        el._start = now;
        el._remaining = parseFloat(el.getAttribute("data-remaining")) || 0;
        el._total = parseFloat(el.getAttribute("data-total")) || 1;
        el._bank = parseFloat(el.getAttribute("data-bank")) || 0;
      }
      var left = Math.max(0, el._remaining - (now - el._start) / 1000);
      if (paused || el.hasAttribute("data-paused")) {
        el._start = now;  // hold the time left where it is
        el._remaining = left;
      }
      var banking = el._bank > 0 && left <= el._bank;
      var part = banking ? left : left - el._bank;  // of the time to act, or of the bank
      var whole = banking ? el._bank : el._total;
      var ring = el.querySelector(".countdown__left");
      if (ring) ring.setAttribute("stroke-dashoffset", String(100 - (100 * part) / whole));
      var secs = el.querySelector("[data-countdown-secs]");
      var shown = String(Math.ceil(part));
      if (secs && secs.textContent !== shown) secs.textContent = shown;
      el.classList.toggle("countdown--bank", banking);
      el.classList.toggle("countdown--low", (banking || !el._bank) && left <= 5);
    });
  }

  function start() {
    tick();
    if (!timer) timer = window.setInterval(tick, 250);
  }

  if (window.Holdem && window.Holdem.onLoad) window.Holdem.onLoad(start);
  else document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:load", start);
})();
