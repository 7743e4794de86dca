/* Playing from a keyboard: F folds, C checks or calls, R opens the bet sheet, Enter confirms the
   bet and Escape closes the sheet (static/js/bet-sheet.js). The keys press the real buttons, so
   they do exactly what a tap does (the fold question included). Never while typing in a field,
   with a modifier held, or while a question is open. */
(function () {
  "use strict";

  function typing(el) {
    if (!el || !el.closest) return false;
    return !!el.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']");
  }

  function press(selector) {
    var button = document.querySelector(selector);
    if (!button || button.disabled) return false;
    button.click();
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (document.querySelector("dialog[open]")) return;
    var sheet = document.querySelector("[data-bet-sheet]:not([hidden])");
    if (e.key === "Enter") {
      // In the amount field Enter sends the form by itself; on a button it presses that button.
      if (sheet && !typing(e.target) && !(e.target.closest && e.target.closest("button, a"))) {
        if (press("[data-bet-sheet]:not([hidden]) [data-bet-confirm]")) e.preventDefault();
      }
      return;
    }
    if (typing(e.target) || sheet || !document.querySelector("[data-action-bar]")) return;
    var key = e.key.toLowerCase();
    var done = false;
    if (key === "f") done = press("[data-action-bar] [data-act=fold]");
    else if (key === "c") done = press("[data-action-bar] [data-act=check]") || press("[data-action-bar] [data-act=call]");
    else if (key === "r") done = press("[data-action-bar] [data-open-bet-sheet]");
    if (done) e.preventDefault();
  });
})();
