/* The table's live connection: one websocket per table page, kept open through what phones go
   through (a locked screen, a tunnel, Wi-Fi to mobile data, a server restarting).

   - Frames from the server are HTML elements swapped in by id (hx-swap-oob, see
     tables/live/consumer.py), through htmx's own swap so htmx:load fires for what arrives.
     Kept parts (?parts=1, tables/live/kept.py): see whole().
   - Forms marked ws-send are sent as JSON objects of their fields. Nothing is ever queued:
     while the socket is down the page's buttons are disabled and a tap says "Not connected:
     reconnecting…". An action sent is remembered until a frame or a notice answers it; if the
     socket drops first, the phone asks on its return what became of it (the server applies an
     action at most once: the version it was drawn for decides).
   - Reconnecting: at once when the network comes back (online), the page is shown again
     (visibilitychange, pageshow from the back-forward cache) or the window regains focus;
     otherwise after a short back-off with jitter that never waits more than 2.5 s while
     the page is visible (30 s while hidden). Every reconnection is sent the table's current
     view, so the turn timer shown is the server's. A try can hang (a server coming up that
     has bound its port and does not answer yet, a machine half back), and the browser makes
     no other try to the same server meanwhile (one WebSocket connecting per server): once the
     page has opened a socket, a try that has not opened within four times the handshake of
     its last reconnection (RETRY_WAIT at least, CONNECT_WAIT at most) is given up and the
     next begins at once while the page is visible. The page's first socket is no measure: it
     opens while the page itself is still loading (and WebKit's first WebSocket of a session
     takes longer again), so until a reconnection has been timed a try is given RETRY_WAIT;
     after three tries given up in a row each is given GROWTH more than the last, so that a
     network slower than that still gets through, while a server that holds tries for a long
     while (9 s) still finds the page's try given at most 2.5 s when it answers again.
   - A socket can look open and be dead (a phone that slept, a network that vanished without a
     word): a "ping" after a quiet spell, and on every wake, must be answered within a few
     seconds or the socket is replaced.

   Events for the other scripts, on document: holdem:socket (detail.state: "connecting",
   "open", "closed"), holdem:frame-before and holdem:frame-after (detail.message), and
   holdem:sent on the form that was sent. Holdem.live.send(object) sends one message now (false
   when not connected). No build step. */
