/* Checks a hand's deck proof in the browser (templates/history/_deck_proof.html): the
   root is SHA-256 of the 52 commitments, each card this player saw hashes, with its salt and
   deck position, to the commitment at that position (c_i = SHA-256(i, card, salt_i)), that
   position is where such a card is dealt from, and the cards are exactly those the replay
   above shows. The same checks as `python -m engine.proof FILE.json` (engine/proof.py). */
(function () {
  "use strict";

  var box = document.querySelector("[data-deck-proof]");
  if (!box) return;
  var result = box.querySelector("[data-deck-proof-result]");
  var detail = box.querySelector("[data-deck-proof-detail]");
  var label = function (name) { return box.getAttribute("data-label-" + name) || name; };

  function Failure(message) { this.message = message; }

  function show(ok, text, more) {
    result.textContent = text;
    result.className = "deck-proof__result " + (ok ? "deck-proof__result--ok" : "deck-proof__result--failed");
    box.setAttribute("data-state", ok ? "verified" : "failed");
    detail.textContent = more || "";
  }

  function hexBytes(text, size) {
    if (typeof text !== "string" || !new RegExp("^[0-9a-f]{" + 2 * size + "}$").test(text)) {
      throw new Failure(label("malformed"));
    }
    var out = new Uint8Array(size);
    for (var i = 0; i < size; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
    return out;
  }

  function hex(bytes) {
    return Array.prototype.map.call(new Uint8Array(bytes), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function concat(parts) {
    var size = parts.reduce(function (n, p) { return n + p.length; }, 0);
    var out = new Uint8Array(size);
    var at = 0;
    parts.forEach(function (p) { out.set(p, at); at += p.length; });
    return out;
  }

  function sha256(bytes) { return window.crypto.subtle.digest("SHA-256", bytes).then(hex); }

  /* Deck position -> what it is dealt as (R11): two passes of one card from the button's
     left, then burn, flop, burn, turn, burn, river. Burns are left out: never revealed. */
  function places(seats, button) {
    var ordered = seats.slice().sort(function (a, b) { return a - b; });
    var start = ordered.indexOf(button) + 1;
    var n = ordered.length;
    var map = {};
    for (var k = 0; k < n; k++) {
      var seat = ordered[(start + k) % n];
      map[k] = "hole:" + seat;
      map[n + k] = "hole:" + seat;
    }
    [1, 2, 3].forEach(function (d) { map[2 * n + d] = "flop"; });
    map[2 * n + 5] = "turn";
    map[2 * n + 7] = "river";
    return map;
  }

  /* The cards the replay shows, as "role:card" (the board by street, hole cards by seat). */
  function seenInReplay() {
    var source = document.getElementById("replay-data");
    var seen = {};
    if (!source) return seen;
    (JSON.parse(source.textContent).events || []).forEach(function (e) {
      if (!e.cards) return;
      if (e.kind === "board") e.cards.forEach(function (c) { seen[e.street + ":" + c] = c; });
      if (e.kind === "deal_hole" || e.kind === "show") {
        e.cards.forEach(function (c) { seen["hole:" + e.seat + ":" + c] = c; });
      }
    });
    return seen;
  }

  function check(proof) {
    if (!proof || proof.version !== 1 || !Array.isArray(proof.commitments) ||
        proof.commitments.length !== 52 || !Array.isArray(proof.revealed) ||
        !Array.isArray(proof.seats) || proof.seats.indexOf(proof.button) < 0) {
      throw new Failure(label("malformed"));
    }
    if (proof.root !== box.getAttribute("data-root")) throw new Failure(label("root"));
    var commitments = proof.commitments.map(function (c) { return hexBytes(c, 32); });
    hexBytes(proof.root, 32);
    var where = places(proof.seats, proof.button);
    var seen = seenInReplay();
    var found = {};
    return sha256(concat(commitments)).then(function (root) {
      if (root !== proof.root) throw new Failure(label("hash"));
      return Promise.all(proof.revealed.map(function (r) {
        var card = r && r.card;
        if (typeof card !== "string" || !/^[2-9TJQKA][shdc]$/.test(card) ||
            typeof r.position !== "number" || r.position % 1 !== 0 || r.position < 0 || r.position > 51) {
          throw new Failure(label("malformed"));
        }
        var salt = hexBytes(r.salt, 16);
        var text = new TextEncoder().encode(card);
        return sha256(concat([new Uint8Array([r.position]), text, salt])).then(function (c) {
          if (c !== proof.commitments[r.position]) {
            throw new Failure(label("card").replace("%c", card).replace("%p", String(r.position)));
          }
          var role = r.role === "hole" ? "hole:" + r.seat : r.role;
          if (where[r.position] !== role) throw new Failure(label("place").replace("%c", card));
          if ((role + ":" + card) in found) throw new Failure(label("malformed"));
          found[role + ":" + card] = card;
        });
      }));
    }).then(function () {
      Object.keys(seen).forEach(function (key) {
        if (!(key in found)) throw new Failure(label("missing").replace("%c", seen[key]));
      });
      Object.keys(found).forEach(function (key) {
        if (!(key in seen)) throw new Failure(label("extra").replace("%c", found[key]));
      });
      return proof.revealed.length;
    });
  }

  if (!window.crypto || !window.crypto.subtle || !window.TextEncoder) {
    show(false, label("no-crypto"));
    return;
  }
  result.textContent = label("checking");
  fetch(box.getAttribute("data-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) {
      if (!response.ok) throw new Failure(label("unreachable"));
      return response.json();
    })
    .then(check)
    .then(function (count) {
      show(true, label("ok"), label("ok-detail").replace("%n", String(count)));
    })
    .catch(function (error) {
      var reason = error instanceof Failure ? error.message : label("malformed");
      show(false, label("failed") + " " + reason);
    });
})();
