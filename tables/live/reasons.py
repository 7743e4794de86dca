"""Why a computer player did that, in words: the read side of its reasons.

At a learning table each computer player's action is kept with the public part of its reason
(``tables.write.reasons``). A tap on its last action (the badge at its seat) asks
``tables.pages.why`` for it; this module finds it and says it in the viewer's language, in the
first person ("I raised: Asha folds to a bet about 60% of the time").

**What is said, and when** (the policy: nothing a real player would not say at the table):

- While its cards are hidden, only what anyone at the table knows or could work out: the kind
  of spot, the pot and the price of a call (pot odds), its position and the players still to
  act, its stack in big blinds, its read of the players it faces (from the public history of
  the game: how often they play, raise, fold to a bet...) and, for a bet or raise, how often
  it reckoned everyone would fold (rounded to ten points). Never its cards, its hand's
  strength, its share of the pot or whether it was bluffing: those are never even stored.
- Once its cards are face up to everyone (shown at the showdown, or turned over in an all-in
  run-out), one more line: its hand's strength in coarse words ("a strong hand") at the street
  it acted on, from the same function the bot used (``engine.bots.reasons.strength_of``),
  worked out from the cards everyone sees. A hand it mucked or won without a showdown stays
  unsaid, after the hand as during it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.bots.reasons import strength_of
from engine.cards import parse_card
from engine.views import hand_view
from tables.cache import ROW_FIELDS, Snapshot
from tables.draw.explain import percent
from tables.models import Table

_LEARNING_AT = ROW_FIELDS.index("learning")
_REASONS_AT = ROW_FIELDS.index("bot_reasons")


def learning_on(snapshot: Snapshot) -> bool:
    """Against the computer always; elsewhere when the host turned the learning table on."""
    if snapshot.mode == Table.Mode.COMPUTER:
        return True
    return bool(snapshot.row[_LEARNING_AT]) if snapshot.row is not None else False


def last_reasons(snapshot: Snapshot) -> dict[int, dict[str, Any]]:
    """The public reason of each computer seat's last action in the hand on the table (only
    when its last action has one: a computer that failed and was folded for has none)."""
    game = snapshot.game
    if game is None or game.hand is None or snapshot.row is None or not learning_on(snapshot):
        return {}
    kept: list[dict[str, Any]] = snapshot.row[_REASONS_AT] or []
    if not kept:
        return {}
    memo = snapshot.memo.get("last_reasons")
    if memo is not None:
        found: dict[int, dict[str, Any]] = memo
        return found
    number = game.hand_number
    last: dict[int, int] = {}
    for i, action in enumerate(game.hand.actions):
        last[action.seat] = i
    by_index = {r["i"]: r for r in kept if r.get("hand") == number}
    out = {seat: by_index[i] for seat, i in last.items() if i in by_index}
    snapshot.memo["last_reasons"] = out
    return out


def badges(snapshot: Snapshot) -> dict[int, str]:
    """The action each computer seat's badge names (only seats whose last action has a
    reason): what every phone draws, public."""
    return {seat: r["action"] for seat, r in last_reasons(snapshot).items()}


def shown_hole(snapshot: Snapshot, seat: int) -> tuple[int, int] | None:
    """``seat``'s two cards if they are face up to everyone (card ids), else None."""
    game = snapshot.game
    if game is None or game.hand is None:
        return None
    memo_key = ("spectator_cards",)
    cards: dict[int, list[str]] | None = snapshot.memo.get(memo_key)
    if cards is None:
        view = hand_view(game.hand, None)
        cards = {int(p["seat"]): p["cards"] for p in view["players"] if p.get("cards")}
        snapshot.memo[memo_key] = cards
    found = cards.get(seat)
    if not found or len(found) != 2:  # (the spectator's view holds shown cards only)
        return None
    return parse_card(found[0]).id, parse_card(found[1]).id


def board_at(snapshot: Snapshot, street: int) -> tuple[int, ...]:
    game = snapshot.game
    assert game is not None and game.hand is not None
    size = (0, 3, 4, 5)[street]
    return tuple(card.id for card in game.hand.board[:size])


# ------------------------------------------------------------------ words
def _did(name: str, reason: dict[str, Any]) -> str:
    """The title: what the computer did ("Why Rivet raised")."""
    action = reason["action"]
    texts = {
        "fold": _("Why %(name)s folded"),
        "check": _("Why %(name)s checked"),
        "call": _("Why %(name)s called"),
        "bet": _("Why %(name)s bet"),
        "raise": _("Why %(name)s raised"),
        "all_in": _("Why %(name)s went all in"),
    }
    return texts.get(action, texts["check"]) % {"name": name}


