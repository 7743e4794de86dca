"""The action log in words ("Asha raises to 120"), from the events a viewer may see.

Hands are named in the active language: events carry the engine's English name, so the name
is worked out again from the cards (the winning five, or the shown cards with the board).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from engine.cards import parse_card
from tables.draw.hand_names import hand_name, key_of


def card_text(code: str) -> str:
    return parse_card(code).symbol


def cards_text(codes: list[str]) -> str:
    return " ".join(card_text(c) for c in codes)


def describe_events(
    events: list[dict[str, Any]], name: Callable[[int | None], str], *, keep_empty: bool = False
) -> list[str]:
    """One line per event that says something (``keep_empty``: one per event, "" if none)."""
    log = Log(name, keep_empty=keep_empty)
    log.add(events)
    return log.lines


class Log:
    """``describe_events`` as the events come: ``add`` describes only the new ones (a table's
    log grows by an event or two at every change)."""

    def __init__(self, name: Callable[[int | None], str], *, keep_empty: bool = False) -> None:
        self.name = name
        self.keep_empty = keep_empty
        self.lines: list[str] = []
        self.board: list[str] = []
        self.count = 0  # events described so far

    def add(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            line = describe(event, self.name, self.board)
            if event["kind"] == "board":
                self.board.extend(event.get("cards", []))
            if line or self.keep_empty:
                self.lines.append(line)
            self.count += 1


def _hand_text(event: dict[str, Any], cards: Sequence[str]) -> str:
    """The event's hand in the active language (its English name if the cards don't tell)."""
    key = key_of(cards) if 5 <= len(cards) <= 7 else None
    return hand_name(key) or str(event.get("hand", ""))


def describe(
    event: dict[str, Any], name: Callable[[int | None], str], board: Sequence[str] = ()
) -> str:
    """One event in words. ``board``: the board cards dealt before it (to name shown hands)."""
    kind = event["kind"]
    who = name(event.get("seat"))
    amount = event.get("amount", 0)
    all_in = _(" and is all in") if event.get("all_in") else ""
    if kind == "post_sb":
        text = _("%(name)s posts the small blind %(amount)d")
        return text % {"name": who, "amount": amount} + all_in
    if kind == "post_bb":
        text = _("%(name)s posts the big blind %(amount)d")
        return text % {"name": who, "amount": amount} + all_in
    if kind == "action":
        action = event.get("action")
        to = event.get("to", 0)
        if action == "fold":
            return _("%(name)s folds") % {"name": who}
        if action == "check":
            return _("%(name)s checks") % {"name": who}
        if action == "call":
            return _("%(name)s calls %(amount)d") % {"name": who, "amount": amount} + all_in
        if action == "bet":
            return _("%(name)s bets %(to)d") % {"name": who, "to": to} + all_in
        return _("%(name)s raises to %(to)d") % {"name": who, "to": to} + all_in
    if kind == "board":
        street = {"flop": _("Flop"), "turn": _("Turn"), "river": _("River")}.get(
            event.get("street", ""), ""
        )
        return f"{street}: {cards_text(event.get('cards', []))}"
    if kind == "uncalled":
        return _("%(amount)d returned to %(name)s") % {"name": who, "amount": amount}
    if kind == "show":
        shown = cards_text(event.get("cards", []))
        if event.get("hand"):
            hand = _hand_text(event, [*event.get("cards", []), *board])
            return _("%(name)s shows %(cards)s: %(hand)s") % {
                "name": who, "cards": shown, "hand": hand,
            }
        return _("%(name)s shows %(cards)s") % {"name": who, "cards": shown}
    if kind == "muck":
        return _("%(name)s does not show") % {"name": who}
    if kind == "award":
        pot = event.get("pot", 0)
        where = _("the pot") if pot <= 0 else _("side pot %(n)d") % {"n": pot}
        if event.get("hand"):
            hand = _hand_text(event, event.get("cards", []))
            return _("%(name)s wins %(amount)d from %(pot)s with %(hand)s") % {
                "name": who, "amount": amount, "pot": where, "hand": hand,
            }
        return _("%(name)s wins %(amount)d from %(pot)s") % {
            "name": who, "amount": amount, "pot": where,
        }
    return ""
