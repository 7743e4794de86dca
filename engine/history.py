"""Hand histories: a hand is its settings, its deck order and its actions; replay rebuilds it.

The record is plain JSON with a version key. Replaying applies each action through the same
checks as live play, so a stored hand can never reach a state the rules forbid.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, ActionError
from engine.cards import deck_from_text
from engine.hand import Hand
from engine.hand_settings import HandSettings

RECORD_VERSION = 1


class HistoryError(ValueError):
    """A stored hand that cannot be read or replayed."""


def hand_record(hand: Hand) -> dict[str, Any]:
    """The complete, server-side record of a hand (contains the deck and the deck commitment's
    salt key: never send to a browser)."""
    record: dict[str, Any] = {
        "version": RECORD_VERSION,
        "settings": hand.settings.to_dict(),
        "deck": [str(c) for c in hand.deck],
        "actions": [a.to_dict() for a in hand.actions],
    }
    if hand.salt_key is not None:
        record["salt_key"] = hand.salt_key.hex()
    return record


def replay(record: Any, base: Hand | None = None) -> Hand:
    """Rebuild a hand from its record, applying every action with the live checks.

    A damaged record raises ``HistoryError`` saying, for a person, what is wrong and where.
    ``base``: a hand the record may continue (the same settings and deck, and its actions the
    record's first ones, e.g. the same hand a few actions earlier). Then a copy of it gets only
    the actions it lacks: the same hand, built without replaying it all. ``base`` is never
    changed, and a base that the record does not continue is simply not used.
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
    if not isinstance(actions, list):
        raise HistoryError("the hand record's actions must be a list")
    salt_key = _salt_key(record.get("salt_key"))
    done = 0
    if base is not None and base.salt_key == salt_key and _continues(
        base, hand_settings, deck, actions
    ):
        hand, done = base.copy(), len(base.actions)
    else:
        try:
            hand = Hand(hand_settings, deck_from_text(deck), salt_key)
        except ValueError as exc:
            raise HistoryError(f"the hand record's deck is invalid: {exc}") from exc
    for number, data in enumerate(actions[done:], start=done + 1):
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


def _salt_key(value: Any) -> bytes | None:
    """The deck commitment's key as stored (hex), or None for a hand dealt without one."""
    if value is None:
        return None
    try:
        key = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        key = b""
    if len(key) != 32:
        raise HistoryError("the hand record's salt key must be 64 hexadecimal digits")
    return key


def _continues(
    base: Hand, settings: HandSettings, deck: list[str], actions: list[Any]
) -> bool:
    """Whether a record with these settings, deck and actions is ``base`` with more actions."""
    taken = base.actions
    return (
        len(actions) >= len(taken)
        and base.settings == settings
        and [str(card) for card in base.deck] == deck
        and all(action.to_dict() == data for action, data in zip(taken, actions, strict=False))
    )
