"""The computer players' reasons, kept with their actions.

At a learning table (always against the computer; at a friends table when the host turns it
on: ``tables.write.host.set_learning``), every action a computer player takes is kept with the
**public** part of its reason (``engine.bots.reasons.Reason.public``): the kind of spot, the
pot and the price, the position, its read of the players it faces. The private part (its
motive, strength and share of the pot) is never stored: it is about its hidden cards.

- While the hand runs they are in the table's row (``Table.bot_reasons``, those of this hand
  only, each with the hand's number and the action's index), written with the action in the
  same change: the row is told to the other server processes as it is, and holds no secret.
- When the hand ends they are copied into the hand's row (``Hand.reasons``, written by
  ``tables.write.path`` with the rest of the hand). Hands from before, or played with the
  switch off, have ``[]``: nothing else reads the field, so their replay is untouched.
"""

from __future__ import annotations

from typing import Any

from engine.game import Game
from tables.models import Table


def learning_on(table: Table) -> bool:
    return table.mode == Table.Mode.COMPUTER or table.learning


def remember(table: Table, game: Game, reason: dict[str, Any]) -> None:
    """Keep ``reason`` (a public reason) for the action just taken in ``game``'s hand; those of
    earlier hands go."""
    hand = game.hand
    if hand is None or not learning_on(table):
        return
    number = game.hand_number
    kept = [r for r in table.bot_reasons if r.get("hand") == number]
    table.bot_reasons = [*kept, {**reason, "hand": number, "i": len(hand.actions) - 1}]


def of_hand(table: Table, number: int) -> list[dict[str, Any]]:
    """The reasons kept for hand ``number`` (for its row once it ends)."""
    return [r for r in table.bot_reasons if r.get("hand") == number]
