/* The host's place (templates/table/host_sheet.html): the host button shows once the server
   says this phone is the host (#host-menu with data-host="1", sent when the socket opens and
   whenever the host changes); a tap opens the host's own sheet and asks for the controls as
   they stand (who is away changes with the table). The badge counts who waits for the host:
   friends arriving late (#late-requests) and away people at the table. One sheet at a time:
   opening the host's closes table talk's, and the other way round. */
(function () {
  "use strict";

  function one(selector) { return document.querySelector(selector); }

  function isHost() {
    var menu = one("#host-menu");
    return !!(menu && menu.getAttribute("data-host") === "1");
  }

  function panelOpen() {
    var panel = one("[data-host-panel]");
    return !!(panel && !panel.hidden);
  }

  function playing() {
    var frame = one("#table-frame");
    var screen = frame ? frame.getAttribute("data-screen") : "";
    return screen === "play" || screen === "watch";
  }

  function waiting() {
    var late = document.querySelectorAll("#late-requests [data-testid=late-request]").length;
    var away = document.querySelectorAll("#seats .seat--away").length;
    return late + away;
  }

  function setOpen(open) {
    var panel = one("[data-host-panel]");
    var toggle = one("[data-host-toggle]");
    if (!panel || !toggle) return;
    if (open === panelOpen()) return;
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      var chat = one("[data-chat-panel]");
      var close = one("[data-chat-close]");
      if (chat && !chat.hidden && close) close.click();
      if (window.Holdem && Holdem.live) Holdem.live.send({ type: "host", do: "menu" });
    }
    document.dispatchEvent(new CustomEvent("holdem:panel", { detail: { open: open } }));
  }

  function draw() {
    var toggle = one("[data-host-toggle]");
    if (!toggle) return;
    var host = isHost();
    if (toggle.hidden !== !host) toggle.hidden = !host;
    if ((!host || !playing()) && panelOpen()) setOpen(false);
    var count = host ? waiting() : 0;
    var badge = one("[data-host-badge]");
    /* Changed only when it differs: the badge is watched by the observer below. */
    if (badge && badge.textContent !== String(count)) badge.textContent = String(count);
    if (badge && badge.hidden !== (count === 0)) badge.hidden = count === 0;
    toggle.classList.toggle("host-toggle--waiting", count > 0);
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("[data-host-toggle]")) { setOpen(!panelOpen()); return; }
    if (e.target.closest("[data-host-close]")) { setOpen(false); return; }
    if (e.target.closest("[data-chat-toggle]")) setOpen(false);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && panelOpen()) setOpen(false);
  });

  function start() {
    var box = one("[data-host-sheet]");
    if (!box) return;
    /* The menu and the late friends' requests are swapped in whole (out of band). */
    new MutationObserver(function (records) {
      var badge = one("[data-host-badge]");
      if (records.every(function (r) { return badge && badge.contains(r.target); })) return;
      draw();
    }).observe(box, { childList: true, subtree: true });
    draw();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("holdem:frame-after", draw);
})();
