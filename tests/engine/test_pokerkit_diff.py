"""Differential tests: our hand engine against PokerKit, the reference open-source engine.

Random hands (2-6 players, random blinds, many short stacks so that short blinds, short all ins
and side pots are common) are played with a random policy that picks among *our* legal actions.
Each action is applied to both engines, and at every decision the harness asserts that they
agree on who acts, whether checking is possible, the amount to call, whether a bet or raise is
possible and its minimum and maximum "to" amounts; after every action the stacks and the
current bets agree; at the end the board and the final stacks agree.

PokerKit player order: p1 (index 0) is the first player left of the button (the small blind,
heads-up the big blind) and the last index is the button. Our deal (R11) starts at the same
player, so PokerKit index ``k`` is our player ``(button + 1 + k) % n`` and both engines deal
the same cards from our deck order (two passes of hole cards, then burn + 3, burn + 1,
burn + 1).

Besides PokerKit, R16 is also checked at every decision against our own record of the round
(``r16_reopened``), so an engine that reopened the betting wrongly in a corner where PokerKit
happens to agree with it would still fail.

PokerKit follows slightly different rules in a few corners. The harness recognises exactly
these situations and adapts or skips exactly the comparison they concern; everywhere else the
comparison is strict. A situation that matches none of them is a failure. The table (id, the
rule that decides it at our table, what PokerKit does, what the harness does):

``R9-short-bb`` (R9)
    PokerKit: preflop, while nobody has put in the full big blind (the big blind, maybe also
    the small blind, posted short), the call, the minimum raise and the right to raise are
    priced from the largest blind actually posted; we price from the full big blind.
    Harness: in those states it compares who acts (and that folding is possible) and checks our
    call against R9 itself (the full big blind; only what was put in when nobody else still in
    has chips, R17); a call is compared by the chips it moves; the first bet or raise, or a
    call moving different chips, ends the comparison of that hand (counted as diverged).
    Folds keep it going.
``R12-equal-blinds`` (R12)
    PokerKit: finds the first player preflop after the largest blind and breaks a tie for the
    highest position, so heads-up with equal blinds (both posted in full, both with chips left)
    its big blind acts first; we start with the button. Harness: such a hand is not compared
    (counted as diverged); equal blinds never occur in our games (R10), only in imported hands.
``R16-under-bb`` (R16)
    PokerKit: a bet or raise reopens the betting when it adds at least the largest earlier bet
    or raise of the round, counted from zero rather than from the big blind, so an all-in bet
    below the big blind (or a short all-in raise over an unraised big blind) reopens the betting
    for players who already acted. Harness: where we refuse the raise as "not reopened",
    PokerKit's rule (rebuilt from our record of the round, see ``pokerkit_reopening``) allows it
    and the largest bet or raise of the round is below the big blind, it checks PokerKit's
    bounds exactly (current bet + big blind, all in) and continues (our policy never takes a
    raise we refuse; in the rarer reverse case it stops like ``R16-chain``).
``R16-chain`` (R16)
    PokerKit: sums short all ins from the last full raise, restarting the sum whenever it
    reaches a full raise, not from each player's own last action; after three or more short
    all ins it can refuse a raise to a player for whom the short all ins since their action add
    up to a full raise (or allow one that we refuse). Harness: where the right to raise alone
    differs, the player has acted this round (or we refuse as "not reopened") and PokerKit's
    rebuilt rule gives PokerKit's answer, it checks PokerKit's bounds when it offers a raise
    and continues; if we alone allow the raise and our player takes it, PokerKit cannot follow
    and the comparison of the hand stops there (counted as diverged).
``R17-check`` (R17)
    PokerKit: keeps a player in the betting order when the round began with someone able to
    bet against them, even if by their turn nobody still in can answer a bet, and asks them to
    check. We skip them: with nothing to call and nobody able to answer, there is no betting.
    Harness: when PokerKit's actor has nothing to call, may not raise and no other player still
    in could put in more than the current bet, it checks for them in PokerKit and continues.
``R24-odd-chips`` (R24)
    PokerKit: gives a split pot's whole remainder to the first winner left of the button (we
    give odd chips one at a time), and merges neighbouring pots whose contenders are the same
    once hands that win nothing are killed, splitting the sum once. Harness: in hands with a
    split pot it checks our own split against R24, and compares PokerKit's final stacks with
    PokerKit's distribution computed from our contributions and our hand values.

A fold with nothing to call (always allowed here, R14) is refused by PokerKit's tournament mode,
so the harness runs PokerKit in cash-game mode, which allows it (with a warning, silenced).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from pokerkit import Automation, Mode, NoLimitTexasHoldem, State
from pokerkit import Card as PKCard

from engine.actions import ActionKind, LegalActions
from engine.cards import ALL_CARDS, shuffled_deck
from engine.events import ACTION, SHOW
from engine.hand import NOT_REOPENED, STREETS, Hand
from engine.hand_settings import HandSettings
from engine.pots import Pot
from tests.engine.helpers import make_hand, play

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
def _deal_pending(state: State) -> None:
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
    _deal_pending(state)
    return state


# ---------------------------------------------------------------------------- the harness
class Duel:
    """One hand played on both engines side by side."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.pk = pokerkit_state(hand)
        self.n = hand.n
        self.outcome = HandOutcome()

    # mapping between our player index and PokerKit's
    def ours(self, k: int) -> int:
        return (self.hand.button_index + 1 + k) % self.n

    def theirs(self, i: int) -> int:
        return (i - self.hand.button_index - 1) % self.n

    def fail(self, what: str) -> Mismatch:
        h = self.hand
        return Mismatch(
            f"{what}\n  settings: {h.settings.to_dict()}\n  deck: {' '.join(map(str, h.deck))}\n"
            f"  actions: {[a.to_dict() for a in h.actions]}"
        )

    # --------------------------------------------------------------- comparisons
    def _r9_active(self) -> bool:
        """Preflop and nobody has put in the full big blind: PokerKit prices from the blinds
        actually posted (R9)."""
        h = self.hand
        return h.street == 0 and max(h.bet) < h.current_bet

    def equal_blinds_heads_up(self) -> bool:
        """Heads-up with both blinds posted in full at the same size and both players left
        with chips: PokerKit finds the first actor after the "largest" blind, and with a tie
        picks the button's, so its big blind acts first; we start with the button (R12)."""
        h = self.hand
        return h.n == 2 and h.bet[0] == h.bet[1] and h.stack[0] > 0 and h.stack[1] > 0

    def _pokerkit_check_only_for_r17(self, k: int) -> bool:
        """PokerKit asks p(k+1) to act although there is nothing to call and nobody else still
        in could put in more than the current bet: at our table there is no betting (R17)."""
        pk = self.pk
        top = max(pk.bets)
        return (
            pk.checking_or_calling_amount == 0
            and pk.min_completion_betting_or_raising_to_amount is None
            and not any(
                pk.statuses[j] and pk.stacks[j] + pk.bets[j] > top
                for j in range(self.n)
                if j != k
            )
        )

    def _sync_turn(self) -> None:
        """Bring PokerKit to the player we ask to act, through listed differences only."""
        h, pk = self.hand, self.pk
        while True:
            _deal_pending(pk)
            k = pk.actor_index
            mine = h.to_act
            if k is None or (mine is not None and self.ours(k) == mine):
                return
            j = self.ours(k)
            if self._pokerkit_check_only_for_r17(k):
                pk.check_or_call()
                self.outcome.adapted[R17_CHECK] += 1
                continue
            raise self.fail(
                f"PokerKit asks p{k + 1} (our seat {h.seats[j]}) to act, "
                f"we ask seat {h.seat_to_act}"
            )

    def compare_decision(self, legal: LegalActions) -> str | None:
        """Compare the legal action sets. Returns the listed difference under which PokerKit
        cannot follow a bet or raise of ours here (None when it can)."""
        h, pk = self.hand, self.pk
        i = h.to_act
        assert i is not None
        k = pk.actor_index
        if k is None or self.ours(k) != i:
            raise self.fail(f"we ask seat {legal.seat} to act, PokerKit asks {k}")
        if not pk.can_fold():
            raise self.fail("PokerKit refuses a fold")
        self.outcome.decisions += 1
        if self._r9_active():
            # Our price is still checked against R9 itself: the full big blind, or only what
            # was put in when nobody else still in has chips left (R17).
            others = [j for j in range(self.n) if j != i and not h.folded[j]]
            price = h.settings.big_blind
            if not any(h.stack[j] for j in others):
                price = min(price, max(h.bet[j] for j in others))
            if legal.call != min(h.stack[i], max(0, price - h.bet[i])):
                raise self.fail(f"R9: we ask {legal.call} to call a big blind of {price}")
            self.outcome.adapted[R9] += 1
            return R9
        pk_call = pk.checking_or_calling_amount
        pk_min = pk.min_completion_betting_or_raising_to_amount
        pk_max = pk.max_completion_betting_or_raising_to_amount
        if pk_call is None:
            raise self.fail("PokerKit offers no check or call")
        if legal.can_check != (pk_call == 0) or legal.call != pk_call:
            raise self.fail(
                f"call: ours can_check={legal.can_check} call={legal.call}, PokerKit {pk_call}"
            )
        ours_raise = legal.min_to is not None
        # R16 itself, read from our record of the round, in every state (not only where
        # PokerKit disagrees): a player who acted may raise again exactly when reopened.
        if ours_raise and h.acted[i] and not self.r16_reopened(i):
            raise self.fail("right to raise: we reopen the betting without a full raise (R16)")
        if not ours_raise and legal.reason == NOT_REOPENED and self.r16_reopened(i):
            raise self.fail("right to raise: we refuse a raise after a full raise (R16)")
        if ours_raise == (pk_min is not None):
            if ours_raise and (legal.min_to, legal.max_to) != (pk_min, pk_max):
                raise self.fail(
                    f"raise bounds: ours {legal.min_to}-{legal.max_to}, PokerKit {pk_min}-{pk_max}"
                )
            return None
        # The two engines disagree on the right to raise: only PokerKit's reopening rule (R16
        # rows of the table), reproduced exactly from our own record of the round, may explain it.
        pk_raise, comp = self.pokerkit_reopening(i)
        reopened = self.r16_reopened(i)
        if not (
            pk_raise == (pk_min is not None)
            and (
                (not ours_raise and legal.reason == NOT_REOPENED and not reopened)
                or (ours_raise and h.acted[i] and reopened)
            )
        ):
            raise self.fail(
                f"right to raise: ours {ours_raise} ({legal.reason!r}), "
                f"PokerKit {pk_min is not None}"
            )
        if pk_min is not None:
            expected = (
                min(h.current_bet + max(comp, h.settings.big_blind), legal.all_in_to),
                legal.all_in_to,
            )
            if (pk_min, pk_max) != expected:
                raise self.fail(f"R16: PokerKit bounds {pk_min}-{pk_max}, expected {expected}")
        corner = R16_UNDER if comp < h.settings.big_blind else R16_CHAIN
        self.outcome.adapted[corner] += 1
        return corner if ours_raise else None

    def r16_reopened(self, i: int) -> bool:
        """R16 read from our record of the round: the current bet has grown by at least a full
        raise (R15: the big blind, or the largest full raise so far) since player ``i`` last
        acted, or they have not acted yet."""
        h = self.hand
        street = STREETS[h.street]
        level = full = h.settings.big_blind
        if h.street > 0:
            level = 0
        at_last_action = None
        for e in h.events:
            if e.kind != ACTION or e.street != street:
                continue
            if e.action in ("bet", "raise"):
                full = max(full, e.to - level)
                level = e.to
            if e.seat == h.seats[i]:
                at_last_action = level
        return at_last_action is None or level - at_last_action >= full

    def pokerkit_reopening(self, i: int) -> tuple[bool, int]:
        """PokerKit's rule for a raise by player ``i`` now, rebuilt from our events of the
        round: (may raise, largest bet or raise of the round).

        PokerKit counts a bet or raise as full when it adds at least the largest earlier one of
        the round (starting from zero): that forgets everyone's earlier actions. Short all ins
        are summed from the last full raise, the sum restarting whenever it reaches a full
        raise; while the running sum is short, players who acted since the last full raise may
        not raise. A player whose call is smaller than the largest raise may not raise either.
        """
        h = self.hand
        street = STREETS[h.street]
        level = h.settings.big_blind if h.street == 0 else 0
        largest = 0
        acted: set[int | None] = set()
        chain: list[int] = []
        for e in h.events:
            if e.kind != ACTION or e.street != street:
                continue
            if e.action in ("bet", "raise"):
                added = e.to - level
                level = e.to
                if added >= largest:
                    acted = set()
                largest = max(largest, added)
                if e.all_in:
                    chain.append(added)
                else:
                    chain = []
                if sum(chain) >= largest:
                    chain = []
            acted.add(e.seat)
        call = min(h.stack[i], h.current_bet - h.bet[i])
        blocked = call < largest or (bool(chain) and h.seats[i] in acted)
        return not blocked, largest

    def compare_chips(self) -> bool:
        """Stacks and bets agree after an action (for a running hand)."""
        h, pk = self.hand, self.pk
        for k in range(self.n):
            i = self.ours(k)
            if pk.stacks[k] != h.stack[i] or pk.bets[k] != h.bet[i]:
                return False
        return True

    # --------------------------------------------------------------- the end
    def pokerkit_expected_stacks(self) -> tuple[list[int], bool]:
        """Final stacks in PokerKit order as PokerKit distributes our showdown (R24 corner).

        PokerKit kills the hands that win nothing, builds pots from every contribution, merges
        neighbouring pots with the same contenders and gives each pot's whole remainder to the
        first winner (lowest PokerKit index). Returns the stacks and whether any split had
        chips left over.
        """
        h = self.hand
        winners_any = {h.seats.index(a.seat) for a in h.awards}
        values = {i: v.value for i, v in h.shown.items()}
        start = [s - t for s, t in zip(h.settings.stacks, h.total, strict=True)]
        alive = [not h.folded[i] and i in winners_any for i in range(self.n)]
        pots: list[tuple[int, tuple[int, ...]]] = []
        previous = 0
        for level in sorted(set(h.total)):
            amount = sum(min(c, level) - min(c, previous) for c in h.total)
            eligible = tuple(
                i
                for i in sorted(range(self.n), key=self.theirs)
                if alive[i] and h.total[i] >= level
            )
            while pots and pots[-1][1] == eligible:
                amount += pots.pop()[0]
            if amount:
                pots.append((amount, eligible))
            previous = level
        stacks = list(start)
        remainder = False
        for amount, eligible in pots:
            if not eligible:
                raise self.fail(f"a pot of {amount} that nobody still in can win")
            top = max(values[i] for i in eligible)
            best = [i for i in eligible if values[i] == top]
            share, odd = divmod(amount, len(best))
            remainder = remainder or odd > 0
            for n, i in enumerate(best):
                stacks[i] += share + (odd if n == 0 else 0)
        return [stacks[self.ours(k)] for k in range(self.n)], remainder

    def check_r24(self) -> None:
        """Our own split (R24): equal shares, odd chips one at a time from the button's left."""
        h = self.hand
        left = [(h.button_index + 1 + k) % self.n for k in range(self.n)]
        by_pot: dict[int, list[tuple[int, int]]] = {}
        for a in h.awards:
            if a.hand is not None:
                by_pot.setdefault(a.pot, []).append((h.seats.index(a.seat), a.amount))
        for pot_index, shares in by_pot.items():
            total = h.pots[pot_index].amount
            if sum(x for _, x in shares) != total:
                raise self.fail(f"pot {pot_index} awards do not add up to {total}")
            order = sorted(shares, key=lambda s: left.index(s[0]))
            base, odd = divmod(total, len(order))
            if [x for _, x in order] != [base + (1 if n < odd else 0) for n in range(len(order))]:
                raise self.fail(f"pot {pot_index} split {order} breaks R24")

    def compare_end(self) -> None:
        h, pk = self.hand, self.pk
        self._sync_turn()
        _deal_pending(pk)
        if pk.status:
            raise self.fail("our hand is over, PokerKit's is not")
        board = [repr(c) for street in pk.board_cards for c in street]
        if board != [str(c) for c in h.board]:
            raise self.fail(f"board: ours {h.board}, PokerKit {board}")
        ours = [h.stack[self.ours(k)] for k in range(self.n)]
        theirs = list(pk.stacks)
        split = sum(1 for a in h.awards if a.hand is not None) > len(
            {a.pot for a in h.awards if a.hand is not None}
        )
        if split:
            self.check_r24()
            expected, remainder = self.pokerkit_expected_stacks()
            remainder = remainder or any(
                pot.amount % sum(1 for a in h.awards if a.pot == p and a.hand is not None)
                for p, pot in enumerate(h.pots)
                if len(pot.eligible) > 1
            )
            if theirs != expected:
                raise self.fail(f"split pots: PokerKit {theirs}, expected {expected}, ours {ours}")
            if expected != ours:
                if not remainder:
                    raise self.fail(f"split pots without odd chips: ours {ours}, PokerKit {theirs}")
                self.outcome.adapted[R24_ODD] += 1
            return
        if theirs != ours:
            raise self.fail(f"final stacks (PokerKit order): ours {ours}, PokerKit {theirs}")

    # --------------------------------------------------------------- one step
    def step(self, kind: ActionKind, amount: int | None) -> None:
        h, pk = self.hand, self.pk
        legal = h.legal_actions()
        assert legal is not None
        corner = self.compare_decision(legal)
        i = h.to_act
        assert i is not None
        count = len(h.events)
        bet_before = h.bet[i]
        h.act(legal.seat, kind, amount)
        event = h.events[count]  # the action itself
        raising = kind in (ActionKind.BET, ActionKind.RAISE) or (
            kind == ActionKind.ALL_IN and legal.min_to is not None
        )
        if corner and raising:
            self.outcome.diverged = corner
            return
        try:
            if kind == ActionKind.FOLD:
                pk.fold()
                added = 0
            elif raising:
                to = legal.all_in_to if amount is None else amount
                added = pk.complete_bet_or_raise_to(to).amount - bet_before
            else:
                added = pk.check_or_call().amount
        except ValueError as exc:
            raise self.fail(f"PokerKit refused our {kind.value} {amount}: {exc}") from exc
        if added != event.amount:
            if corner == R9:
                self.outcome.diverged = R9
                return
            raise self.fail(f"{kind.value} adds {event.amount} chips here, {added} in PokerKit")
        if not h.finished:
            self._sync_turn()
            if not self.compare_chips():
                if corner == R9:
                    self.outcome.diverged = R9
                    return
                raise self.fail(
                    f"chips after {kind.value}: ours {h.stack}/{h.bet}, "
                    f"PokerKit {pk.stacks}/{pk.bets} (PokerKit order)"
                )


