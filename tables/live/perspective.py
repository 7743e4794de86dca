"""Whose eyes a connection looks through, and pass and play.

Privacy starts here. A frame is built for at most one seat (``Perspective.viewer``), so it can
only hold that seat's hole cards. A phone holding several seats (pass and play) sees one seat
at a time:

- when the turn comes to one of its seats it first gets a hand-off frame built for no seat
  at all ("Pass the phone to Bikash"), and only after that person confirms does it get their
  cards (``reveal``);
- as soon as the revealed person has acted, their cards are hidden again: while it is nobody
  on this phone's turn the table is drawn from the last person's place with no hole cards,
  and anyone may tap to see their own cards (which asks them to confirm who they are);
- a new hand hides everything again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Game
from tables.cache import Snapshot


@dataclass
class PassState:
    """Pass and play memory of one connection (or of one session, for pages without JS)."""

    revealed: int | None = None  # the seat whose owner confirmed they hold the phone
    revealed_acts: int = 0  # how many actions that seat had taken in the hand at that moment
    hand_number: int = 0
    home: int | None = None  # the seat drawn at the bottom while nobody here is to act

    def to_dict(self) -> dict[str, Any]:
        return {
            "revealed": self.revealed, "revealed_acts": self.revealed_acts,
            "hand_number": self.hand_number, "home": self.home,
        }

    @classmethod
    def from_dict(cls, data: Any) -> PassState:
        if not isinstance(data, dict):
            return cls()
        try:
            return cls(
                revealed=_int_or_none(data.get("revealed")),
                revealed_acts=int(data.get("revealed_acts", 0)),
                hand_number=int(data.get("hand_number", 0)),
                home=_int_or_none(data.get("home")),
            )
        except (TypeError, ValueError):
            return cls()


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _acts_of(game: Game | None, seat: int) -> int:
    if game is None or game.hand is None:
        return 0
    return sum(1 for a in game.hand.actions if a.seat == seat)


@dataclass(frozen=True)
class Perspective:
    mine: tuple[int, ...]  # every seat this connection holds at the table
    viewer: int | None  # the one seat whose hidden cards this frame may show
    home: int | None  # the seat drawn at the bottom of the table
    handoff: int | None  # "pass the phone to ..." (no cards at all in this frame)

    @property
    def pass_and_play(self) -> bool:
        return len(self.mine) > 1


def perspective(snapshot: Snapshot, mine: list[int], state: PassState) -> Perspective:
    """Whose eyes this frame looks through. Updates ``state`` (see the module docstring)."""
    if len(mine) <= 1:
        seat = mine[0] if mine else None
        return Perspective(tuple(mine), seat, seat, None)
    game = snapshot.game
    hand = game.hand if game else None
    number = game.hand_number if game else 0
    if number != state.hand_number:
        state.revealed, state.hand_number = None, number
    if state.revealed is not None and (
        state.revealed not in mine or _acts_of(game, state.revealed) > state.revealed_acts
    ):
        state.home, state.revealed = state.revealed, None  # they acted: hide their cards
    to_act = hand.seat_to_act if hand is not None and not hand.finished else None
    if to_act in mine and state.revealed != to_act:
        state.revealed = None
        return Perspective(tuple(mine), None, to_act, to_act)
    if state.revealed is not None:
        state.home = state.revealed
    home = state.home if state.home in mine else mine[0]
    return Perspective(tuple(mine), state.revealed, home, None)


def reveal(snapshot: Snapshot, mine: list[int], state: PassState, seat: int | None) -> bool:
    """The person at ``seat`` confirms they hold the phone. Refused (False) for a seat that is
    not this phone's, or while another of this phone's seats is to act."""
    if seat is None or seat not in mine:
        return False
    game = snapshot.game
    hand = game.hand if game else None
    to_act = hand.seat_to_act if hand is not None and not hand.finished else None
    if to_act in mine and to_act != seat:
        return False
    state.revealed = seat
    state.revealed_acts = _acts_of(game, seat)
    state.hand_number = game.hand_number if game else 0
    state.home = seat
    return True


def hide(state: PassState) -> None:
    if state.revealed is not None:
        state.home = state.revealed
    state.revealed = None
