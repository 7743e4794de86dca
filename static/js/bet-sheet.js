/* The bet sheet: presets, slider and number field, always inside the legal range.

   Markup (templates/components/bet_sheet.html):
     [data-bet-sheet] data-min data-max (legal "to" amounts), data-pot (every chip already in,
       this round's bets included), data-bet (the biggest bet this round), data-mine (what you
       have in this round), data-bb, data-street, data-label (e.g. "Raise to %s"), data-label-max.
     [data-preset] min | x2.5 | x3 (preflop, times the current bet) | p0.5 | p0.75 | p1 (share of
       the pot after your call, added to the bet) | max; each may hold a <small> for its amount.
     [data-bet-amount] number input, [data-bet-slider] range input, [data-step] -1 / 1 (one big
       blind), [data-bet-confirm] submit with [data-bet-confirm-label], [data-bet-cancel].
     [data-open-bet-sheet] opens it; Escape, the backdrop or Cancel close it. */
(function () {
  "use strict";

  function num(el, name) {
    var v = parseInt(el.getAttribute("data-" + name), 10);
    return isNaN(v) ? 0 : v;
  }

  function clamp(sheet, value) {
    var lo = num(sheet, "min"), hi = num(sheet, "max");
    if (!isFinite(value)) value = lo;
    return Math.min(hi, Math.max(lo, Math.round(value)));
  }

  /* The raw "to" amount of a preset, before clamping. */
  function presetValue(sheet, preset) {
    var bet = num(sheet, "bet"), mine = num(sheet, "mine"), pot = num(sheet, "pot");
    if (preset === "min") return num(sheet, "min");
    if (preset === "max") return num(sheet, "max");
    if (preset.charAt(0) === "x") return parseFloat(preset.slice(1)) * Math.max(bet, num(sheet, "bb"));
    if (preset.charAt(0) === "p") {
      var call = Math.max(0, bet - mine);
      return bet + parseFloat(preset.slice(1)) * (pot + call);
    }
    return NaN;
  }

  function format(template, value) {
    return (template || "%s").replace("%s", String(value));
  }

  /* The label's text node is replaced only when its words change. The field's change event
     comes between the press and the release of a tap on the confirm button; WebKit (Safari)
     fires no click when the node pressed on was swapped out in between, so the first tap
     after typing an amount did nothing there. */
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  function setAmount(sheet, value) {
    var v = clamp(sheet, value);
    var input = sheet.querySelector("[data-bet-amount]");
    var slider = sheet.querySelector("[data-bet-slider]");
    if (input && String(input.value) !== String(v)) input.value = v;
    if (slider && String(slider.value) !== String(v)) slider.value = v;
    if (!sheet.hidden) remember = { key: sheet.getAttribute("data-key"), amount: v };
    var isMax = v === num(sheet, "max");
    var label = sheet.querySelector("[data-bet-confirm-label]");
    if (label) {
      setText(label, format(
        isMax ? sheet.getAttribute("data-label-max") || sheet.getAttribute("data-label")
              : sheet.getAttribute("data-label"),
        v
      ));
    }
    sheet.querySelectorAll("[data-preset]").forEach(function (b) {
      var p = clamp(sheet, presetValue(sheet, b.getAttribute("data-preset")));
      b.setAttribute("aria-pressed", p === v ? "true" : "false");
    });
    return v;
  }

  /* Presets that would only repeat Min or All in are hidden; the others show their amount. */
  function preparePresets(sheet) {
    var lo = num(sheet, "min"), hi = num(sheet, "max");
    sheet.querySelectorAll("[data-preset]").forEach(function (b) {
      var name = b.getAttribute("data-preset");
      var raw = presetValue(sheet, name);
      var v = clamp(sheet, raw);
      var small = b.querySelector("small");
      if (small) small.textContent = v;
      if (name !== "min" && name !== "max") b.hidden = !(raw > lo && raw < hi);
      if (name === "min") b.hidden = lo === hi;
    });
  }

  /* A view that is re-rendered while the sheet is open (someone's presence changed, say) keeps
     the sheet open with the same amount, as long as the betting is the same (data-key). */
  var remember = null;

  function open(sheet, opener) {
    var backdrop = document.querySelector("[data-bet-backdrop]");
    sheet._opener = opener || null;
    preparePresets(sheet);
    var input = sheet.querySelector("[data-bet-amount]");
    setAmount(sheet, input && input.value ? parseInt(input.value, 10) : num(sheet, "min"));
    sheet.hidden = false;
    if (backdrop) backdrop.hidden = false;
    setInert(sheet, true);
    remember = { key: sheet.getAttribute("data-key"), amount: parseInt((input || {}).value, 10) };
    if (opener) opener.setAttribute("aria-expanded", "true");
    var first = sheet.querySelector("[data-bet-amount]") || sheet.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  /* A modal sheet: everything else on the table is out of reach (taps, focus, screen readers)
     while it is open. */
  function setInert(sheet, on) {
    var screen = sheet.closest(".table-screen") || document.body;
    Array.prototype.forEach.call(screen.children, function (el) {
      if (el === sheet || el.hasAttribute("data-bet-backdrop")) return;
      if (on) el.setAttribute("inert", "");
      else el.removeAttribute("inert");
    });
  }

  function close(sheet) {
    var backdrop = document.querySelector("[data-bet-backdrop]");
    remember = null;
    sheet.hidden = true;
    if (backdrop) backdrop.hidden = true;
    setInert(sheet, false);
    var opener = sheet._opener || document.querySelector("[data-open-bet-sheet]");
    if (opener && document.contains(opener)) {
      opener.setAttribute("aria-expanded", "false");
      opener.focus({ preventScroll: true });
    }
  }

  function sheetOf(el) {
    return (el.closest && el.closest("[data-bet-sheet]")) || null;
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest) return;
    var opener = t.closest("[data-open-bet-sheet]");
    if (opener) {
      var target = document.querySelector("[data-bet-sheet]");
      if (target) { e.preventDefault(); open(target, opener); }
      return;
    }
    if (t.closest("[data-bet-backdrop]")) {
      var s0 = document.querySelector("[data-bet-sheet]");
      if (s0) close(s0);
      return;
    }
    var sheet = sheetOf(t);
    if (!sheet) return;
    var preset = t.closest("[data-preset]");
    if (preset) { setAmount(sheet, presetValue(sheet, preset.getAttribute("data-preset"))); return; }
    var step = t.closest("[data-step]");
    if (step) {
      var input = sheet.querySelector("[data-bet-amount]");
      var by = parseInt(step.getAttribute("data-step"), 10) * Math.max(1, num(sheet, "bb"));
      setAmount(sheet, (parseInt(input.value, 10) || num(sheet, "min")) + by);
      return;
    }
    if (t.closest("[data-bet-cancel]")) { close(sheet); return; }
    if (t.closest("[data-bet-confirm]")) {
      /* Capture phase: the amount is made legal before htmx or the form reads it. */
      var field = sheet.querySelector("[data-bet-amount]");
      if (field) setAmount(sheet, parseInt(field.value, 10));
    }
  }, true);

  document.addEventListener("input", function (e) {
    var sheet = sheetOf(e.target);
    if (!sheet) return;
    if (e.target.matches("[data-bet-slider]")) setAmount(sheet, parseInt(e.target.value, 10));
    if (e.target.matches("[data-bet-amount]")) {
      /* While typing, only the slider and label follow; the field is clamped on change. */
      var v = parseInt(e.target.value, 10);
      var slider = sheet.querySelector("[data-bet-slider]");
      if (!isNaN(v) && slider) slider.value = clamp(sheet, v);
      var label = sheet.querySelector("[data-bet-confirm-label]");
      if (label && !isNaN(v)) {
        var c = clamp(sheet, v);
        setText(label, format(
          c === num(sheet, "max") ? sheet.getAttribute("data-label-max") || sheet.getAttribute("data-label")
                                  : sheet.getAttribute("data-label"), c));
      }
    }
  });

  document.addEventListener("change", function (e) {
    var sheet = sheetOf(e.target);
    if (sheet && e.target.matches("[data-bet-amount]")) setAmount(sheet, parseInt(e.target.value, 10));
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var sheet = document.querySelector("[data-bet-sheet]:not([hidden])");
    if (sheet) { e.preventDefault(); close(sheet); }
  });

  document.addEventListener("htmx:load", function (e) {
    if (!remember || !e.target.querySelector) return;
    var sheet = e.target.matches && e.target.matches("[data-bet-sheet]") ? e.target
      : e.target.querySelector("[data-bet-sheet]");
    if (!sheet || !sheet.hidden || sheet.getAttribute("data-key") !== remember.key) return;
    var amount = remember.amount;
    var input = sheet.querySelector("[data-bet-amount]");
    if (input && !isNaN(amount)) input.value = amount;
    open(sheet, document.querySelector("[data-open-bet-sheet]"));
  });

  /* Exposed for tests and for the pre-action code. */
  window.Holdem = window.Holdem || {};
  window.Holdem.betSheet = { open: open, close: close, setAmount: setAmount, presetValue: presetValue, clamp: clamp };
})();