def play_duel(
    hand: Hand,
    rng: random.Random,
    policy: Callable[[random.Random, LegalActions], tuple[ActionKind, int | None]] = choose_action,
) -> HandOutcome:
    """Play ``hand`` with ``policy`` on both engines, comparing at every step."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        duel = Duel(hand)
        duel.outcome.players = hand.n
        if duel.equal_blinds_heads_up():
            duel.outcome.diverged = R12_EQUAL
            return duel.outcome
        duel._sync_turn()
        if not hand.finished and duel.compare_chips() is False:
            raise duel.fail("chips after the blinds differ")
        while not hand.finished:
            legal = hand.legal_actions()
            if legal is None:
                raise duel.fail("the hand is running but nobody is to act")
            kind, amount = policy(rng, legal)
            duel.step(kind, amount)
            if duel.outcome.diverged:
                break
        if duel.outcome.diverged is None:
            duel.compare_end()
        outcome = duel.outcome
        outcome.street = max(
            (STREETS.index(e.street) for e in hand.events if e.kind == ACTION), default=0
        )
        outcome.showdown = any(e.kind == SHOW for e in hand.events)
        outcome.side_pots = hand.finished and len(hand.pots) > 1
        return outcome


def random_duel(seed: int) -> HandOutcome:
    """One random hand from ``seed`` (settings, deck and actions all follow from it)."""
    rng = random.Random(seed)
    settings = random_settings(rng)
    hand = Hand(settings, shuffled_deck(rng.getrandbits(64)))
    return play_duel(hand, rng, Policy.drawn(rng))


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


def run_many(first_seed: int, count: int) -> Tally:
    tally = Tally()
    for seed in range(first_seed, first_seed + count):
        tally.add(random_duel(seed))
    return tally


# ---------------------------------------------------------------------------- tests
CHUNKS = 4
HANDS_PER_CHUNK = 550  # 2,200 random hands in CI


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_hands_agree_with_pokerkit(chunk: int) -> None:
    """R9-R24: random hands agree with PokerKit step by step outside the listed differences."""
    tally = run_many(1_000_000 + chunk * HANDS_PER_CHUNK, HANDS_PER_CHUNK)
    assert tally.hands == HANDS_PER_CHUNK
    # The random hands must really reach the corners: short blinds, side pots, splits.
    assert tally.clean > HANDS_PER_CHUNK // 2
    assert tally.decisions > 3 * HANDS_PER_CHUNK


# ---------------------------------------------------------------------------- each listed corner
class Script:
    """A policy playing the given actions in order ("raise 120", "all_in", "fold"), then
    checking or calling."""

    def __init__(self, *steps: str) -> None:
        self.steps = [s.split() for s in steps]

    def __call__(self, rng: random.Random, legal: LegalActions) -> tuple[ActionKind, int | None]:
        if self.steps:
            kind, *amount = self.steps.pop(0)
            return ActionKind(kind), int(amount[0]) if amount else None
        return (ActionKind.CHECK if legal.can_check else ActionKind.CALL), None


def duel_of(
    stacks: dict[int, int], button: int, blinds: tuple[int, int] = (10, 20), board: str = ""
) -> Duel:
    return Duel(make_hand(stacks, button, blinds, board=board))


def test_r9_short_big_blind_is_detected_and_stops_the_comparison() -> None:
    """R9: we call a short big blind for the full 20; PokerKit only for the 15 posted."""
    duel = duel_of({0: 1000, 1: 1000, 2: 15, 3: 1000}, button=0)
    legal = duel.hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert legal.call == 20 and legal.min_to == 40
    assert duel.pk.checking_or_calling_amount == 15
    assert duel.pk.min_completion_betting_or_raising_to_amount == 35
    outcome = play_duel(duel.hand, random.Random(0), Script("call"))
    assert outcome.diverged == R9 and outcome.decisions == 1


def test_r9_folds_to_a_short_big_blind_are_still_compared() -> None:
    """R9: folds move no chips, so the hand stays comparable to the end."""
    hand = make_hand({0: 1000, 1: 1000, 2: 15, 3: 1000}, button=0)
    outcome = play_duel(hand, random.Random(0), Script("fold", "fold", "fold"))
    assert outcome.diverged is None and outcome.adapted[R9] == 3
    assert hand.finished


def test_r12_equal_blinds_heads_up_is_detected() -> None:
    """R12: heads-up with equal blinds PokerKit lets the big blind act first; we start with
    the button (small blind)."""
    hand = make_hand({0: 500, 1: 500}, button=0, blinds=(20, 20))
    assert hand.seat_to_act == 0
    outcome = play_duel(hand, random.Random(0), Script())
    assert outcome.diverged == R12_EQUAL


def test_r16_under_size_all_in_bet_reopens_only_in_pokerkit() -> None:
    """R16: on the flop both blinds check, the button bets all in for 10 (below the big blind).
    We do not reopen the betting for the blinds; PokerKit does, from 10 + 20."""
    stacks = {0: 30, 1: 1000, 2: 1000}
    script = ("call", "call", "check", "check", "check", "all_in")
    duel = duel_of(stacks, button=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in script:
            duel.step(ActionKind(step), None)
    legal = duel.hand.legal_actions()
    assert legal is not None and legal.seat == 1 and legal.call == 10
    assert legal.bet_or_raise is None and legal.reason == NOT_REOPENED
    assert duel.pk.min_completion_betting_or_raising_to_amount == 30
    outcome = play_duel(make_hand(stacks, button=0), random.Random(0), Script(*script))
    assert outcome.adapted[R16_UNDER] == 2 and outcome.diverged is None


def test_r16_short_all_ins_sum_from_each_players_last_action() -> None:
    """R16: after a raise to 120 (adding 100), short all ins to 180, 230 and 290 add 170 over
    seat 0's raise and 110 over seat 2's call: at our table both may raise again. PokerKit sums
    the short all ins from the last full raise, restarting the sum once it reached 100, so it
    refuses them."""
    stacks = {0: 1000, 1: 180, 2: 1000, 3: 230, 4: 290, 5: 1000}
    script = ("raise 120", "all_in", "call", "all_in", "all_in", "fold")
    duel = duel_of(stacks, button=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in script:
            kind, *amount = step.split()
            duel.step(ActionKind(kind), int(amount[0]) if amount else None)
    legal = duel.hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert legal.bet_or_raise == ActionKind.RAISE and legal.min_to == 390
    assert duel.pk.min_completion_betting_or_raising_to_amount is None
    outcome = play_duel(make_hand(stacks, button=3), random.Random(0), Script(*script))
    assert outcome.adapted[R16_CHAIN] == 2 and outcome.diverged is None
    # When seat 0 does raise, PokerKit cannot follow: the comparison stops, counted.
    outcome = play_duel(
        make_hand(stacks, button=3), random.Random(0), Script(*script, "raise 390")
    )
    assert outcome.diverged == R16_CHAIN and outcome.decisions == 7


def test_r16_found_by_the_100k_run_two_short_all_ins_reopen_for_a_caller() -> None:
    """R16 (seed 39395 of benchmarks/diff_many.py): seat 6 raises to 11,222 (adding 11,072);
    seat 7 goes all in to 13,892 (short) and seat 8 calls; seats 0 and 1 go all in to 22,624
    and 26,941 (both short). Since seat 8's call the bet grew by 13,049, a full raise: seat 8
    may raise again. PokerKit refuses: its sum of short all ins reached a full raise at 22,624
    and started again from zero."""
    stacks = {0: 22624, 1: 26941, 5: 20642, 6: 39023, 7: 13892, 8: 31831}
    script = ("raise 11222", "raise 13892", "call", "raise 22624", "raise 26941", "call", "call")
    hand = make_hand(stacks, button=0, blinds=(75, 150))
    seats = (6, 7, 8, 0, 1, 5, 6)
    play(hand, *(f"{seat} {step}" for seat, step in zip(seats, script, strict=True)))
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 8 and legal.call == 13049
    assert legal.bet_or_raise == ActionKind.RAISE and legal.min_to == 31831 == legal.max_to
    outcome = play_duel(
        make_hand(stacks, button=0, blinds=(75, 150)), random.Random(0),
        Script(*script, "raise 31831"),
    )
    assert outcome.diverged == R16_CHAIN


def test_r17_pokerkit_asks_for_a_check_we_skip() -> None:
    """R17: the button calls all in for exactly the big blind, the small blind folds: nobody
    can bet against the big blind, so we end the round; PokerKit asks the big blind to check."""
    hand = make_hand({0: 20, 1: 1000, 2: 1000}, button=0)
    outcome = play_duel(hand, random.Random(0), Script("all_in", "fold"))
    assert outcome.adapted[R17_CHECK] == 1 and outcome.diverged is None
    assert [a.seat for a in hand.actions] == [0, 1]


def test_r24_three_way_split_odd_chips() -> None:
    """R24: 35 chips split three ways: we give 12, 12, 11 from the button's left; PokerKit
    gives 13, 11, 11."""
    hand = make_hand({0: 100, 1: 100, 2: 100, 3: 100}, button=0, blinds=(5, 10), board="AsKhQdJcTs")
    outcome = play_duel(hand, random.Random(0), Script("call", "call", "fold"))
    assert outcome.adapted[R24_ODD] == 1 and outcome.diverged is None
    assert hand.final_stacks == {0: 101, 1: 95, 2: 102, 3: 102}


def test_harness_catches_missing_side_pots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: an engine that puts every chip in one pot (no R22) is caught."""
    import engine.hand

    def one_pot(contributions: list[int], folded: list[bool]) -> list[Pot]:
        return [Pot(sum(contributions), tuple(i for i, f in enumerate(folded) if not f))]

    monkeypatch.setattr(engine.hand, "build_pots", one_pot)
    with pytest.raises(Mismatch, match="final stacks"):
        run_many(7, 300)


