/* Shared helpers for every page: the screen-reader live region, toasts, announcements carried
   in server-rendered views, the fold-with-a-free-check confirmation, the chip slide at showdown
   and the connection banner. Pages are swapped in by htmx, so everything works by event
   delegation or on "htmx:load" (which also fires for the first page). No build step. */
(function () {
  "use strict";

  var Holdem = (window.Holdem = window.Holdem || {});
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  Holdem.reducedMotion = function () {
    return !!(reduceMotion && reduceMotion.matches);
  };

  /* Run fn for the first page and for every piece of content htmx swaps in. */
  Holdem.onLoad = function (fn) {
    document.addEventListener("htmx:load", function (e) { fn(e.target); });
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { fn(document.body); });
    } else {
      fn(document.body);
    }
  };

  /* Run fn for the first page and whenever a new table frame arrives, not for the other pieces
     htmx swaps in (chat lines, notices): fn looks at the whole table and measures boxes, which
     makes the browser lay out the page, a cost a slow phone should pay once per view only. */
  Holdem.onFrame = function (fn) {
    Holdem.onLoad(function (root) {
      if (root === document.body || (root && root.id === "table-frame")) fn(root);
    });
  };

  /* Every element matching selector in root, root itself included (htmx may swap in the
     element itself). */
  Holdem.all = function (root, selector) {
    if (!root || !root.querySelectorAll) return [];
    var found = Array.prototype.slice.call(root.querySelectorAll(selector));
    if (root.matches && root.matches(selector)) found.unshift(root);
    return found;
  };

  /* Say something to screen readers. The region is emptied first so a repeated sentence
     ("Your turn") is read again. */
  Holdem.announce = function (text, assertive) {
    var region = document.getElementById(assertive ? "live-assertive" : "live");
    if (!region || !text) return;
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 60);
  };

  var toastTimer = null;
  Holdem.toast = function (text) {
    var old = document.querySelector(".toast");
    if (old) old.remove();
    var el = document.createElement("div");
    el.className = "toast";
    el.setAttribute("role", "status");
    el.textContent = text;
    document.body.appendChild(el);
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(function () { el.remove(); }, 2600);
  };

  Holdem.storage = {
    get: function (key) {
      try { return window.localStorage.getItem("holdem." + key); } catch (e) { return null; }
    },
    set: function (key, value) {
      try { window.localStorage.setItem("holdem." + key, value); } catch (e) { /* private mode */ }
    },
    remove: function (key) {
      try { window.localStorage.removeItem("holdem." + key); } catch (e) { /* private mode */ }
    },
  };

  /* Views mark sentences to read aloud with data-announce and a data-announce-id that changes
     when the sentence is new ("Asha raises to 120", "Your turn"). Each id is read once. */
  var announced = new Set();
  Holdem.onLoad(function (root) {
    var items = Holdem.all(root, "[data-announce]");
    var fresh = [];
    items.forEach(function (el) {
      var id = el.getAttribute("data-announce-id") || el.textContent.trim();
      if (announced.has(id)) return;
      announced.add(id);
      fresh.push(el.getAttribute("data-announce") || el.textContent.trim());
    });
    if (fresh.length) Holdem.announce(fresh.join(". "));
  });

  /* Folding when checking is free: ask first. The fold button carries the question and the two
     answers; "Check" presses the real check button so the same path sends the action. A new
     view of the table (the turn timed out, the hand moved on, the player was moved to another
     table) closes the question unanswered: its answers belonged to a turn that is gone, and
     an open modal dialog would leave every other button of the page untappable. */
  var asking = null;
  Holdem.onFrame(function () {
    if (asking && !document.body.contains(asking.fold)) asking.close();
  });
  document.addEventListener("click", function (e) {
    var fold = e.target.closest && e.target.closest("[data-confirm-fold]");
    if (!fold || fold.dataset.confirmed === "1") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    var dialog = document.createElement("dialog");
    dialog.className = "confirm";
    dialog.setAttribute("aria-labelledby", "fold-confirm-title");
    var title = document.createElement("h2");
    title.id = "fold-confirm-title";
    title.textContent = fold.getAttribute("data-confirm-fold");
    var row = document.createElement("div");
    row.className = "row";
    var keep = document.createElement("button");
    keep.type = "button";
    keep.className = "btn btn--primary";
    keep.textContent = fold.getAttribute("data-confirm-check") || "Check";
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "btn btn--danger";
    yes.textContent = fold.getAttribute("data-confirm-yes") || "Fold";
    row.append(yes, keep);
    dialog.append(title, row);
    document.body.appendChild(dialog);
    var close = function () {
      if (dialog.open) dialog.close();
      dialog.remove();
      if (asking && asking.dialog === dialog) asking = null;
    };
    asking = { fold: fold, dialog: dialog, close: close };
    keep.addEventListener("click", function () {
      close();
      var check = document.querySelector("[data-act='check']");
      if (check) check.click();
    });
    yes.addEventListener("click", function () {
      close();
      fold.dataset.confirmed = "1";
      fold.click();
    });
    dialog.addEventListener("cancel", function () { close(); });
    dialog.showModal();
    keep.focus();
  }, true);

  /* Chips slide from the pots to each winner once per hand: the pots carry data-award-key
     (set when the hand is over), winners carry .seat--won. Skipped for reduced motion. */
  var slid = new Set();
  Holdem.onFrame(function () {
    if (Holdem.reducedMotion()) return;
    var pots = document.querySelector("[data-pots]");
    var key = pots && pots.getAttribute("data-award-key");
    if (!key || slid.has(key)) return;
    slid.add(key);
    /* An all-in run-out is dealt street by street first (odds.js): the chips wait for it. */
    var wait = Holdem.runoutWait ? Holdem.runoutWait() : 0;
    if (wait > 0) window.setTimeout(function () { slide(key); }, wait);
    else slide(key);
  });
  function slide(key) {
    var pots = document.querySelector("[data-pots]");
    if (!pots || pots.getAttribute("data-award-key") !== key) return;
    var icon = pots.querySelector(".chips__icon") || pots;
    var from = icon.getBoundingClientRect();
    document.querySelectorAll(".seat--won").forEach(function (seat) {
      var target = seat.querySelector(".seat__avatar, .me__stack") || seat;
      var to = target.getBoundingClientRect();
      var dx = to.left + to.width / 2 - (from.left + from.width / 2);
      var dy = to.top + to.height / 2 - (from.top + from.height / 2);
      for (var i = 0; i < 5; i++) {
        flyChip(icon, from, 18, "translate(" + dx + "px," + dy + "px) scale(0.8)", "0.3", 1700, 250 + i * 80);
      }
    });
  }

  /* A copy of a chip icon laid over the page where the rect `from` is (at least `least` pixels
     square), that moves by `move` (a transform) from the next frame on, after `delay` ms if
     given, fading to `opacity`, and is gone after `life` ms. */
  function flyChip(icon, from, least, move, opacity, life, delay) {
    var chip = icon.cloneNode(true);
    chip.classList.add("chip-fly");
    /* Its colours come from the stack it leaves (.chips--pot, --bet...), not from the body. */
    chip.style.setProperty("--chip", window.getComputedStyle(icon).getPropertyValue("--chip"));
    chip.setAttribute("aria-hidden", "true");
    chip.style.left = from.left + "px";
    chip.style.top = from.top + "px";
    chip.style.width = Math.max(from.width, least) + "px";
    chip.style.height = Math.max(from.height, least) + "px";
    if (delay) chip.style.transitionDelay = delay + "ms";
    document.body.appendChild(chip);
    window.requestAnimationFrame(function () {
      window.requestAnimationFrame(function () {
        chip.style.transform = move;
        chip.style.opacity = opacity;
      });
    });
    window.setTimeout(function () { chip.remove(); }, life);
  }

  /* Each view replaces the whole table, so only cards that were not on screen before are dealt
     in with a little movement (.card--new); the rest stay still. */
  var onScreen = new Set();
  Holdem.onFrame(function () {
    var now = new Set();
    document.querySelectorAll("#board .card[data-card], #my-cards .card[data-card]").forEach(function (card) {
      var key = card.closest("#board") ? "b" + card.getAttribute("data-card") : "m" + card.getAttribute("data-card");
      now.add(key);
      if (!onScreen.has(key)) card.classList.add("card--new");
    });
    onScreen = now;
  });

  /* Cards shown at the showdown turn over (.card--turned), once each. */
  var shownBefore = new Set();
  Holdem.onFrame(function () {
    var now = new Set();
    document.querySelectorAll("#seats .card[data-card]").forEach(function (card) {
      var seat = card.closest("[data-seat]");
      var key = (seat ? seat.getAttribute("data-seat") : "") + card.getAttribute("data-card");
      now.add(key);
      if (!shownBefore.has(key)) card.classList.add("card--turned");
    });
    shownBefore = now;
  });

  /* Bets go into the pot: when a street ends, each bet that was on the table slides from where
     it was to the pots. Only transforms move (no layout shift); skipped for reduced motion. */
  var betsBefore = null;
  Holdem.onFrame(function () {
    var hand = document.querySelector("[data-hand]");
    var number = hand ? hand.getAttribute("data-hand") : "";
    var bets = {};
    document.querySelectorAll(".seat__bet, .me__bet").forEach(function (bet) {
      var seat = bet.closest("[data-seat]");
      var icon = bet.querySelector(".chips__icon");
      if (seat && icon) bets[seat.getAttribute("data-seat")] = icon.getBoundingClientRect();
    });
    var before = betsBefore;
    betsBefore = { hand: number, bets: bets };
    if (!before || before.hand !== number || Holdem.reducedMotion()) return;
    var pot = document.querySelector("#pots .chips__icon");
    if (!pot) return;
    var to = pot.getBoundingClientRect();
    Object.keys(before.bets).forEach(function (seat) {
      if (bets[seat]) return;
      var from = before.bets[seat];
      flyChip(pot, from, 16, "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px)", "0.2", 900);
    });
  });

  /* Forms that arrive over the websocket were rendered without a CSRF token; a plain POST (the
     language switch) takes the page's token from the body's hx-headers, and comes back here. */
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if ((form.method || "").toLowerCase() !== "post") return;
    if (form.hasAttribute("ws-send") || form.hasAttribute("hx-post")) return; /* live.js, htmx */
    if (!form.querySelector("[name=csrfmiddlewaretoken]")) {
      try {
        var token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
        if (token) {
          var input = document.createElement("input");
          input.type = "hidden";
          input.name = "csrfmiddlewaretoken";
          input.value = token;
          form.appendChild(input);
        }
      } catch (err) { /* no token: the server will say so */ }
    }
    var next = form.querySelector("input[name=next]");
    if (next && !next.value) next.value = window.location.pathname + window.location.search;
  }, true);

  /* Join codes: capitals, no spaces or dashes, whatever the phone's keyboard did. The server
     forgives the same things, so this is only for what the person sees. */
  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!input.matches || !input.matches("[data-code-input]")) return;
    var cleaned = input.value.toUpperCase().replace(/[^0-9A-Z]/g, "");
    if (cleaned !== input.value) {
      var end = input.selectionEnd === input.value.length;
      input.value = cleaned;
      if (end) input.setSelectionRange(cleaned.length, cleaned.length);
    }
  });

  /* A new view from the server replaces the frame; what the person was typing (their name on
     the join form, an amount) must survive it, and so must the focus. */
  var typed = null;
  document.addEventListener("holdem:frame-before", function () {
    typed = { values: {}, focus: document.activeElement && document.activeElement.id };
    document.querySelectorAll("#table-frame input[id]").forEach(function (input) {
      if (input.type !== "hidden" && input.type !== "checkbox" && input.type !== "radio" &&
          input.value !== input.defaultValue) {
        typed.values[input.id] = input.value;
      }
    });
  });
  document.addEventListener("holdem:frame-after", function () {
    if (!typed) return;
    Object.keys(typed.values).forEach(function (id) {
      var input = document.getElementById(id);
      if (input && input.value === input.defaultValue) input.value = typed.values[id];
    });
    if (typed.focus && document.activeElement === document.body) {
      var again = document.getElementById(typed.focus);
      if (again) again.focus();
    }
    typed = null;
  });

  /* The "what happened this hand" drawer is left as the person left it by a new view. Open, it
     stays the very same elements (a tap on "Earlier hands" lands, however often the table
     changes; the scroll and the focus stay), only its lines brought up to date. When a new hand
     begins, the last hand's lines (who won) stay in it, under "Last hand". */
  var drawer = null;
  function handShown() {
    var hand = document.querySelector("#table-frame [data-hand]");
    return hand ? hand.getAttribute("data-hand") : "";
  }
  function links(node) {
    return Array.prototype.map.call(node.querySelectorAll("a"), function (a) {
      return a.getAttribute("href");
    }).join(" ");
  }
  document.addEventListener("holdem:frame-before", function () {
    var node = document.querySelector("#table-frame .log-drawer");
    drawer = node && {
      node: node, hand: handShown(),
      focused: node.contains(document.activeElement) ? document.activeElement : null,
      lines: node.querySelector("#log").innerHTML,
      last: node.querySelector("[data-log-last]"),
    };
  });
  document.addEventListener("holdem:frame-after", function () {
    var old = drawer, fresh = document.querySelector("#table-frame .log-drawer");
    drawer = null;
    if (!old || !fresh || fresh === old.node) return;
    var last = fresh.querySelector("[data-log-last]");
    if (old.hand !== handShown() && old.hand) {
      last.querySelector("[data-log-last-lines]").innerHTML = old.lines;
      last.hidden = false;
    } else if (!old.last.hidden) {
      last.querySelector("[data-log-last-lines]").innerHTML =
        old.last.querySelector("[data-log-last-lines]").innerHTML;
      last.hidden = false;
    }
    if (!old.node.open) return;
    if (links(old.node) !== links(fresh)) {
      fresh.open = true;
      return;
    }
    var lines = fresh.querySelector("#log").innerHTML;
    if (old.node.querySelector("#log").innerHTML !== lines) {
      old.node.querySelector("#log").innerHTML = lines;
    }
    if (old.last.hidden !== last.hidden || old.last.innerHTML !== last.innerHTML) {
      old.last.replaceWith(last);
    }
    fresh.replaceWith(old.node);
    if (old.focused && document.activeElement !== old.focused) old.focused.focus();
  });

  /* A name shortened with an ellipsis: a tap on its seat shows it whole (screen readers
     already read it whole). */
  document.addEventListener("click", function (e) {
    var seat = e.target.closest && e.target.closest(".seat, .me__name, .standing__name");
    if (!seat) return;
    var name = seat.querySelector(".seat__name-text, .me__name-text, .standing__name-text");
    if (name && name.scrollWidth > name.clientWidth + 1) Holdem.toast(name.textContent.trim());
  });
})();

/* A seat tapped at the table: that player's figures for this game (tables.pages.season). */
(function () {
  "use strict";
  var box, asked = 0;
  document.addEventListener("click", function (e) {
    var t = e.target, root = location.pathname.match(/^\/t\/[^/]+\//);
    if (!root || !t.closest || t.closest("button,a,input,select,textarea,form,dialog")) return;
    var seat = t.closest(".seat[data-seat]"), n = ++asked;
    if (!seat) return;
    fetch(root[0] + "stats/" + seat.getAttribute("data-seat") + "/?part=1",
          { credentials: "same-origin" })
      .then(function (r) { return r.status === 200 ? r.text() : ""; })
      .then(function (html) {
        if (!html || n !== asked) return;
        if (!box) {
          box = document.createElement("dialog");
          box.className = "confirm";
          box.setAttribute("data-testid", "seat-stats");
          box.addEventListener("click", function (ev) {
            if (ev.target === box || ev.target.closest("[data-close]")) box.close();
          });
          document.body.appendChild(box);
        }
        box.innerHTML = html;
        if (!box.open) box.showModal();
        box.querySelector("[data-close]").focus();
      })
      .catch(function () {});
  });
})();
