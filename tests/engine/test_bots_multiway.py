"""Issue 29: the hard player's reads of several opponents (each caller's own range, fold
equity against all of them) and the place estimate near the end of a game (engine/bots/icm.py,
Malmuth-Harville)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.bots import icm, preflop, ranges
from engine.bots.base import Spot, read_spot
from engine.bots.combos import board_strength, card_ids
from engine.bots.counts import Counts
from engine.bots.reads import Profile, prior_for
from engine.bots.sim import deal, uniform_range
from engine.views import hand_view
from tests.engine.helpers import make_hand, play


# ------------------------------------------------------------------ ICM
def test_icm_textbook_three_players() -> None:
    """5,000 / 3,000 / 2,000 chips, places paying 50 / 30 / 20 (the usual textbook case):
    first place goes by chip share, second among the rest by their shares."""
    got = icm.equities([5000, 3000, 2000], [50, 30, 20])
    # by hand: P(A 2nd) = .3 * 5/7 + .2 * 5/8; P(B 2nd) = .5 * 3/5 + .2 * 3/8
    a = 0.5 * 50 + (0.3 * 5 / 7 + 0.2 * 5 / 8) * 30 + (1 - 0.5 - (0.3 * 5 / 7 + 0.2 * 5 / 8)) * 20
    b = 0.3 * 50 + 0.375 * 30 + (1 - 0.3 - 0.375) * 20
    assert got[0] == pytest.approx(a) and got[0] == pytest.approx(38.393, abs=1e-3)
    assert got[1] == pytest.approx(b) and got[1] == pytest.approx(32.75)
    assert got[2] == pytest.approx(100 - a - b)


def test_icm_basic_properties() -> None:
    assert icm.equities([700, 300], [1, 0]) == pytest.approx([0.7, 0.3])  # heads-up: chips
    assert icm.equities([100, 100, 100, 100]) == pytest.approx([1.5] * 4)  # linear 3..0
    # the chip leader's place value grows less than his chips: a chip won is worth less
    big = icm.equities([6000, 2000, 2000], [50, 30, 20])
    assert big[0] / 100 < 6000 / 10000
    # a player out holds the last place; the two left share first and second by their chips
    assert icm.equities([1000, 0, 500]) == pytest.approx([5 / 3, 0.0, 4 / 3])


def test_icm_a_coin_flip_for_the_stack_needs_more_than_half() -> None:
    """Three equal stacks: calling all in for everything at even odds loses places."""
    need = icm.call_threshold([1000, 1000, 1000], 0, 1, 1000, [50, 30, 20])
    assert need > 0.5
    assert icm.call_threshold([1000, 1000], 0, 1, 1000, [1, 0]) == pytest.approx(0.5)


def spot_of(hand_steps: list[str], stacks: dict[int, int], button: int, hole: str,
            seat: int) -> Spot:
    hand = make_hand(stacks, button=button, holes={seat: hole})
    play(hand, *hand_steps)
    return read_spot({"hand": hand_view(hand, seat)})


def test_need_to_call_an_all_in_near_the_end_is_above_the_chip_price() -> None:
    # three players left with 12-15 big blinds: seat 0 shoves, seat 1 (small blind) decides
    spot = spot_of(["0 all_in"], {0: 300, 1: 250, 2: 260}, 0, "AhKd", 1)
    assert icm.applies(spot)
    chip_need = spot.to_call / (spot.pot + spot.to_call)
    assert icm.need_to_call_all_in(spot, 0) > chip_need + 0.02
    heads_up = spot_of(["0 all_in"], {0: 300, 1: 250}, 0, "AhKd", 1)
    assert not icm.applies(heads_up)


# ------------------------------------------------------------------ range narrowing
def six_seat_raise_and_call(hole: str = "7d2c") -> Spot:
    """Button 0; seat 3 (first to act) raises, seat 4 calls behind it, seat 5 to act."""
    return spot_of(["3 raise 60", "4 call"], dict.fromkeys(range(6), 2000), 0, hole, 5)


def caller_range(spot: Spot, seat: int, profile: Profile) -> np.ndarray:
    """The combo weights the bot gives ``seat`` from their preflop actions and ``profile``."""
    return preflop.combo_weights(ranges.preflop_classes(spot, seat, profile))


def test_a_caller_behind_a_raiser_holds_a_narrow_range() -> None:
    spot = six_seat_raise_and_call()
    typical = Profile.typical(6)
    caller = caller_range(spot, 4, typical)
    assert caller.sum() / 1326 < 0.35  # far fewer hands than any two cards
    strong = preflop.combo_weights(preflop.top(0.2))
    share_strong = float((caller * strong).sum() / caller.sum())
    assert share_strong > 0.5  # most of it in the top fifth of hands (random: 0.2)


def test_a_looser_caller_gets_a_wider_range() -> None:
    spot = six_seat_raise_and_call()
    typical = Profile.typical(6)
    # Called 20 of the 30 raises he faced (a typical player in those seats: 4.5 of them).
    loose = Profile.of(Counts(hands=40, vpip=28, pfr=4, call_chances=30, raise_calls=20,
                              call_expected=4.5), prior_for(6))
    tight_range = caller_range(spot, 4, typical)
    loose_range = caller_range(spot, 4, loose)
    assert loose_range.sum() > tight_range.sum() * 1.5


# ------------------------------------------------------------------ fold equity
def test_a_bluffs_fold_equity_in_the_bots_sums_is_the_product_over_opponents() -> None:
    """The bot marks, trial by trial, who folds (the weakest part of each range); the trials in
    which nobody calls come to the product of each opponent's fold share."""
    hole = tuple(card_ids(["7d", "2c"]))
    board = tuple(card_ids(["Kh", "9s", "4d"]))
    weights = [uniform_range([*hole, *board])] * 3
    dealt = deal(hole, board, weights, 20_000, random.Random(3))
    strength, _ = board_strength(board)
    places = np.stack([ranges.relative_strength(w, strength)[dealt.picks[:, i]]
                       for i, w in enumerate(weights)], axis=1)
    folds = [0.6, 0.5, 0.4]
    everyone_folds = (places < np.array(folds)).all(axis=1).mean()
    assert everyone_folds == pytest.approx(np.prod(folds), abs=0.02)


