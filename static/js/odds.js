/* The odds while an all-in hand's board is dealt. When every hand still in is face
   up, the server's frame carries data.runout: the seats turned up and, for the board as it was
   then and after each street, each hand's chance to win and to split (engine.runout). This page
   deals the rest of the board one street at a time, data.runout.step ms each, with each hand's
   chance at its seat, and keeps the result (who wins, the chips, the last line) hidden until
   the river is out. The server waits as long before the next hand (tables.write.path).
   Only a page that saw the hand being played paces it; one opened afterwards shows the result.
   The words come with data.runout.words, in the page's language. */
(function () {
  "use strict";

  var Holdem = (window.Holdem = window.Holdem || {});
  var playing = {}; /* hand number -> true once a frame showed it running */
  var show = null; /* the run-out being paced: {hand, data, start, done, timer} */

  function word(name) {
    var words = (show && show.data && show.data.words) || {};
    return words[name] || "";
  }

  function frameData() {
    var el = document.getElementById("table-data");
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }

  function percent(tenths) {
    var text = (tenths / 10).toFixed(tenths % 10 === 0 && tenths >= 1000 ? 0 : 1);
    return text + "%";
  }

  /* What this frame shows of a run-out, worked out once per hand. */
  function plan() {
    var d = frameData();
    if (!d || !d.hand_number) return null;
    var frame = document.getElementById("table-frame");
    var key = (frame ? frame.getAttribute("data-code") : "") + "#" + d.hand_number;
    if (!d.hand_over) { playing[key] = true; return null; }
    if (show && show.key === key) return show;
    if (!d.runout || !playing[key] || !d.runout.step) return null;
    if (show && show.timer) window.clearTimeout(show.timer);
    show = { key: key, data: d.runout, start: Date.now(), done: false, timer: null };
    return show;
  }

  function stageNow(s) {
    var k = Math.floor((Date.now() - s.start) / s.data.step);
    return k >= s.data.stages.length ? -1 : k;
  }

  /* How long the result must still wait (app.js holds the chips' slide to the winner). */
  Holdem.runoutWait = function () {
    var s = plan();
    if (!s || s.done) return 0;
    return Math.max(0, s.start + s.data.step * s.data.stages.length - Date.now());
  };

  function clear() {
    var frame = document.getElementById("table-frame");
    if (frame) frame.classList.remove("runout");
    document.querySelectorAll(".odds-badge, .runout-note").forEach(function (el) { el.remove(); });
    document.querySelectorAll("#board .card--pending").forEach(function (card) {
      card.classList.remove("card--pending", "card--new");
      card.removeAttribute("aria-hidden");
      void card.offsetWidth; /* dealt in again, now that it is its turn */
      card.classList.add("card--new");
    });
  }

  function badge(seat, win, split) {
    var place = document.querySelector('#seats .seat[data-seat="' + seat + '"], #me[data-seat="' + seat + '"]');
    if (!place) return;
    var el = document.createElement("span");
    el.className = "odds-badge x-centred";
    el.setAttribute("data-testid", "odds-" + seat);
    var main = document.createElement("b");
    main.textContent = word("win") + " " + percent(win);
    el.appendChild(main);
    if (split > 0) {
      var tie = document.createElement("small");
      tie.textContent = word("split") + " " + percent(split);
      el.appendChild(tie);
    }
    place.appendChild(el);
  }

  function draw(s) {
    var k = stageNow(s);
    if (k < 0) { s.done = true; clear(); return; }
    var stage = s.data.stages[k];
    var frame = document.getElementById("table-frame");
    if (frame) frame.classList.add("runout");
    document.querySelectorAll(".odds-badge, .runout-note").forEach(function (el) { el.remove(); });
    document.querySelectorAll("#board .card[data-card]").forEach(function (card, i) {
      var hidden = i >= stage.board;
      if (!hidden && card.classList.contains("card--pending")) {
        card.classList.remove("card--pending", "card--new");
        card.removeAttribute("aria-hidden");
        void card.offsetWidth;
        card.classList.add("card--new");
      } else if (hidden) {
        card.classList.add("card--pending");
        card.setAttribute("aria-hidden", "true"); /* not dealt yet, for screen readers too */
      }
    });
    s.data.seats.forEach(function (seat, j) { badge(seat, stage.win[j], stage.split[j]); });
    var center = document.getElementById("last-line");
    if (center) {
      var note = document.createElement("span");
      note.className = "runout-note";
      note.setAttribute("data-testid", "runout-note");
      note.textContent = stage.method === "exact"
        ? word("exact")
        : word("simulated");
      center.appendChild(note);
    }
    Holdem.announce(s.data.seats.map(function (seat, j) {
      var el = document.querySelector('[data-seat="' + seat + '"] .seat__name-text, #me[data-seat="' + seat + '"] .me__name-text');
      return (el ? el.textContent.trim() + " " : "") + percent(stage.win[j]);
    }).join(", "));
    var next = s.start + (k + 1) * s.data.step - Date.now();
    if (s.timer) window.clearTimeout(s.timer);
    s.timer = window.setTimeout(function () { draw(s); }, Math.max(20, next));
  }

  Holdem.onFrame(function () {
    var s = plan();
    if (!s) { if (show && !show.done) { show.done = true; clear(); } return; }
    if (!s.done) draw(s);
  });
})();

/* The hint's box (templates/table/_hint.html) closes with its own button. */
document.addEventListener("click", function (e) {
  var close = e.target.closest && e.target.closest("[data-hint-close]");
  if (!close) return;
  var box = document.getElementById("hint-box");
  if (box) box.innerHTML = "";
});

/* Why a computer did that: a tap on its badge shows the reason (table/_why.html). */
(function () {
  function close() { var el = document.getElementById("why-box"); if (el) el.innerHTML = ""; }
  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("[data-why-close]")) return close();
    var badge = e.target.closest("[data-why]"), frame = document.getElementById("table-frame");
    var seat = badge && badge.closest("[data-seat]");
    if (!seat || !frame) return;
    fetch("/t/" + frame.dataset.code + "/why/" + seat.dataset.seat + "/").then(function (r) {
      return r.text();
    }).then(function (html) {
      var el = document.getElementById("why-box");
      if (!el) {
        el = document.createElement("div");
        el.id = el.className = "why-box";
        document.body.appendChild(el);
      }
      el.innerHTML = html;
      var button = el.querySelector("[data-why-close]");
      if (button) button.focus();
    });
  });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") close(); });
})();
