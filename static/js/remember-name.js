/* Remember the player's name on this phone, and forget it on request.
   [data-remember-name] inputs are filled from localStorage and saved when their form is sent.
   [data-known-name] shows the name; [data-if-known] / [data-if-unknown] show or hide with it.
   [data-forget-me] clears everything this site keeps on the phone (name, sound setting). */
(function () {
  "use strict";

  var H = window.Holdem || (window.Holdem = {});
  var store = H.storage;

  function apply(root) {
    var name = store.get("name") || "";
    H.all(root, "[data-remember-name]").forEach(function (input) {
      if (!input.value && name) input.value = name;
    });
    document.querySelectorAll("[data-known-name]").forEach(function (el) { el.textContent = name; });
    document.querySelectorAll("[data-if-known]").forEach(function (el) { el.hidden = !name; });
    document.querySelectorAll("[data-if-unknown]").forEach(function (el) { el.hidden = !!name; });
  }

  document.addEventListener("submit", function (e) {
    var input = e.target.querySelector && e.target.querySelector("[data-remember-name]");
    if (input && input.value.trim()) {
      store.set("name", input.value.trim().slice(0, 40));
      /* Every name field on the page follows, so the next form is already filled. */
      document.querySelectorAll("[data-remember-name]").forEach(function (other) {
        if (!other.value) other.value = input.value.trim();
      });
    }
  }, true);

  /* Typing a name in one form fills the other forms on the home page too. */
  document.addEventListener("input", function (e) {
    if (!e.target.matches || !e.target.matches("[data-remember-name]")) return;
    document.querySelectorAll("[data-remember-name]").forEach(function (other) {
      if (other !== e.target && other.form !== e.target.form) other.value = e.target.value;
    });
  });

  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-forget-me]");
    if (!b) return;
    store.remove("name");
    store.remove("muted");
    document.querySelectorAll("[data-remember-name]").forEach(function (input) { input.value = ""; });
    apply(document.body);
    var msg = b.getAttribute("data-done");
    if (msg) { H.toast(msg); H.announce(msg); }
    /* A forget button inside a form also tells the server (it may drop its own memory). */
    if (b.type !== "submit") e.preventDefault();
  });

  H.onLoad(apply);
})();
