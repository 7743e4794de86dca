"""Hand histories: a hand is its settings, its deck order and its actions; replay rebuilds it.

The record is plain JSON with a version key. Replaying applies each action through the same
checks as live play, so a stored hand can never reach a state the rules forbid.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, ActionError
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


def replay(record: Any) -> Hand:
    """Rebuild a hand from its record, applying every action with the live checks.

    A damaged record raises ``HistoryError`` saying, for a person, what is wrong and where.
    """
    if not isinstance(record, dict):
        raise HistoryError("a hand record must be a JSON object with settings, deck and actions")
    if record.get("version") != RECORD_VERSION:
        raise HistoryError(f"unknown hand record version {record.get('version')!r}")
    missing = [key for key in ("settings", "deck", "actions") if key not in record]
    if missing:
        raise HistoryError(f"the hand record has no {' or '.join(missing)}")
    settings, deck, actions = record["settings"], record["deck"], record["actions"]
    if not isinstance(settings, dict):
        raise HistoryError("the hand record's settings must be a JSON object")
    try:
        hand_settings = HandSettings.from_dict(settings)
    except KeyError as exc:
        raise HistoryError(f"the hand record's settings have no {exc.args[0]!r}") from exc
    except (TypeError, ValueError) as exc:
        raise HistoryError(f"the hand record's settings are invalid: {exc}") from exc
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise HistoryError("the hand record's deck must be a list of cards such as \"As\"")
    try:
        hand = Hand(hand_settings, deck_from_text(deck))
    except ValueError as exc:
        raise HistoryError(f"the hand record's deck is invalid: {exc}") from exc
    if not isinstance(actions, list):
        raise HistoryError("the hand record's actions must be a list")
    for number, data in enumerate(actions, start=1):
        try:
            if not isinstance(data, dict) or type(data.get("seat")) is not int:
                raise TypeError("an action is an object with a whole seat number")
            action = Action.from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise HistoryError(
                f"action {number} of the hand record is not a valid action: {data!r}"
            ) from exc
        try:
            hand.act(action.seat, action.kind, action.amount)
        except ActionError as exc:
            raise HistoryError(
                f"action {number} of the hand record (seat {action.seat} {action.kind.value}) "
                f"cannot be replayed: {exc.message}"
            ) from exc
    return hand
