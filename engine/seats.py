"""The seats of a game: each seat's state across hands (``SeatState``), the log of players taken
in and let go between hands (``SeatChange``: ``ARRIVE``, ``DEPART``, T7), the final order
(``standings_of``, R31, R32, R34), and ``GameError``, the game's refusal, which a damaged stored
number raises too (``stored_whole``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


class GameError(ValueError):
    """A request the game cannot carry out (start a hand while one runs, and the like)."""


ARRIVE = "arrive"
DEPART = "depart"


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A player taken in (``arrive``, at an empty ``seat`` with ``stack`` chips) or let go
    (``depart``: the seat is emptied and its ``stack`` leaves with the player), between hand
    ``after_hand`` and the next (T7)."""

    kind: str
    seat: int
    stack: int
    is_person: bool
    after_hand: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "seat": self.seat, "stack": self.stack,
            "is_person": self.is_person, "after_hand": self.after_hand,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatChange:
        kind = data.get("kind")
        if kind not in (ARRIVE, DEPART):
            raise GameError(f"unknown seat change {kind!r}")
        return cls(
            str(kind), stored_whole(data["seat"], "seat"), stored_whole(data["stack"], "stack"),
            bool(data["is_person"]), stored_whole(data["after_hand"], "after_hand"),
        )


def stored_whole(value: object, what: str) -> int:
    """A stored whole number; a fraction or text is a damaged state, never rounded (R3)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise GameError(f"the stored game has {what} = {value!r}, not a whole number")
    return int(value)


@dataclass(slots=True)
class SeatState:
    seat: int
    stack: int
    is_person: bool
    out_hand: int | None = None  # the hand in which the player lost their last chip
    out_stack: int = 0  # their stack at the start of that hand (R31 tie-break)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "stack": self.stack, "is_person": self.is_person,
            "out_hand": self.out_hand, "out_stack": self.out_stack,
        }


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    seat: int
    chips: int
    out_hand: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place, "seat": self.seat, "chips": self.chips, "out_hand": self.out_hand
        }


def standings_of(seats: Iterable[SeatState]) -> list[Standing]:
    """R32, R34: players still in by chips, then those who left, last out first.

    Equal chips share a place; two players out in the same hand are ordered by the stack
    they started it with, equal stacks sharing the place (R31).
    """
    def key(st: SeatState) -> tuple[int, int, int]:
        if st.stack > 0 or st.out_hand is None:
            return (1, st.stack, 0)
        return (0, st.out_hand, st.out_stack)

    ordered = sorted(seats, key=key, reverse=True)
    result: list[Standing] = []
    for position, st in enumerate(ordered, start=1):
        place = result[-1].place if result and key(ordered[position - 2]) == key(st) else position
        out = st.out_hand if st.stack == 0 else None
        result.append(Standing(place, st.seat, st.stack, out))
    return result
