"""Everything that happens in a hand, in order: blinds, deals, actions, shows, mucks, awards.

Events marked private (hole cards, burns, mucked cards) are filtered per viewer by
``engine.views``; the event list itself is the server's complete record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Event kinds.
POST_SMALL_BLIND = "post_sb"
POST_BIG_BLIND = "post_bb"
DEAL_HOLE = "deal_hole"
BURN = "burn"
BOARD = "board"
ACTION = "action"
UNCALLED = "uncalled"
SHOW = "show"
MUCK = "muck"
AWARD = "award"
HAND_END = "hand_end"

# Action names (the ``action`` of an ``action`` event) that put chips in by choice, and those
# that bet or raise.
VOLUNTARY = frozenset({"call", "bet", "raise"})
AGGRESSIVE = frozenset({"bet", "raise"})


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. Unused fields stay at their defaults and are left out of JSON.

    - ``amount``: chips added (blind, action), returned (uncalled) or won (award).
    - ``to``: the player's round total after an action.
    - ``cards``: card texts (hole cards, burn, board cards, shown hand, winning five).
    - ``street``: ``preflop``/``flop``/``turn``/``river`` for deals and actions.
    - ``action``: the action kind for ``action`` events.
    - ``pot``: index of the pot awarded (0 is the main pot, side pots follow).
    - ``hand``: the English name of a shown or winning hand.
    """

    kind: str
    seat: int | None = None
    amount: int = 0
    to: int = 0
    cards: tuple[str, ...] = ()
    street: str = ""
    action: str = ""
    all_in: bool = False
    pot: int = -1
    hand: str = ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.amount:
            data["amount"] = self.amount
        if self.to:
            data["to"] = self.to
        if self.cards:
            data["cards"] = list(self.cards)
        if self.street:
            data["street"] = self.street
        if self.action:
            data["action"] = self.action
        if self.all_in:
            data["all_in"] = True
        if self.pot >= 0:
            data["pot"] = self.pot
        if self.hand:
            data["hand"] = self.hand
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(
            kind=data["kind"],
            seat=data.get("seat"),
            amount=data.get("amount", 0),
            to=data.get("to", 0),
            cards=tuple(data.get("cards", ())),
            street=data.get("street", ""),
            action=data.get("action", ""),
            all_in=data.get("all_in", False),
            pot=data.get("pot", -1),
            hand=data.get("hand", ""),
        )


@dataclass(slots=True)
class PreflopCount:
    """One hand's preflop actions counted as they come, the part of preflop behaviour the
    players' statistics (:mod:`engine.stats`) and the computer players' reads
    (:mod:`engine.bots.counts`) share: who put chips in by choice (VPIP: a call, bet or raise;
    posting a blind is no choice), who raised (PFR), how many bets and raises were made so far
    (the blinds are not counted) and who made the first of them (the opener).

    Read ``raises`` and ``opener`` before :meth:`add`-ing an action to know what it faced.
    """

    raises: int = 0
    opener: int | None = None
    voluntary: set[int] = field(default_factory=set)
    raised: set[int] = field(default_factory=set)

    def add(self, seat: int, action: str) -> None:
        """Count the preflop ``action`` (an action event's name) of ``seat``."""
        if action in VOLUNTARY:
            self.voluntary.add(seat)
        if action in AGGRESSIVE:
            self.raised.add(seat)
            self.raises += 1
            if self.opener is None:
                self.opener = seat
