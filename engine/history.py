"""Hand histories: a hand is its settings, its deck order and its actions; replay rebuilds it.

The record is plain JSON with a version key. Replaying applies each action through the same
checks as live play, so a stored hand can never reach a state the rules forbid.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.cards import deck_from_text
from engine.hand import Hand, HandSettings

RECORD_VERSION = 1


class HistoryError(ValueError):
    """A stored hand that cannot be read or replayed."""


def hand_record(hand: Hand) -> dict[str, Any]:
    """The complete, server-side record of a hand (contains the deck: never send to a browser)."""
    return {
        "version": RECORD_VERSION,
        "settings": hand.settings.to_dict(),
        "deck": [str(c) for c in hand.deck],
        "actions": [a.to_dict() for a in hand.actions],
    }


def replay(record: dict[str, Any]) -> Hand:
    """Rebuild a hand from its record, applying every action with the live checks."""
    if record.get("version") != RECORD_VERSION:
        raise HistoryError(f"unknown hand record version {record.get('version')!r}")
    try:
        hand = Hand(HandSettings.from_dict(record["settings"]), deck_from_text(record["deck"]))
        for data in record["actions"]:
            action = Action.from_dict(data)
            hand.act(action.seat, action.kind, action.amount)
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"the hand record cannot be replayed: {exc}") from exc
    return hand
