"""One hand of no-limit hold'em: blinds, the deal, four betting rounds, pots and the showdown.

A hand is fully determined by its settings, the deck order and the list of actions; the same
three always rebuild the same state and events (``engine.history.replay``). Players are held by
index in seat order; public methods speak in seat numbers. What a hand holds and what can be read
of it is ``engine.hand_state.HandState``; who is dealt in with how many chips,
``engine.hand_settings.HandSettings``; the pots and their awards, ``engine.pots``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    ActionError,
    ActionKind,
    LegalActions,
    action_kind,
    check_bet_or_raise,
    check_without_amount,
    whole_chips,
)
from engine.cards import ALL_CARDS, Card
from engine.evaluator import HandValue, evaluate
from engine.events import (
    ACTION,
    AWARD,
    BOARD,
    BURN,
    DEAL_HOLE,
    HAND_END,
    MUCK,
    POST_BIG_BLIND,
    POST_SMALL_BLIND,
    SHOW,
    UNCALLED,
    Event,
)
from engine.hand_settings import HandSettings
from engine.hand_state import HandState
from engine.pots import Award, build_pots, pot_awards

STREETS = ("preflop", "flop", "turn", "river")
_TEXT = tuple(str(c) for c in ALL_CARDS)  # card text by card id, for events
# Why a bet or raise is refused (LegalActions.reason).
NOT_ENOUGH_TO_RAISE = "You do not have enough chips to raise."
NOBODY_CAN_ANSWER = "Nobody left in the hand can answer a raise: you may only call or fold."
NOT_REOPENED = "The betting was not reopened: you may only call or fold."
MAX_CHIPS = 10**12  # far above any stack this game can reach; larger amounts are refused as absurd


class Hand(HandState):
    """The state machine of one hand. Create it, then call ``act`` until ``finished``. What it
    holds and what can be read of it is ``HandState``'s; this class holds the rules that change
    it: the blinds and the deal, what the seat to act may do, acting, the rounds and the end."""

    def __init__(
        self, settings: HandSettings, deck: Sequence[Card], salt_key: bytes | None = None
    ) -> None:
        super().__init__(settings, deck, salt_key)
        self._start()

    # ----------------------------------------------------------------- start
    def _draw(self) -> Card:
        card = self.deck[self._next_card]
        self._next_card += 1
        return card

    def _post(self, i: int, amount: int, kind: str) -> None:
        paid = min(amount, self.stack[i])
        self.stack[i] -= paid
        self.bet[i] += paid
        self.total[i] += paid
        self.events.append(
            Event(kind, seat=self.seats[i], amount=paid, to=self.bet[i], all_in=self.stack[i] == 0)
        )

    def _start(self) -> None:
        s = self.settings
        # R6, R9: blinds, short blinds post what they have.
        self._post(self.small_blind_index, s.small_blind, POST_SMALL_BLIND)
        self._post(self.big_blind_index, s.big_blind, POST_BIG_BLIND)
        # R9, R15: the full big blind is the bet to call and the size of the first raise.
        self.current_bet = s.big_blind
        self.min_raise = s.big_blind
        # R11: one card at a time, starting left of the button: the k-th player from the
        # button's left gets the deck's cards k and n + k.
        n, deck = self.n, self.deck
        for k, i in enumerate(self._left_of_button()):
            first, second = deck[k], deck[n + k]
            self.hole[i] = (first, second)
            self.events.append(
                Event(DEAL_HOLE, seat=self.seats[i], cards=(_TEXT[first.id], _TEXT[second.id]))
            )
        self._next_card = 2 * n
        # R12: preflop the player left of the big blind acts first (heads-up: the button).
        self._begin_round(first=(self.big_blind_index + 1) % self.n)

    # ----------------------------------------------------------------- what a player may do
    def _call_to(self, i: int) -> int:
        """The round total a call reaches. When nobody else still in has chips, a call matches
        only what was actually put in (R17), so a short big blind is called for what it posted."""
        folded, stack, bet = self.folded, self.stack, self.bet
        top = 0
        for j in range(self.n):
            if j != i and not folded[j]:
                if stack[j] > 0:
                    return self.current_bet
                if bet[j] > top:
                    top = bet[j]
        return min(self.current_bet, top)

    def _raise_block(self, i: int, call_to: int | None = None) -> str:
        """Why player ``i`` may not bet or raise now, or "" when they may (``call_to``: the
        value of ``_call_to(i)`` when the caller already has it)."""
        if call_to is None:
            call_to = self._call_to(i)
        if self.stack[i] + self.bet[i] <= call_to:
            return NOT_ENOUGH_TO_RAISE
        # R17: someone else still in must be able to put in more than the current bet.
        folded, stack, bet, current = self.folded, self.stack, self.bet, self.current_bet
        for j in range(self.n):
            if j != i and not folded[j] and bet[j] + stack[j] > current:
                break
        else:
            return NOBODY_CAN_ANSWER
        # R16: a short all in does not reopen the betting for players who already acted.
        if self.acted[i] and current - self.acted_at[i] < self.min_raise:
            return NOT_REOPENED
        return ""

    def _needs_action(self, i: int) -> bool:
        if self.folded[i] or self.stack[i] == 0:
            return False
        call_to = self._call_to(i)
        if call_to > self.bet[i]:  # owes chips
            return True
        if self.acted[i]:
            return False
        # R17: with nothing to call and no one able to answer a bet, there is no betting.
        return not self._raise_block(i, call_to)

    def _turn(self, i: int | None) -> None:
        """Pass the turn to player ``i`` (None: nobody) and work out what they may do. Every
        change of state ends here, so ``legal_actions`` is always current."""
        self.to_act = i
        self._legal = None if i is None else self._compute_legal(i)

    def _compute_legal(self, i: int) -> LegalActions:
        call_to = self._call_to(i)
        call = max(0, min(call_to - self.bet[i], self.stack[i]))
        all_in_to = self.bet[i] + self.stack[i]
        block = self._raise_block(i, call_to)
        kind: ActionKind | None = None
        min_to = max_to = None
        if not block:
            kind = ActionKind.BET if self.current_bet == 0 else ActionKind.RAISE
            min_to = min(self.current_bet + self.min_raise, all_in_to)
            max_to = all_in_to
        return LegalActions(
            seat=self.seats[i],
            can_check=call_to <= self.bet[i],
            call=call,
            call_all_in=call > 0 and call == self.stack[i],
            bet_or_raise=kind,
            min_to=min_to,
            max_to=max_to,
            all_in_to=all_in_to,
            reason=block,
        )

    # ----------------------------------------------------------------- acting
    def act(self, seat: int, kind: ActionKind | str, amount: object = None) -> Action:
        """Apply one action or raise ``ActionError`` with a reason a person can read.

        Nothing changes when the action is refused.
        """
        action = self.check_action(seat, kind, amount)
        self._apply(action)
        return action

    def check_action(self, seat: int, kind: ActionKind | str, amount: object = None) -> Action:
        """Validate an action without applying it; returns it in normal form."""
        i = self._check_turn(seat)
        kind = action_kind(kind)
        legal = self._legal
        assert legal is not None
        if kind in (ActionKind.BET, ActionKind.RAISE):
            to = whole_chips(amount, MAX_CHIPS)
            return check_bet_or_raise(seat, kind, to, legal, self.current_bet)
        if amount is not None and kind != ActionKind.ALL_IN:
            raise ActionError("bad_amount", f"A {kind.value} takes no amount.")
        check_without_amount(kind, legal, self.bet[i])
        return Action(seat, kind)

    def _check_turn(self, seat: int) -> int:
        """The index of ``seat`` if it is that seat's turn in a running hand."""
        if self.finished:
            raise ActionError("hand_over", "This hand is over.")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ActionError("bad_seat", "The seat must be a seat number.")
        i = self.index_of(seat)
        if i != self.to_act:
            waiting = self.seat_to_act
            raise ActionError("not_your_turn", f"It is not your turn: seat {waiting} is to act.")
        return i

    def timeout_action(self) -> Action:
        """P1: a player out of time checks when they can and folds otherwise."""
        legal = self.legal_actions()
        if legal is None:
            raise ActionError("hand_over", "Nobody is to act.")
        kind = ActionKind.CHECK if legal.can_check else ActionKind.FOLD
        return Action(legal.seat, kind)

    def _apply(self, action: Action) -> None:
        i = self.seats.index(action.seat)
        street = STREETS[self.street]
        kind = action.kind
        self.actions.append(action)
        if kind == ActionKind.FOLD:
            self.folded[i] = True
            self.events.append(Event(ACTION, seat=action.seat, action="fold", street=street))
        elif kind == ActionKind.CHECK:
            self.events.append(Event(ACTION, seat=action.seat, action="check", street=street))
        else:
            if kind == ActionKind.CALL:
                to = min(self._call_to(i), self.bet[i] + self.stack[i])
            elif kind == ActionKind.ALL_IN:
                to = self.bet[i] + self.stack[i]
            else:
                assert action.amount is not None
                to = action.amount
            added = to - self.bet[i]
            self.stack[i] -= added
            self.bet[i] = to
            self.total[i] += added
            name = kind.value
            if to > self.current_bet:
                # R15/R16: only a full raise sets the new minimum and reopens the betting.
                if to - self.current_bet >= self.min_raise:
                    self.min_raise = to - self.current_bet
                name = "bet" if self.current_bet == 0 else "raise"
                self.current_bet = to
                self.last_aggressor = i
            elif kind == ActionKind.ALL_IN:
                name = "call"
            self.events.append(
                Event(
                    ACTION, seat=action.seat, action=name, amount=added, to=to,
                    street=street, all_in=self.stack[i] == 0,
                )
            )
        self.acted[i] = True
        self.acted_at[i] = self.current_bet
        self._advance(i)

    # ----------------------------------------------------------------- flow
    def _begin_round(self, first: int) -> None:
        for i in self._order_from(first):
            if self._needs_action(i):
                self._turn(i)
                return
        self._turn(None)
        self._end_round()

    def _advance(self, last: int) -> None:
        if self.folded.count(False) == 1:
            self._return_uncalled()
            self._win_uncontested(self.folded.index(False))
            return
        n = self.n
        for k in range(1, n + 1):
            i = (last + k) % n
            if self._needs_action(i):
                self._turn(i)
                return
        self._turn(None)
        self._end_round()

    def _return_uncalled(self) -> None:
        """R19: the part of the biggest bet that nobody matched goes back to its owner."""
        top = max(range(self.n), key=lambda i: self.bet[i])
        second = max((self.bet[i] for i in range(self.n) if i != top), default=0)
        excess = self.bet[top] - second
        if excess > 0:
            self.bet[top] -= excess
            self.total[top] -= excess
            self.stack[top] += excess
            self.events.append(Event(UNCALLED, seat=self.seats[top], amount=excess))

    def _end_round(self) -> None:
        self._return_uncalled()
        self.bet = [0] * self.n
        with_chips = [i for i in self.in_hand if self.stack[i] > 0]
        if self.street == 3 or len(with_chips) <= 1:
            self._showdown()
            return
        self.street += 1
        self._deal_street()
        self.current_bet = 0
        self.min_raise = self.settings.big_blind
        self.acted = [False] * self.n
        self.acted_at = [0] * self.n
        self.last_aggressor = None
        # R13: first player still in with chips to the left of the button.
        self._begin_round(first=(self.button_index + 1) % self.n)

    def _deal_street(self) -> None:
        self.burnt.append(self._draw())  # R11: burn one card before each street
        self.events.append(Event(BURN, street=STREETS[self.street]))
        count = 3 if self.street == 1 else 1
        cards = [self._draw() for _ in range(count)]
        self.board.extend(cards)
        self.events.append(
            Event(BOARD, street=STREETS[self.street], cards=tuple(_TEXT[c.id] for c in cards))
        )

    # ----------------------------------------------------------------- the end
    def _win_uncontested(self, winner: int) -> None:
        """R20: everyone else folded; the last player takes every pot and shows nothing."""
        self.pots = build_pots(self.total, self.folded)
        amount = sum(self.total)
        self.stack[winner] += amount
        self.awards.append(Award(0, self.seats[winner], amount, None))
        self.events.append(Event(AWARD, seat=self.seats[winner], amount=amount, pot=0))
        self._finish()

    def _showdown(self) -> None:
        contenders = self.in_hand
        all_in = any(self.stack[i] == 0 for i in contenders)
        order = [i for i in self._left_of_button() if not self.folded[i]]
        if all_in:
            # R21, R28: with anyone all in, every hand is turned up before the board is finished.
            for i in order:
                self._show(i)
        while len(self.board) < 5:
            self.street += 1
            self._deal_street()
        self.street = 3
        values = {i: evaluate(self.hole[i] + tuple(self.board)) for i in contenders}
        if all_in:
            self.shown = {i: values[i] for i in order}
        else:
            # R28: last river aggressor first (else first left of the button), then to the left;
            # a hand that cannot beat the best shown so far is mucked for the player.
            first = self.last_aggressor if self.last_aggressor is not None else order[0]
            best: HandValue | None = None
            for i in self._order_from(first):
                if self.folded[i]:
                    continue
                if best is None or values[i].value >= best.value:
                    best = values[i]
                    self._show(i, value=values[i])
                else:
                    self.events.append(Event(MUCK, seat=self.seats[i]))
        self.pots = build_pots(self.total, self.folded)
        # R23: side pots first, the main pot last.
        for pot_index, i, amount, value in pot_awards(self.pots, values, self._left_of_button()):
            self.stack[i] += amount
            self.awards.append(Award(pot_index, self.seats[i], amount, value))
            if value is None:
                self.events.append(Event(AWARD, seat=self.seats[i], amount=amount, pot=pot_index))
                continue
            # R29: the five cards that make the winning hand.
            self.events.append(
                Event(
                    AWARD, seat=self.seats[i], amount=amount, pot=pot_index,
                    cards=tuple(str(c) for c in value.cards), hand=value.name,
                )
            )
        self._finish()

    def _show(self, i: int, value: HandValue | None = None) -> None:
        if value is not None:
            self.shown[i] = value
        self.events.append(
            Event(
                SHOW, seat=self.seats[i], cards=tuple(str(c) for c in self.hole[i]),
                hand=value.name if value is not None else "",
            )
        )

    def _finish(self) -> None:
        self._turn(None)
        self.finished = True
        self.bet = [0] * self.n
        self.events.append(Event(HAND_END))
