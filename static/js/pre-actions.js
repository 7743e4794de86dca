/* Acting in advance while others think: "Check/fold", "Check", "Call any".

   Markup while waiting: [data-pre-actions] data-key="<hand>-<street>-<biggest bet>" holding
   checkboxes with value check_fold | check | fold | call | call_any (one at a time).
   Markup on your turn: [data-action-bar] data-key (same form) with buttons data-act="fold",
   "check", "call". When the turn comes and the key is unchanged, the ticked choice presses the
   matching real button; any change of the bet (a new key) clears the choice. */
(function () {
  "use strict";

  var choice = null; /* { value: "check", key: "12-flop-40" } */

  function find(root, selector) {
    if (!root || !root.querySelector) return null;
    return root.matches && root.matches(selector) ? root : root.querySelector(selector);
  }

  function sync(root) {
    var box = find(root, "[data-pre-actions]");
    if (box) {
      var key = box.getAttribute("data-key");
      if (choice && choice.key !== key) choice = null;
      box.querySelectorAll("input[type=checkbox]").forEach(function (input) {
        input.checked = !!choice && input.value === choice.value;
      });
    }
    var bar = find(root, "[data-action-bar]");
    if (bar && choice) {
      var mine = choice;
      choice = null;
      if (mine.key !== bar.getAttribute("data-key")) return;
      var pick = function (act) { return bar.querySelector("[data-act='" + act + "']"); };
      var button = null;
      if (mine.value === "check_fold") button = pick("check") || pick("fold");
      else if (mine.value === "check") button = pick("check");
      else if (mine.value === "fold") button = pick("fold");
      else if (mine.value === "call") button = pick("call");
      else if (mine.value === "call_any") button = pick("call") || pick("check");
      if (button) {
        /* Let htmx finish wiring the new buttons before pressing one. */
        window.setTimeout(function () {
          if (!document.contains(button)) return;
          button.dataset.confirmed = "1"; /* no "fold with a free check" question here */
          button.click();
        }, 120);
      }
    }
  }

  document.addEventListener("change", function (e) {
    var input = e.target;
    var box = input.closest && input.closest("[data-pre-actions]");
    if (!box || input.type !== "checkbox") return;
    if (input.checked) {
      choice = { value: input.value, key: box.getAttribute("data-key") };
      box.querySelectorAll("input[type=checkbox]").forEach(function (other) {
        if (other !== input) other.checked = false;
      });
    } else {
      choice = null;
    }
  });

  if (window.Holdem && window.Holdem.onLoad) {
    window.Holdem.onLoad(sync);
  } else {
    document.addEventListener("htmx:load", function (e) { sync(e.target); });
  }

  window.Holdem = window.Holdem || {};
  window.Holdem.preActions = { current: function () { return choice; } };
})();
