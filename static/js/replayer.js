/* Replays one hand step by step from the events this player was allowed to see
   (templates/history/replayer.html). Nothing hidden is ever in the data: other players' cards
   appear only where they were shown at the table. */
(function () {
  "use strict";

  var root = document.querySelector("[data-replayer]");
  var source = document.getElementById("replay-data");
  if (!root || !source) return;
  var data = JSON.parse(source.textContent);
  var events = data.events || [];
  var lines = data.lines || [];
  var ranks = (root.getAttribute("data-ranks") || "").split(",");
  var suits = (root.getAttribute("data-suits") || "").split(",");
  var sprite = root.getAttribute("data-sprite") || "";
  var label = function (name) { return root.getAttribute("data-label-" + name) || ""; };
  var step = 0; /* how many events have happened */

  /* Steps worth stopping at: everything but the private bookkeeping of dealing. */
  var stops = [0];
  events.forEach(function (e, i) {
    if (e.kind === "burn" || e.kind === "hand_end") return;
    if (e.kind === "deal_hole" && e.seat !== data.viewer) return;
    stops.push(i + 1);
  });
  if (stops[stops.length - 1] !== events.length) stops.push(events.length);

  function cardEl(code, win) {
    var el = document.createElement("span");
    if (!code) {
      el.className = "card card--sm card--back";
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", label("back"));
      return el;
    }
    var r = code.charAt(0).toUpperCase();
    var s = code.charAt(1).toLowerCase();
    var ri = "23456789TJQKA".indexOf(r);
    var si = "shdc".indexOf(s);
    el.className = "card card--md" + (win ? " card--win" : "");
    el.setAttribute("data-suit", s);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label",
      (root.getAttribute("data-card-name") || "%r of %s").replace("%r", ranks[ri] || r).replace("%s", suits[si] || s));
    var svg = '<svg class="card__pip" focusable="false"><use href="' + sprite + "#suit-" + s + '"></use></svg>';
    el.innerHTML = '<span class="card__corner" aria-hidden="true"><span class="card__rank">' +
      (r === "T" ? "10" : r) + "</span>" + svg + "</span>" +
      '<svg class="card__face" aria-hidden="true" focusable="false"><use href="' + sprite + "#suit-" + s + '"></use></svg>';
    return el;
  }

  /* The table after the first n events. */
  function stateAt(n) {
    var st = { board: [], pot: 0, line: "", street: "preflop", winners: {}, winCards: [] };
    st.seats = {};
    (data.seats || []).forEach(function (p) {
      st.seats[p.seat] = { seat: p.seat, name: p.name, stack: p.stack, bet: 0, cards: null, folded: false, allIn: false, won: 0 };
    });
    for (var i = 0; i < n; i++) {
      var e = events[i];
      var p = st.seats[e.seat];
      if (lines[i]) st.line = lines[i];
      /* A new street, or the award: the bets on the table go into the pot first. */
      if (e.kind === "board" || e.kind === "award") {
        Object.keys(st.seats).forEach(function (k) { st.pot += st.seats[k].bet; st.seats[k].bet = 0; });
      }
      switch (e.kind) {
        case "post_sb": case "post_bb": case "action":
          if (!p) break;
          if (e.action === "fold") { p.folded = true; break; }
          p.stack -= e.amount || 0;
          p.bet += e.amount || 0;
          if (e.all_in || p.stack === 0) p.allIn = true;
          break;
        case "deal_hole": case "show":
          if (p && e.cards) p.cards = e.cards.slice();
          break;
        case "board":
          st.board = st.board.concat(e.cards || []);
          st.street = e.street || st.street;
          break;
        case "uncalled":
          if (p) { p.stack += e.amount || 0; p.bet -= e.amount || 0; }
          break;
        case "award":
          st.pot -= e.amount || 0;
          if (p) { p.stack += e.amount || 0; p.won += e.amount || 0; }
          st.street = "end";
          if (e.cards) st.winCards = st.winCards.concat(e.cards);
          break;
      }
    }
    return st;
  }

  function seatEl(p, st) {
    var li = document.createElement("li");
    var div = document.createElement("div");
    div.className = "seat" + (p.folded ? " seat--folded" : "") + (p.won ? " seat--won" : "");
    div.setAttribute("data-seat", p.seat);
    var marks = p.seat === data.button
      ? '<div class="seat__marks"><span class="marker marker--button"><span aria-hidden="true">D</span><span class="visually-hidden">' + label("dealer") + "</span></span></div>" : "";
    div.innerHTML = '<div class="seat__avatar" aria-hidden="true"><span class="seat__initial"></span></div>' +
      '<div class="seat__info"><span class="seat__name"></span><span class="seat__stack"></span></div>' + marks;
    div.querySelector(".seat__initial").textContent = (p.name || "?").charAt(0).toUpperCase();
    div.querySelector(".seat__name").textContent = p.name;
    div.querySelector(".seat__stack").textContent = p.stack;
    if (p.folded || p.allIn) {
      var state = document.createElement("span");
      state.className = "seat__state" + (p.allIn && !p.folded ? " seat__state--all-in" : "");
      state.textContent = p.folded ? label("folded") : label("all-in");
      div.appendChild(state);
    }
    var cards = document.createElement("div");
    cards.className = "seat__cards";
    if (p.cards) p.cards.forEach(function (c) {
      var el = cardEl(c, st.winCards.indexOf(c) >= 0);
      el.className = el.className.replace("card--md", "card--sm");
      cards.appendChild(el);
    });
    div.appendChild(cards);
    if (p.bet) div.appendChild(chipsEl(p.bet, "bet", "", "seat__bet x-centred"));
    li.appendChild(div);
    return li;
  }

  function chipsEl(amount, kind, text, wrapClass) {
    var wrap = document.createElement("div");
    if (wrapClass) wrap.className = wrapClass;
    var chips = document.createElement("span");
    chips.className = "chips chips--" + kind;
    chips.innerHTML = '<svg class="chips__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">' +
      '<ellipse class="chips__rim" cx="12" cy="17" rx="9" ry="3.6"/><ellipse class="chips__rim" cx="12" cy="13" rx="9" ry="3.6"/>' +
      '<ellipse class="chips__top" cx="12" cy="9" rx="9" ry="3.6"/></svg>';
    if (text) {
      var l = document.createElement("span");
      l.className = "chips__label";
      l.textContent = text;
      chips.appendChild(l);
    }
    var a = document.createElement("span");
    a.className = "chips__amount";
    a.textContent = amount;
    chips.appendChild(a);
    wrap.appendChild(chips);
    return wrap;
  }

  function render() {
    var st = stateAt(stops[step]);
    var seatsBox = root.querySelector("[data-replay-seats]");
    var me = root.querySelector("[data-replay-me]");
    seatsBox.innerHTML = "";
    me.innerHTML = "";
    /* Drawn from the viewer's seat: it at the bottom, the others to its left round the top. */
    var order = (data.seats || []).map(function (p) { return p.seat; });
    var at = order.indexOf(data.viewer);
    if (at > 0) order = order.slice(at).concat(order.slice(0, at));
    order.forEach(function (seat) {
      var p = st.seats[seat];
      if (seat === data.viewer) {
        var cards = document.createElement("div");
        cards.className = "me__cards";
        (p.cards || []).forEach(function (c) {
          var el = cardEl(c, st.winCards.indexOf(c) >= 0);
          el.className = el.className.replace("card--md", "card--lg");
          cards.appendChild(el);
        });
        var name = document.createElement("div");
        name.className = "me__name";
        name.textContent = p.name + " (" + label("you") + ")";
        var stack = document.createElement("div");
        stack.className = "me__stack";
        stack.textContent = p.stack;
        me.append(cards, name, stack);
        if (p.bet) me.appendChild(chipsEl(p.bet, "bet", "", "me__bet"));
      } else {
        seatsBox.appendChild(seatEl(p, st));
      }
    });
    var board = root.querySelector("[data-replay-board]");
    board.innerHTML = "";
    st.board.forEach(function (c) { board.appendChild(cardEl(c, st.winCards.indexOf(c) >= 0)); });
    for (var i = st.board.length; i < 5; i++) {
      var slot = document.createElement("span");
      slot.className = "card-slot";
      slot.setAttribute("aria-hidden", "true");
      board.appendChild(slot);
    }
    var pot = root.querySelector("[data-replay-pot]");
    pot.innerHTML = "";
    if (st.pot > 0) pot.appendChild(chipsEl(st.pot, "pot", label("main-pot")));
    var line = root.querySelector("[data-replay-line]");
    line.textContent = st.line;
    line.hidden = !st.line;
    var counter = root.querySelector("[data-replay-step]");
    if (counter) {
      counter.textContent = (root.getAttribute("data-label-step") || "%n / %t")
        .replace("%n", String(step)).replace("%t", String(stops.length - 1));
    }
    drawOdds(st);
    drawExplain();
    root.querySelector("[data-replay=start]").disabled = step === 0;
    root.querySelector("[data-replay=back]").disabled = step === 0;
    root.querySelector("[data-replay=next]").disabled = step === stops.length - 1;
    root.querySelector("[data-replay=end]").disabled = step === stops.length - 1;
  }

  /* Each face-up hand's chance at its seat while the board is run out (data.odds). */
  function drawOdds(st) {
    var odds = data.odds;
    if (!odds || st.street === "end") return;
    var stage = null;
    odds.stages.forEach(function (s) { if (s.board === st.board.length) stage = s; });
    if (!stage) return;
    odds.seats.forEach(function (seat, j) {
      var p = st.seats[seat];
      if (!p || !p.cards) return; /* not turned up yet at this step */
      var place = seat === data.viewer ? root.querySelector("[data-replay-me]")
        : root.querySelector('[data-replay-seats] .seat[data-seat="' + seat + '"]');
      if (!place) return;
      var el = document.createElement("span");
      el.className = "odds-badge x-centred";
      el.setAttribute("data-testid", "replay-odds-" + seat);
      var b = document.createElement("b");
      b.textContent = label("win") + " " + (stage.win[j] / 10).toFixed(1) + "%";
      el.appendChild(b);
      if (stage.split[j] > 0) {
        var small = document.createElement("small");
        small.textContent = label("split") + " " + (stage.split[j] / 10).toFixed(1) + "%";
        el.appendChild(small);
      }
      place.appendChild(el);
    });
  }

  /* The viewer's own decision at this step, in figures (data.explain: event index -> lines). */
  function drawExplain() {
    var box = root.querySelector("[data-replay-explain]");
    if (!box) return;
    var lines = (data.explain || {})[String(stops[step] - 1)];
    box.innerHTML = "";
    box.hidden = !lines;
    if (!lines) return;
    var h = document.createElement("h2");
    h.className = "explain__title";
    h.textContent = label("decision");
    var list = document.createElement("ul");
    list.className = "explain__lines";
    lines.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
    box.append(h, list);
  }

  function jumpToStreet(name) {
    if (name === "end") { step = stops.length - 1; return; }
    if (name === "preflop") { step = 0; return; }
    for (var i = 0; i < stops.length; i++) {
      var e = events[stops[i] - 1];
      if (e && e.kind === "board" && e.street === name) { step = i; return; }
    }
  }

  root.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    var what = b.getAttribute("data-replay");
    if (what === "start") step = 0;
    else if (what === "back") step = Math.max(0, step - 1);
    else if (what === "next") step = Math.min(stops.length - 1, step + 1);
    else if (what === "end") step = stops.length - 1;
    else if (b.hasAttribute("data-replay-street")) jumpToStreet(b.getAttribute("data-replay-street"));
    else return;
    render();
  });

  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea")) return;
    if (e.key === "ArrowRight") { step = Math.min(stops.length - 1, step + 1); render(); }
    if (e.key === "ArrowLeft") { step = Math.max(0, step - 1); render(); }
  });

  render();
})();