# ------------------------------------------------------------------ opening, players behind
def _opens(profile: Profile) -> set[int]:
    """The starting-hand classes hard raises under the gun at six seats (everyone folded to it
    so far: nobody has acted), when every player behind is read as ``profile``."""
    from engine.bots import hard, medium
    from engine.bots.combos import CLASS_NAMES

    raised: set[int] = set()
    for cls, name in enumerate(CLASS_NAMES):
        suits = "hh" if name.endswith("s") else "hd"
        hole = name[0] + suits[0] + name[1] + suits[1]
        hand = make_hand({s: 2000 for s in range(6)}, button=0, holes={3: hole})
        spot = read_spot({"hand": hand_view(hand, 3)})
        action = medium.decide(spot, random.Random(5), lambda seat: profile, hard.HARD)
        if action.kind.value in ("raise", "bet", "all_in"):
            raised.add(cls)
    return raised


def test_hard_opens_no_narrower_than_the_chart_against_loose_players_behind() -> None:
    # Rule (issue 29, engine/bots/medium_preflop.py STEAL_RANGE): the folds read of the players
    # behind widens the opening chart against tight players and never narrows it against loose ones.
    # Before: against five players who play most hands, hard opened under the gun 20 of the 32
    # starting hands (classes) it opens against typical players (at the pool's six-seat tables
    # such folds cost it about 9 bb/100 against medium: benchmarks/bots_diverge.py).
    prior = prior_for(6)
    loose = Profile.of(Counts(hands=60, vpip=42, pfr=6), prior)
    tight = Profile.of(Counts(hands=60, vpip=4, pfr=3), prior)
    chart = _opens(Profile.typical(6))
    assert loose.vpip > 2 * prior.vpip and tight.vpip < 0.5 * prior.vpip
    assert chart <= _opens(loose)
    assert len(_opens(tight)) > len(chart) + 5
