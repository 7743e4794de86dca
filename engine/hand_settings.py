"""Who is dealt into a hand and with how many chips, where the button is, and the blinds
(``HandSettings``): checked when made, and read back from stored JSON without rounding (R3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class HandSettings:
    """Who is dealt in and with how many chips, where the button is, and the blinds."""

    hand_number: int
    seats: tuple[int, ...]  # seat numbers of the players dealt in, increasing
    stacks: tuple[int, ...]  # their chips at the start of the hand, same order
    button: int  # seat number of the button; one of ``seats``
    small_blind: int
    big_blind: int

    def __post_init__(self) -> None:
        if len(self.seats) < 2:
            raise ValueError("a hand needs at least two players with chips")
        if len(self.seats) != len(self.stacks) or list(self.seats) != sorted(set(self.seats)):
            raise ValueError("seats must be distinct and increasing, one stack per seat")
        if any(not isinstance(s, int) or s <= 0 for s in self.stacks):
            raise ValueError("every player dealt in must have a whole, positive number of chips")
        if self.button not in self.seats:
            raise ValueError(f"the button seat {self.button} is not dealt in")
        if not 0 < self.small_blind <= self.big_blind:
            raise ValueError("blinds must be positive with the small blind not above the big")

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "seats": list(self.seats),
            "stacks": list(self.stacks),
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandSettings:
        """Read settings stored as JSON; a fractional or non-numeric amount is refused (R3),
        never rounded."""
        return cls(
            hand_number=_stored_int(data["hand_number"], "hand_number"),
            seats=tuple(_stored_int(s, "seats") for s in data["seats"]),
            stacks=tuple(_stored_int(s, "stacks") for s in data["stacks"]),
            button=_stored_int(data["button"], "button"),
            small_blind=_stored_int(data["small_blind"], "small_blind"),
            big_blind=_stored_int(data["big_blind"], "big_blind"),
        )


def _stored_int(value: object, name: str) -> int:
    """A whole number read back from JSON (``3`` or ``3.0``); anything else is an error."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must hold whole numbers, not {value!r}")
    return value
