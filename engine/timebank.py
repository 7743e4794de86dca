"""The time bank (P4): extra seconds a person may spend on turns after the time limit (P1).

The amounts are whole seconds. A bank starts at the host's choice (:data:`BANK_CHOICES`); a
turn may run past the time limit for as long as the bank has left, and the seconds it ran past
are gone (:func:`left_after_turn`); every :data:`TOP_UP_EVERY` hands the bank gets
:data:`TOP_UP` seconds back, never above its start (:func:`topped_up`). Who has a bank (a
person, not away; never a computer player) is the caller's to say: :func:`turn_allowance`.
"""

from __future__ import annotations

import math

__all__ = [
    "BANK_CHOICES",
    "DEFAULT_BANK",
    "TOP_UP",
    "TOP_UP_EVERY",
    "left_after_turn",
    "topped_up",
    "tops_up_at",
    "turn_allowance",
]

BANK_CHOICES = (0, 30, 60, 120)  # 0: no time bank
DEFAULT_BANK = 60
TOP_UP = 10
TOP_UP_EVERY = 10


def left_after_turn(bank: int, limit: float, took: float) -> int:
    """The seconds left in a bank of ``bank`` after a turn that took ``took`` seconds against
    a time limit of ``limit``: only the time past the limit is used, any part of a second used
    counts as a whole one, and a bank never goes below nothing."""
    if bank <= 0:
        return 0
    over = took - limit
    if over <= 0:
        return bank
    return max(0, bank - math.ceil(over))


def tops_up_at(hand_number: int) -> bool:
    """Whether the deal of hand ``hand_number`` (1, 2, ...) comes after another
    :data:`TOP_UP_EVERY` hands: hands 11, 21, 31..."""
    return hand_number > 1 and (hand_number - 1) % TOP_UP_EVERY == 0


def topped_up(bank: int, start: int) -> int:
    """A bank given its :data:`TOP_UP` seconds back, never above ``start``."""
    return min(start, max(0, bank) + TOP_UP)


def turn_allowance(limit: float, bank: int, *, person: bool, away: bool) -> float:
    """How long a turn may run before the time-out (P1) applies: the time limit and, for a
    person who is not away, the bank on top."""
    if not person or away:
        return limit
    return limit + max(0, bank)
