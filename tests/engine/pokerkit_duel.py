"""The harness of the differential tests (tests/engine/test_pokerkit_diff.py): one hand played
on our engine and on PokerKit side by side (``Duel``), compared at every decision, after every
action and at the end, adapting exactly the listed differences; ``play_duel``, ``random_duel``
and ``run_many`` play hands through it."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

from engine.actions import ActionKind, LegalActions
from engine.cards import shuffled_deck
from engine.events import ACTION, SHOW
from engine.hand import NOT_REOPENED, STREETS, Hand
from tests.engine.pokerkit_side import (
    R9,
    R12_EQUAL,
    R16_CHAIN,
    R16_UNDER,
    R17_CHECK,
    R24_ODD,
    HandOutcome,
    Mismatch,
    Policy,
    Tally,
    choose_action,
    deal_pending,
    pokerkit_state,
    random_settings,
)


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
            deal_pending(pk)
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
        deal_pending(pk)
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


def run_many(first_seed: int, count: int) -> Tally:
    tally = Tally()
    for seed in range(first_seed, first_seed + count):
        tally.add(random_duel(seed))
    return tally