def test_harness_catches_a_reopening_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that lets short all ins reopen the betting (no R16) is caught, even in the
    corners where PokerKit differs from us."""
    real = Hand._raise_block

    def always_reopen(self: Hand, i: int, call_to: int | None = None) -> str:
        reason = real(self, i, call_to)
        return "" if reason == NOT_REOPENED else reason

    monkeypatch.setattr(Hand, "_raise_block", always_reopen)
    with pytest.raises(Mismatch, match="right to raise"):
        run_many(7, 3000)
    stacks = {0: 30, 1: 1000, 2: 1000}
    hand = make_hand(stacks, button=0)
    with pytest.raises(Mismatch, match="right to raise"):
        script = Script("call", "call", "check", "check", "check", "all_in")
        play_duel(hand, random.Random(0), script)


def test_harness_catches_a_wrong_odd_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    """R24 is checked on our side too: odd chips given from the wrong end are caught."""
    import engine.hand

    def backwards(amount: int, winners: list[int]) -> dict[int, int]:
        share, odd = divmod(amount, len(winners))
        return {w: share + (1 if k >= len(winners) - odd else 0) for k, w in enumerate(winners)}

    monkeypatch.setattr(engine.hand, "split_pot", backwards)
    hand = make_hand({0: 100, 1: 100, 2: 100, 3: 100}, button=0, blinds=(5, 10), board="AsKhQdJcTs")
    with pytest.raises(Mismatch, match="R24"):
        play_duel(hand, random.Random(0), Script("call", "call", "fold"))
