/* Table talk (tables/live/talk.py): the drawer's button and unread count, and a bubble at the
   sender's seat for a few seconds for every new line. Lines arrive as HTML appended to
   #chat-log by htmx; their text is only ever read and set as text here, never as markup. */
(function () {
  "use strict";

  var BUBBLE_MS = 4500;
  var unread = 0;
  var bubbles = []; /* {seat, text, until} still showing */

  function chat() { return document.querySelector("[data-chat]"); }

  function panelOpen() {
    var panel = document.querySelector("[data-chat-panel]");
    return !!(panel && !panel.hidden);
  }

  function showUnread() {
    var badge = document.querySelector("[data-chat-unread]");
    if (!badge) return;
    badge.textContent = String(unread);
    badge.hidden = unread === 0;
    var toggle = document.querySelector("[data-chat-toggle]");
    if (toggle) toggle.classList.toggle("chat-toggle--unread", unread > 0);
  }

  function setOpen(open) {
    var panel = document.querySelector("[data-chat-panel]");
    var toggle = document.querySelector("[data-chat-toggle]");
    if (!panel || !toggle) return;
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      unread = 0;
      showUnread();
      var log = document.getElementById("chat-log");
      if (log) log.scrollTop = log.scrollHeight;
    }
  }

  document.addEventListener("click", function (e) {
    if (!e.target.closest) return;
    if (e.target.closest("[data-chat-toggle]")) { setOpen(!panelOpen()); return; }
    if (e.target.closest("[data-chat-close]")) { setOpen(false); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && panelOpen()) setOpen(false);
  });

  /* Where a seat is drawn now: an opponent, your own place, or a place in the lobby. */
  function seatElement(seat) {
    var frame = document.getElementById("table-frame");
    if (!frame) return null;
    return frame.querySelector(".seat[data-seat='" + seat + "'], #me[data-seat='" + seat + "'], " +
      ".lobby-seat[data-seat='" + seat + "']");
  }

  function drawBubbles() {
    var now = Date.now();
    bubbles = bubbles.filter(function (b) { return b.until > now; });
    document.querySelectorAll(".chat-bubble").forEach(function (el) {
      if (!bubbles.some(function (b) { return b.el === el; })) el.remove();
    });
    bubbles.forEach(function (b) {
      var at = seatElement(b.seat);
      if (at && b.el.parentNode !== at) at.appendChild(b.el);
    });
  }

  function bubble(seat, text) {
    var el = document.createElement("div");
    el.className = "chat-bubble x-centred";
    el.setAttribute("aria-hidden", "true"); /* read out once, from the live region */
    el.setAttribute("data-testid", "chat-bubble");
    el.textContent = text;
    bubbles = bubbles.filter(function (b) {
      if (b.seat === seat) { b.el.remove(); return false; }
      return true;
    });
    bubbles.push({ seat: seat, el: el, until: Date.now() + BUBBLE_MS });
    drawBubbles();
    window.setTimeout(drawBubbles, BUBBLE_MS + 50);
  }

  function arrived(li) {
    var seat = li.getAttribute("data-seat");
    var textEl = li.querySelector("[data-chat-text]");
    var nameEl = li.querySelector(".chat-line__name");
    var text = textEl ? textEl.textContent.trim() : "";
    if (li.classList.contains("chat-line--event")) {
      /* A line of the table's log (the host paused...): said once to everyone, no bubble. */
      if (window.Holdem && Holdem.toast) Holdem.toast(text);
      if (!panelOpen()) { unread += 1; showUnread(); }
      if (window.Holdem && Holdem.announce) Holdem.announce(text);
      return;
    }
    bubble(seat, text);
    if (!panelOpen()) { unread += 1; showUnread(); }
    else {
      var log = document.getElementById("chat-log");
      if (log) log.scrollTop = log.scrollHeight;
    }
    if (window.Holdem && Holdem.announce && nameEl) Holdem.announce(nameEl.textContent + ": " + text);
  }

  /* Lines appended one by one are new; a whole drawer (a phone connecting) is history. */
  var observer = new MutationObserver(function (records) {
    records.forEach(function (record) {
      if (!record.target || record.target.id !== "chat-log") return;
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === 1 && node.matches("li.chat-line")) arrived(node);
      });
    });
  });

  function canTalk() {
    var data = document.getElementById("table-data");
    var box = chat();
    if (!data || !box) return;
    try {
      var parsed = JSON.parse(data.textContent || "{}");
      box.setAttribute("data-can-talk", parsed.mine && parsed.mine.length ? "1" : "0");
    } catch (e) { /* the next frame tells */ }
  }

  function askHistory() {
    if (chat() && window.Holdem && window.Holdem.live) window.Holdem.live.send({ type: "chat_history" });
  }

  function start() {
    var box = chat();
    if (!box) return;
    observer.observe(box, { childList: true, subtree: true });
    canTalk();
    /* live.js runs first and may have opened its socket while this file was still loading
       (the browser runs other tasks between deferred scripts): then its "open" went unheard. */
    if (window.Holdem && window.Holdem.live && window.Holdem.live.state() === "open") askHistory();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  /* Once the socket is open (again), ask for the drawer: the last lines and the talk's state. */
  document.addEventListener("holdem:socket", function (e) {
    if (e.detail && e.detail.state === "open") askHistory();
  });
  document.addEventListener("holdem:frame-after", function () { canTalk(); drawBubbles(); });
  document.addEventListener("holdem:sent", function (e) {
    var form = e.target && e.target.closest && e.target.closest("[data-chat-form]");
    if (form) form.reset();
  });
})();

/* The host's place, beside table talk (templates/table/host_sheet.html): the host button shows
   on the host's phone (static/css/table.css: once the server has sent #host-menu with
   data-host="1"), with a badge while someone waits for the host; a tap opens the host's own
   sheet and asks for the controls as they stand (who is away changes with the table). One
   sheet at a time: opening the host's closes table talk's, and the other way round. */
(function () {
  "use strict";
  var $ = function (s) { return document.querySelector(s); };

  function setHost(open) {
    var panel = $("[data-host-panel]"), toggle = $("[data-host-toggle]");
    if (!panel || !toggle || panel.hidden === !open) return;
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (!open) return;
    var talk = $("[data-chat-panel]");
    if (talk && !talk.hidden) $("[data-chat-close]").click();
    if (window.Holdem && Holdem.live) Holdem.live.send({ type: "host", do: "menu" });
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest) return;
    if (t.closest("[data-host-toggle]")) setHost($("[data-host-panel]").hidden);
    else if (t.closest("[data-host-close]") || t.closest("[data-chat-toggle]")) setHost(false);
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") setHost(false);
  });
  // The controls drawn again (the answer to opening the sheet, a new host, a late friend)
  // keep a question the host has open: it does not close under the host's finger.
  var opened = null;
  document.addEventListener("holdem:frame-before", function () {
    var menu = $("#host-menu");
    opened = menu && Array.prototype.map.call(
      menu.querySelectorAll("details[open]"), function (d) { return d.className; });
  });
  document.addEventListener("holdem:frame-after", function () {
    var menu = $("#host-menu"), names = opened;
    opened = null;
    if (!menu || !names) return;
    names.forEach(function (name) {
      var d = name && menu.querySelector("details." + name.split(" ")[0]);
      if (d && !d.open) d.open = true;
    });
  });
  // A question opened in the host's sheet (end the game?) scrolls its answer into sight.
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.open && d.closest && d.closest("[data-host-panel]")) {
      d.lastElementChild.scrollIntoView({ block: "nearest" });
    }
  }, true);
})();