def _situation(reason: dict[str, Any]) -> str:
    pot = int(reason["pot"])
    amount = reason.get("amount")
    behind = int(reason["behind"])
    texts = {
        "open": _("Nobody had raised: I raised first."),
        "raise_limpers": _("Others had only called the big blind: I raised."),
        "push_short": _("With a short stack (%(bb)s big blinds) it is all in or fold.")
        % {"bb": reason["stack_bb"]},
        "limp": _("I called just the big blind to see the flop."),
        "check_option": _("Nobody raised my big blind: I saw the flop for free."),
        "fold_preflop": _("Not a hand I play from this seat."),
        "call_raise": _("I called the raise."),
        "reraise": _("I raised again (a re-raise)."),
        "fold_to_raise": _("I folded to the raise."),
        "bet": _("I bet."),
        "raise": _("I raised the bet."),
        "call": _("I called the bet."),
        "fold": _("I folded to the bet."),
        "check": _("I checked."),
    }
    text = texts.get(reason["situation"], "")
    if reason["situation"] == "bet" and amount and pot:
        text = _("I bet %(share)s of the pot.") % {"share": percent(int(amount) / pot)}
    if behind and reason["street"] == 0 and reason["situation"] in ("open", "raise_limpers"):
        text += " " + _("Players still to act after me: %(n)s.") % {"n": behind}
    return text


def _position(reason: dict[str, Any]) -> str:
    texts = {
        "in_position": _("After the flop I act last (in position): I see what the others do "
                         "first."),
        "out_of_position": _("After the flop I act before the others (out of position)."),
        "button": _("I was on the button: I act last after the flop."),
        "small_blind": _("I was in the small blind."),
        "big_blind": _("I was in the big blind."),
        "late": _("I was in a late seat: few players act after me."),
        "early": _("I was in an early seat: many players act after me."),
    }
    return texts.get(reason["position"], "")


def _price(reason: dict[str, Any]) -> str:
    call, pot = int(reason["to_call"]), int(reason["pot"])
    if call <= 0 or reason["action"] in ("bet",):
        return ""
    return _("Pot odds: call %(call)s to win %(pot)s, so a call needs %(need)s.") % {
        "call": call, "pot": pot, "need": percent(call / (pot + call)),
    }


def _read(read: dict[str, Any], names: dict[int, str]) -> str:
    name = names.get(int(read["seat"]), "?")
    values = {"name": name, "rate": percent(float(read["rate"])), "hands": read["hands"]}
    texts = {
        "vpip": _("%(name)s plays about %(rate)s of hands (%(hands)s hands seen)."),
        "pfr": _("%(name)s raises about %(rate)s of hands before the flop (%(hands)s hands "
                 "seen)."),
        "reraise": _("%(name)s raises again about %(rate)s of the time when raised "
                     "(%(hands)s hands seen)."),
        "fold_to_bet": _("%(name)s folds to a bet about %(rate)s of the time (%(hands)s "
                         "hands seen)."),
        "aggression": _("%(name)s bets or raises rather than calls about %(rate)s of the time "
                        "(%(hands)s hands seen)."),
        "bet_rate": _("%(name)s bets about %(rate)s of the time after the flop (%(hands)s "
                      "hands seen)."),
    }
    text = texts.get(read["stat"])
    return text % values if text else ""


def _strength(strength: str) -> str:
    texts = {
        "very_strong": _("My hand was very strong (now that my cards are shown)."),
        "strong": _("My hand was strong (now that my cards are shown)."),
        "fair": _("My hand was fair, or a draw (now that my cards are shown)."),
        "weak": _("My hand was weak (now that my cards are shown)."),
    }
    return texts.get(strength, "")


def words(snapshot: Snapshot, seat: int) -> tuple[str, list[str]] | None:
    """The title and lines telling why the computer in ``seat`` took its last action, in the
    active language (None when there is nothing to tell)."""
    reason = last_reasons(snapshot).get(seat)
    if reason is None:
        return None
    names = {position: info.name for position, info in snapshot.seats.items()}
    lines = [_situation(reason), _price(reason), _position(reason)]
    lines += [_read(r, names) for r in reason.get("reads", [])]
    fold = reason.get("fold")
    if fold is not None and reason["action"] in ("bet", "raise", "all_in"):
        lines.append(_("I reckoned everyone would fold about %(rate)s of the time.") % {
            "rate": percent(float(fold)),
        })
    hole = shown_hole(snapshot, seat)
    if hole is not None:
        lines.append(_strength(strength_of(hole, board_at(snapshot, int(reason["street"])))))
    return _did(snapshot.name(seat), reason), [line for line in lines if line]
