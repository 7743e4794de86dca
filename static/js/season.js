/* A tap on a seat at the table shows that player's statistics for this game (issue 26):
   the server draws the line (tables.pages.season.seat_line, ?part=1) from what the whole
   table saw; it answers 204 when the host turned this off, and then nothing opens. */
(function () {
  "use strict";

  var dialog = null;
  var asked = 0;

  function base() {
    var m = location.pathname.match(/^\/t\/[^/]+\//);
    return m ? m[0] : null;
  }

  function open(html) {
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "confirm seat-stats";
      dialog.setAttribute("data-testid", "seat-stats");
      dialog.addEventListener("click", function (e) {
        if (e.target === dialog || (e.target.closest && e.target.closest("[data-close]"))) {
          dialog.close();
        }
      });
      document.body.appendChild(dialog);
    }
    dialog.innerHTML = html;
    if (!dialog.open) dialog.showModal();
    var close = dialog.querySelector("[data-close]");
    if (close) close.focus();
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest || t.closest("button, a, input, select, textarea, form, dialog")) return;
    var seat = t.closest(".seat[data-seat]");
    var root = base();
    if (!seat || !root) return;
    var n = ++asked;
    fetch(root + "stats/" + seat.getAttribute("data-seat") + "/?part=1", {
      credentials: "same-origin", headers: { "Accept": "text/html" }
    }).then(function (r) {
      return r.status === 200 ? r.text() : "";
    }).then(function (html) {
      if (html && n === asked) open(html);
    }).catch(function () { /* offline: the tap shows nothing */ });
  });
})();