(function () {
  "use strict";

  var Holdem = (window.Holdem = window.Holdem || {});

  // ms: the longest wait between tries while the page is visible. The goal is live within 3 s
  // of the server's return: the wait, then a handshake on a slow network, must fit in it.
  var VISIBLE_CAP = 2500;
  var HIDDEN_CAP = 30000;   // ms: while it is hidden (a phone in a pocket)
  var CONNECT_WAIT = 6000;  // ms: a try that has not opened by then is given up and retried
  var RETRY_WAIT = 1500;    // ms: the least a try is given once a socket has opened (see above)
  var GROWTH = 500;         // ms more for each try given up in a row after the third
  var QUIET = 25000;        // ms without a word from the server before asking "are you there?"
  var ANSWER_WAIT = 4000;   // ms to answer a ping (or a wake's sync) before the socket is replaced
  var WAKE_SYNC_AFTER = 3000; // ms hidden or offline after which a wake asks for the view again

  var root = null;          // #table-live
  var baseUrl = "";
  var firstUrl = "";
  var socket = null;
  var state = "closed";
  var tries = 0;
  var retryTimer = null;
  var connectTimer = null;
  var answerTimer = null;
  var quietTimer = null;
  var lastHeard = 0;
  var hiddenAt = 0;
  var lastWake = 0;
  var opened = false;       // opened at least once (the first connection uses the page's version)
  var pending = null;       // {id, version, seat}: the action sent last, not yet answered
  var pendingTimer = null;
  var connectStarted = 0;
  var handshake = 0;        // ms the last reconnection took to open (0: none timed yet)
  var givenUp = 0;          // tries given up in a row since a socket last opened
  var PENDING_WAIT = 8000;  // ms before asking what became of an unanswered action

  function now() { return Date.now(); }

  function visible() { return document.visibilityState !== "hidden"; }

  function fire(name, detail, target) {
    var event;
    try {
      event = new CustomEvent(name, { bubbles: true, detail: detail || {} });
    } catch (e) {  /* very old engines */
      event = document.createEvent("CustomEvent");
      event.initCustomEvent(name, true, false, detail || {});
    }
    (target || document).dispatchEvent(event);
  }

  function absolute(url) {
    if (/^wss?:/.test(url)) return url;
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + window.location.host + url;
  }

  /* The first connection tells the server which version the page was drawn at (it then does
     not send that view again); every later one asks for the view of the moment. */
  function socketUrl() {
    return opened ? baseUrl : firstUrl;
  }

  function setState(next) {
    if (state === next) return;
    state = next;
    if (root) root.setAttribute("data-connection", next);
    document.body.classList.toggle("is-offline", next !== "open");
    var banner = document.getElementById("connection-banner");
    if (banner) banner.hidden = next === "open" || (!opened && next === "connecting");
    disableControls(next !== "open");
    fire("holdem:socket", { state: next });
  }

  /* While the socket is down, no button that would send something can be tapped. */
  function disableControls(off) {
    if (!root) return;
    root.querySelectorAll(
      "form[ws-send] button, form[ws-send] input[type=submit], [data-open-bet-sheet]"
    ).forEach(
      function (button) {
        if (off) {
          if (!button.disabled) {
            button.disabled = true;
            button.setAttribute("data-offline-disabled", "");
          }
        } else if (button.hasAttribute("data-offline-disabled")) {
          button.disabled = false;
          button.removeAttribute("data-offline-disabled");
        }
      });
  }

  function clear(timer) { if (timer) window.clearTimeout(timer); return null; }

  function connect() {
    retryTimer = clear(retryTimer);
    connectTimer = clear(connectTimer);
    answerTimer = clear(answerTimer);
    var old = socket;
    socket = null;
    if (old) {
      try { old.close(); } catch (e) { /* already closed */ }
    }
    if (!root || !document.body.contains(root)) return;
    setState("connecting");
    connectStarted = now();
    var ws;
    try {
      ws = new WebSocket(absolute(socketUrl()));
    } catch (e) {
      setState("closed");
      retry();
      return;
    }
    socket = ws;
    connectTimer = window.setTimeout(function () {
      if (ws === socket && ws.readyState === WebSocket.CONNECTING) {
        socket = null;
        givenUp += 1;
        try { ws.close(); } catch (e) { /* never opened */ }
        setState("closed");
        if (visible()) connect();  // the wait was spent already: the next try at once
        else retry();
      }
    }, connectWait());
    ws.onopen = function () {
      if (ws !== socket) return;
      if (opened) handshake = now() - connectStarted;
      givenUp = 0;
      connectTimer = clear(connectTimer);
      tries = 0;
      opened = true;
      heard();
      setState("open");
      if (pending) {
        send({ type: "sync", action_id: pending.id, version: pending.version, seat: pending.seat });
      }
    };
    var kept = Object.create(null);
    ws.onmessage = function (event) {
      if (ws !== socket) return;
      heard();
      if (event.data === "pong") return;
      var html = whole(String(event.data), kept);
      if (html === null) connect();  // a new socket sends every part
      else receive(html);
    };
    ws.onclose = function (event) {
      if (ws !== socket) return;
      socket = null;
      connectTimer = clear(connectTimer);
      setState("closed");
      // 4404: no such table; 4429: too many wrong codes. Trying again changes nothing.
      if (event.code === 4404 || event.code === 4429) return;
      retry();
    };
  }

  /* The frame made whole: <x-p n=NAME>TEXT</x-p> is kept, <x-k n=NAME> is what was kept
     (null: not kept). */
  var PART = /<x-p n="([\w-]+)">([\s\S]*?)<\/x-p>|<x-k n="([\w-]+)"><\/x-k>/g;
  function whole(text, kept) {
    var missing = false;
    var html = text.replace(PART, function (all, name, body, same) {
      if (name) return (kept[name] = body);
      if (!(same in kept)) missing = true;
      return kept[same] || "";
    });
    return missing ? null : html;
  }

  /* How long a try is given before it is given up (see the top of this file). */
  function connectWait() {
    if (!opened) return CONNECT_WAIT;
    var wait = Math.max(RETRY_WAIT, 4 * handshake);
    if (givenUp >= 3) wait += GROWTH * (givenUp - 2);
    return Math.min(CONNECT_WAIT, wait);
  }

  /* The wait before try number `n` (0: the first after a drop): at once, then doubling with
     jitter (half to all of the step) up to the cap of a visible or a hidden page. */
  function delayFor(n, isVisible) {
    if (n === 0) return Math.random() * 150;
    var ceiling = Math.min(isVisible ? VISIBLE_CAP : HIDDEN_CAP, 250 * Math.pow(2, n));
    return ceiling * (0.5 + Math.random() / 2);
  }

  function retry() {
    retryTimer = clear(retryTimer);
    var delay = delayFor(tries, visible());
    tries += 1;
    retryTimer = window.setTimeout(connect, delay);
  }

  /* Anything from the server proves the socket alive; a quiet one is asked after a while. */
  function heard() {
    lastHeard = now();
    answerTimer = clear(answerTimer);
    quietTimer = clear(quietTimer);
    quietTimer = window.setTimeout(quiet, QUIET);
  }

  function quiet() {
    quietTimer = null;
    if (state !== "open" || !visible()) return;  // a hidden page is asked when it wakes
    ask({ type: "ping" });
  }

  /* Send something that must be answered soon, or the socket is dead: replace it. */
  function ask(message) {
    if (!send(message)) return;
    answerTimer = clear(answerTimer);
    var asked = now();
    answerTimer = window.setTimeout(function () {
      answerTimer = null;
      if (state === "open" && lastHeard < asked) connect();
    }, ANSWER_WAIT);
  }

  /* The network is back, the page is shown again, the window has the focus: be live now. */
  function wake(why) {
    if (!root) return;
    var t = now();
    var away = hiddenAt ? t - hiddenAt : 0;
    if (visible()) hiddenAt = 0;
    if (state === "open") {
      if (t - lastWake < 1000) return;
      lastWake = t;
      // After a while away the view may be old (and the clock's count-down with it): ask for
      // the view itself, which also proves the socket alive; otherwise a ping does.
      ask(away > WAKE_SYNC_AFTER || why === "online" ? { type: "sync" } : { type: "ping" });
      return;
    }
    // A try under way for more than a moment may be stuck on the network that went away.
    if (state === "connecting" && socket && t - connectStarted < 1000) return;
    tries = 0;
    connect();
  }

  function receive(html) {
    fire("holdem:frame-before", { message: html });
    if (window.htmx && window.htmx.swap) {
      window.htmx.swap(root, html, { swapStyle: "none", swapDelay: 0, settleDelay: 0 });
    }
    answered(html);
    fire("holdem:frame-after", { message: html });
    follow();
  }

  /* The answer to one of the table's own form posts (start, join, leave, play again; a late
     friend's request and the host's answer) is a frame or pieces of one too, and is drawn the
     same way, at the document. The websocket may have drawn the next
     view first and taken the form that asked out of the page: htmx would then look for the
     frame inside that detached form (htmx:oobErrorNoTarget) and draw nothing, and its events
     no longer reach the document; so the answer is taken at the request itself. An answer
     older than the view on screen keeps its notice but not its frame. */
  function isFrame(html) {
    return typeof html === "string" && html.indexOf('id="table-frame"') !== -1;
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var xhr = e.detail.xhr, asker = e.detail.elt;
    if (!root || !xhr || !root.contains(asker)) return;
    var htmxLoad = xhr.onload;
    xhr.onload = function () {
      var html = xhr.responseText;
      if (!document.body.contains(asker) && xhr.status >= 200 && xhr.status < 300 &&
          typeof html === "string" && html.indexOf("hx-swap-oob") !== -1) {
        receive(isFrame(html) ? withoutOlderFrame(html) : html);
        return;
      }
      return htmxLoad.apply(this, arguments);
    };
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    var html = e.detail.serverResponse;
    if (!root || !e.detail.shouldSwap || !isFrame(html)) return;
    e.detail.shouldSwap = false;
    receive(withoutOlderFrame(html));
  });

  function withoutOlderFrame(html) {
    var frame = document.getElementById("table-frame");
    var shown = frame ? Number(frame.getAttribute("data-version")) : 0;
    var drawn = /id="table-frame"[^>]*?data-version="(\d+)"/.exec(html);
    if (!drawn || Number(drawn[1]) >= shown) return html;
    var holder = document.createElement("template");
    holder.innerHTML = html;
    ["table-frame", "table-data"].forEach(function (id) {
      var old = holder.content.getElementById(id);
      if (old) old.remove();
    });
    return holder.innerHTML;
  }

  /* A notice naming a page to go on to (a tournament moved this player to another table
     between hands): shown for a moment, then that page opens without a tap. */
  function follow() {
    var notice = document.getElementById("table-notice");
    var url = notice && notice.getAttribute("data-url");
    if (url && url.charAt(0) === "/" && url.charAt(1) !== "/") {
      notice.removeAttribute("data-url");
      setTimeout(function () { window.location.assign(url); }, 1500);
    }
  }

  /* A frame at a later version, or a notice, answers the action sent last. */
  function answered(html) {
    if (!pending) return;
    var frame = document.getElementById("table-frame");
    var version = frame ? Number(frame.getAttribute("data-version")) : 0;
    if (version > pending.version || html.indexOf('id="table-notice"') !== -1) {
      pending = null;
      pendingTimer = clear(pendingTimer);
      if (frame) frame.removeAttribute("data-sending");
    }
  }

  /* An action no frame or notice answered for a while (it should take well under a second):
     ask the server what became of it rather than leave the buttons waiting. */
  function stillPending() {
    pendingTimer = null;
    if (pending && state === "open") {
      ask({ type: "sync", action_id: pending.id, version: pending.version, seat: pending.seat });
    }
  }

  function send(message) {
    if (!socket || state !== "open" || socket.readyState !== WebSocket.OPEN) return false;
    try {
      socket.send(JSON.stringify(message));
    } catch (e) {
      return false;
    }
    return true;
  }

  function fields(form, submitter) {
    var values = {};
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    data.forEach(function (value, key) {
      if (key !== "csrfmiddlewaretoken") values[key] = value;
    });
    return values;
  }

  /* Every ws-send form of the table goes through here (capture: before any other handler). */
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!root || !form.hasAttribute || !form.hasAttribute("ws-send") || !root.contains(form)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (state !== "open") {
      notConnected();
      return;
    }
    var message = fields(form, e.submitter);
    var frame = document.getElementById("table-frame");
    if (message.type === "action") {
      if (pending && String(pending.version) === String(message.version)) {
        Holdem.toast && Holdem.toast(root.getAttribute("data-sending-text") || "");
        return;  // a second tap on the same frame: the first is on its way
      }
    }
    if (!send(message)) {
      notConnected();
      return;
    }
    if (message.type === "action") {
      pending = {
        id: message.action_id,
        version: Number(message.version) || 0,
        seat: message.seat === undefined || message.seat === "" ? null : Number(message.seat),
      };
      pendingTimer = clear(pendingTimer);
      pendingTimer = window.setTimeout(stillPending, PENDING_WAIT);
      if (frame) frame.setAttribute("data-sending", "");
    }
    fire("holdem:sent", { message: message }, form);
  }, true);

  function notConnected() {
    var text = root && root.getAttribute("data-offline-text");
    if (text && Holdem.toast) Holdem.toast(text);
    wake("tap");
  }

  /* New content arrives while the socket is down only from the page itself; keep it in step. */
  document.addEventListener("htmx:load", function () {
    if (state !== "open") disableControls(true);
  });

  document.addEventListener("visibilitychange", function () {
    if (visible()) wake("visible");
    else hiddenAt = now();
  });
  window.addEventListener("online", function () { wake("online"); });
  window.addEventListener("offline", function () {
    // The browser knows the network is gone: don't wait for the socket to find out.
    if (socket && state === "open") ask({ type: "ping" });
  });
  window.addEventListener("focus", function () { wake("focus"); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) wake("pageshow"); });
  window.addEventListener("pagehide", function (e) {
    // Into the back-forward cache: close cleanly; pageshow opens a new one.
    if (e.persisted && socket) {
      var old = socket;
      socket = null;
      try { old.close(1000); } catch (err) { /* closed */ }
      setState("closed");
      retryTimer = clear(retryTimer);
    }
  });

  Holdem.live = {
    send: send,
    state: function () { return state; },
    reconnect: function () { tries = 0; connect(); },
    delayFor: delayFor,  /* for tests: the back-off's policy */
    connectWait: connectWait,  /* for tests: how long a try is given */
    handshake: function () { return handshake; },  /* for tests: the last one timed */
  };

  function start() {
    root = document.getElementById("table-live");
    if (!root || !root.getAttribute("data-ws-url")) return;
    firstUrl = root.getAttribute("data-ws-url");
    firstUrl += (firstUrl.indexOf("?") === -1 ? "?" : "&") + "parts=1";
    baseUrl = firstUrl.replace(/([?&])v=\d+&?/, "$1").replace(/[?&]$/, "");
    connect();
  }

  /* Connect once every deferred script has run (DOMContentLoaded): the browser runs other tasks
     between deferred scripts, and a socket opened earlier could deliver its "open" and first
     frame before the scripts after this one (chat.js, odds.js) listen. */
  var started = false;
  function startOnce() {
    if (started) return;
    started = true;
    start();
  }
  if (document.readyState === "complete") startOnce();
  else {
    document.addEventListener("DOMContentLoaded", startOnce);
    window.addEventListener("load", startOnce);
  }
})();
