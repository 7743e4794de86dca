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

The harness is tests/engine/pokerkit_duel.py; PokerKit's side and the random hands
tests/engine/pokerkit_side.py.
"""

from __future__ import annotations

import random
import warnings

import pytest

from engine.actions import ActionKind, LegalActions
from engine.hand import NOT_REOPENED, Hand
from engine.pots import Pot
from tests.engine.helpers import make_hand, play
from tests.engine.pokerkit_duel import Duel, play_duel, run_many
from tests.engine.pokerkit_side import (
    R9,
    R12_EQUAL,
    R16_CHAIN,
    R16_UNDER,
    R17_CHECK,
    R24_ODD,
    Mismatch,
)

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
    import engine.pots

    def backwards(amount: int, winners: list[int]) -> dict[int, int]:
        share, odd = divmod(amount, len(winners))
        return {w: share + (1 if k >= len(winners) - odd else 0) for k, w in enumerate(winners)}

    monkeypatch.setattr(engine.pots, "split_pot", backwards)
    hand = make_hand({0: 100, 1: 100, 2: 100, 3: 100}, button=0, blinds=(5, 10), board="AsKhQdJcTs")
    with pytest.raises(Mismatch, match="R24"):
        play_duel(hand, random.Random(0), Script("call", "call", "fold"))
