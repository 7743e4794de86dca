"""What one hand holds and what can be read of it: the players by index in seat order, their
stacks and bets, the cards, the events and actions so far, whose turn it is and what they may do,
the pots and the results. The rules that change it are ``engine.hand.Hand``'s, which is a
``HandState``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from engine.actions import Action, ActionError, LegalActions
from engine.cards import Card
from engine.evaluator import HandValue
from engine.events import SHOW, Event
from engine.hand_settings import HandSettings
from engine.pots import Award, Pot, build_pots


class HandState:
    """A hand's state. Players are held by index in seat order; public methods speak in seat
    numbers."""

    def __init__(
        self, settings: HandSettings, deck: Sequence[Card], salt_key: bytes | None = None
    ) -> None:
        if len(deck) != 52 or len({c.id for c in deck}) != 52:
            raise ValueError("the deck must hold each of the 52 cards once")
        self.settings = settings
        self.deck: tuple[Card, ...] = tuple(deck)
        # The secret the deck commitment's salts come from (engine.proof); server-side only,
        # like the deck. None: a hand dealt without a commitment.
        self.salt_key = salt_key
        self.seats = settings.seats
        n = len(self.seats)
        self.n = n
        self.stack = list(settings.stacks)
        self.bet = [0] * n  # chips put in during the current round
        self.total = [0] * n  # chips put in during the whole hand
        self.folded = [False] * n
        self.acted = [False] * n
        self.acted_at = [0] * n  # the current bet level right after the player's last action
        self.hole: list[tuple[Card, ...]] = [()] * n
        self.board: list[Card] = []
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.street = 0
        self.current_bet = 0
        self.min_raise = settings.big_blind
        self.last_aggressor: int | None = None
        self.to_act: int | None = None
        # What ``to_act`` may do, worked out once whenever the turn passes (see
        # ``engine.hand.Hand._turn``).
        self._legal: LegalActions | None = None
        self.finished = False
        self.awards: list[Award] = []
        self.shown: dict[int, HandValue] = {}  # player index -> shown hand
        self.pots: list[Pot] = []
        self._next_card = 0
        self.burnt: list[Card] = []  # server-side only; never part of any view
        self.button_index = self.seats.index(settings.button)

    def copy(self) -> Self:
        """An independent twin: the same state, changed apart from this one from now on (what
        replaying the record would build, without replaying it). Every value a hand holds is
        immutable or a list or dict of immutable values (cards, actions, events, pots), so
        copying those containers is enough."""
        twin = type(self).__new__(type(self))
        for name, value in vars(self).items():
            if isinstance(value, list | dict):
                value = value.copy()
            setattr(twin, name, value)
        return twin

    # ----------------------------------------------------------------- seats and order
    def index_of(self, seat: int) -> int:
        try:
            return self.seats.index(seat)
        except ValueError:
            raise ActionError("unknown_seat", f"Seat {seat} is not playing this hand.") from None

    def _order_from(self, start: int) -> list[int]:
        """Player indexes going left (R4) beginning with ``start``."""
        return [(start + k) % self.n for k in range(self.n)]

    def _left_of_button(self) -> list[int]:
        return self._order_from(self.button_index + 1)

    @property
    def in_hand(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded[i]]

    def is_all_in(self, i: int) -> bool:
        return not self.folded[i] and self.stack[i] == 0

    @property
    def small_blind_index(self) -> int:
        return self.button_index if self.n == 2 else (self.button_index + 1) % self.n

    @property
    def big_blind_index(self) -> int:
        return (self.small_blind_index + 1) % self.n

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do, or ``None`` when nobody is to act."""
        return self._legal

    @property
    def seat_to_act(self) -> int | None:
        return None if self.to_act is None else self.seats[self.to_act]

    # ----------------------------------------------------------------- results
    @property
    def final_stacks(self) -> dict[int, int]:
        """Seat -> chips after the hand (current stacks while it is running)."""
        return dict(zip(self.seats, self.stack, strict=True))

    def shown_seats(self) -> set[int]:
        return {e.seat for e in self.events if e.kind == SHOW and e.seat is not None}

    @property
    def pot_total(self) -> int:
        """Every chip committed this hand and not returned (including the current round)."""
        return sum(self.total) if not self.finished else 0

    def current_pots(self) -> list[Pot]:
        """Pots from the chips of finished rounds (bets of the running round not included)."""
        collected = [t - b for t, b in zip(self.total, self.bet, strict=True)]
        return build_pots(collected, self.folded)
