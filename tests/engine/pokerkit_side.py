"""PokerKit's side of the differential tests (tests/engine/test_pokerkit_diff.py): PokerKit's
state for one of our hands dealt from the same deck, the ids of the listed differences, random
hands and a random player to play them, and what a compared hand and a run of them came to
(``HandOutcome``, ``Tally``)."""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass, field

from pokerkit import Automation, Mode, NoLimitTexasHoldem, State
from pokerkit import Card as PKCard

from engine.actions import ActionKind, LegalActions
from engine.cards import ALL_CARDS
from engine.hand import Hand
from engine.hand_settings import HandSettings

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK_CARD = {str(c): next(iter(PKCard.parse(str(c)))) for c in ALL_CARDS}

R9 = "R9-short-bb"
R16_UNDER = "R16-under-bb"
R16_CHAIN = "R16-chain"
R17_CHECK = "R17-check"
R12_EQUAL = "R12-equal-blinds"
R24_ODD = "R24-odd-chips"
DIFFERENCES = (R9, R12_EQUAL, R16_UNDER, R16_CHAIN, R17_CHECK, R24_ODD)

BLINDS = ((10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (5, 10), (1, 2), (20, 20), (7, 25))


class Mismatch(AssertionError):
    """Our engine and PokerKit disagree in a situation no listed difference explains."""


@dataclass
class HandOutcome:
    decisions: int = 0  # decisions whose legal action sets were compared
    adapted: Counter[str] = field(default_factory=Counter)  # listed differences met, compared on
    diverged: str | None = None  # listed difference after which the hand was no longer compared
    players: int = 0
    street: int = 0  # last street on which someone acted (0 preflop .. 3 river)
    showdown: bool = False
    side_pots: bool = False  # more than one pot at the end


@dataclass
class Tally:
    hands: int = 0
    decisions: int = 0
    clean: int = 0  # hands compared to the end without meeting any listed difference
    adapted_hands: Counter[str] = field(default_factory=Counter)
    adapted_decisions: Counter[str] = field(default_factory=Counter)
    diverged: Counter[str] = field(default_factory=Counter)
    players: Counter[int] = field(default_factory=Counter)
    streets: Counter[int] = field(default_factory=Counter)
    showdowns: int = 0
    side_pots: int = 0

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        self.decisions += other.decisions
        self.clean += other.clean
        self.showdowns += other.showdowns
        self.side_pots += other.side_pots
        self.adapted_hands.update(other.adapted_hands)
        self.adapted_decisions.update(other.adapted_decisions)
        self.diverged.update(other.diverged)
        self.players.update(other.players)
        self.streets.update(other.streets)

    def add(self, outcome: HandOutcome) -> None:
        self.hands += 1
        self.players[outcome.players] += 1
        self.streets[outcome.street] += 1
        self.showdowns += outcome.showdown
        self.side_pots += outcome.side_pots
        self.decisions += outcome.decisions
        for key, count in outcome.adapted.items():
            self.adapted_hands[key] += 1
            self.adapted_decisions[key] += count
        if outcome.diverged:
            self.diverged[outcome.diverged] += 1
        elif not outcome.adapted:
            self.clean += 1


# ---------------------------------------------------------------------------- random hands
def random_settings(rng: random.Random, hand_number: int = 1) -> HandSettings:
    """2-6 players and random blinds. Half the hands are short-stacked (blinds larger than
    stacks, short all ins, side pots abound), half deep (betting goes on to the river)."""
    n = rng.randint(2, 6)
    seats = tuple(sorted(rng.sample(range(10), n)))
    small, big = rng.choice(BLINDS)
    stacks = []
    deep = rng.random() < 0.5
    for _ in seats:
        r = rng.random()
        if deep and r < 0.85:
            stacks.append(rng.randint(20 * big, 300 * big))
        elif r < 0.15:
            stacks.append(rng.randint(1, big))  # a blind larger than the stack
        elif r < 0.55:
            stacks.append(rng.randint(1, 8 * big))
        else:
            stacks.append(rng.randint(8 * big, 100 * big))
    return HandSettings(hand_number, seats, tuple(stacks), rng.choice(seats), small, big)


@dataclass(frozen=True)
class Policy:
    """A random player: per decision, fold / check-call / min raise / random raise / all in with
    these weights (a fold when checking is possible is rarer). Always picks a legal action."""

    fold: float = 0.18
    passive: float = 0.32
    min_raise: float = 0.15
    random_raise: float = 0.22
    all_in: float = 0.13

    @classmethod
    def drawn(cls, rng: random.Random) -> Policy:
        weights = [rng.random() for _ in range(5)]
        weights[0] *= 0.4  # keep hands going to the river
        weights[1] *= 2.5  # mostly checks and calls, so raise wars stay short
        weights[4] *= rng.choice((0.1, 0.3, 1.0))  # all in: from rare to common
        total = sum(weights)
        return cls(*(w / total for w in weights))

    def __call__(self, rng: random.Random, legal: LegalActions) -> tuple[ActionKind, int | None]:
        r = rng.random()
        fold = self.fold / 4 if legal.can_check else self.fold
        if r < fold:
            return ActionKind.FOLD, None
        passive = ActionKind.CHECK if legal.can_check else ActionKind.CALL
        if legal.bet_or_raise is None or legal.min_to is None or legal.max_to is None:
            if legal.call_all_in and rng.random() < 0.3:
                return ActionKind.ALL_IN, None  # an all in that is only a call
            return passive, None
        r = rng.random() * (1 - self.fold)
        if r < self.passive:
            return passive, None
        if r < self.passive + self.min_raise:
            return legal.bet_or_raise, legal.min_to
        if r < self.passive + self.min_raise + self.random_raise:
            if rng.random() < 0.1:  # anywhere up to all in
                return legal.bet_or_raise, rng.randint(legal.min_to, legal.max_to)
            to = legal.min_to + int(legal.min_to * 2 * rng.random())  # up to 3x the minimum
            return legal.bet_or_raise, min(to, legal.max_to)
        return ActionKind.ALL_IN, None


choose_action = Policy()


# ---------------------------------------------------------------------------- PokerKit side
def deal_pending(state: State) -> None:
    """Burn and deal whatever PokerKit is waiting for, from the front of its (our) deck."""
    while True:
        if state.can_burn_card():
            state.burn_card()
        elif state.can_deal_hole():
            state.deal_hole()
        elif state.can_deal_board():
            state.deal_board()
        else:
            return


def pokerkit_state(hand: Hand) -> State:
    """PokerKit's state for the same settings, dealt from the same deck order."""
    s = hand.settings
    order = [(hand.button_index + 1 + k) % hand.n for k in range(hand.n)]
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        True,
        0,
        (s.small_blind, s.big_blind),
        s.big_blind,
        tuple(s.stacks[i] for i in order),
        hand.n,
        mode=Mode.CASH_GAME,
    )
    state.deck_cards = deque(PK_CARD[str(c)] for c in hand.deck)
    while state.can_deal_hole():
        state.deal_hole()
    for k, i in enumerate(order):
        if [repr(c) for c in state.hole_cards[k]] != [str(c) for c in hand.hole[i]]:
            raise Mismatch(f"hole cards of PokerKit p{k + 1} differ from our seat {hand.seats[i]}")
    deal_pending(state)
    return state
