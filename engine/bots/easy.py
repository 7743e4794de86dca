"""The easy computer player: loose and passive, like a friendly beginner.

It plays more than half of its hands, mostly by calling; it raises only its best starting
hands, calls bets whenever its hand looks "good enough" (its chance against random cards, with
little thought for what the bettor holds: it only counts out most of the hands that would not
bet at all), bets half the pot with a strong hand and almost never bluffs.
"""

from __future__ import annotations

import random

import numpy as np

from engine.actions import Action
from engine.bots import preflop
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check
from engine.bots.combos import board_strength
from engine.bots.reasons import Notes, said
from engine.bots.sim import deal, uniform_range

TRIALS = 250
# Made-hand percentile, by street, from which easy believes a bettor's hand mostly comes.
BETTOR_FLOOR = {1: 0.3, 2: 0.4, 3: 0.4}


def decide(spot: Spot, rng: random.Random, notes: Notes | None = None) -> Action:
    """``notes``: written as it decides, when it is to explain itself (engine.bots.reasons)."""
    if spot.street == 0:
        return _preflop(spot, rng, notes)
    return _postflop(spot, rng, notes)


def _preflop(spot: Spot, rng: random.Random, notes: Notes | None = None) -> Action:
    pct = preflop.percentile(spot.hole)
    bb = spot.big_blind
    call = spot.to_call
    level = spot.level()
    if pct <= 0.04 and level <= 2:
        return said(notes, "premium", bet_to(spot, max(3 * spot.current_bet, 3 * bb)))
    if pct <= 0.1 and level <= 1:
        return said(notes, "open", bet_to(spot, 3 * bb))
    if spot.legal["check"]:
        return said(notes, "free_check", check_or_call(spot))
    stack = spot.mine.stack
    if call >= stack * 0.5:  # a big decision: only good hands
        if pct <= 0.12:
            return said(notes, "price_call", check_or_call(spot))
        return said(notes, "fold_weak", fold_or_check(spot))
    if call <= bb and pct <= 0.6:
        return said(notes, "price_call", check_or_call(spot))
    if call <= 4 * bb and pct <= 0.4:
        return said(notes, "price_call", check_or_call(spot))
    if call <= 10 * bb and pct <= 0.2:
        return said(notes, "price_call", check_or_call(spot))
    if pct <= 0.08:
        return said(notes, "price_call", check_or_call(spot))
    return said(notes, "fold_weak", fold_or_check(spot))


def _postflop(spot: Spot, rng: random.Random, notes: Notes | None = None) -> Action:
    weights = [uniform_range()] * len(spot.opponents)
    if spot.to_call > 0:
        # Bet into, even a beginner gives the bettor a hand: the bettor's cards are dealt
        # mostly from those that pair the board or better (or draw), more so on later streets.
        bettor = spot.last_aggressor(spot.street)
        strength, _ = board_strength(spot.board)
        made = np.where(strength >= BETTOR_FLOOR[spot.street], 1.0, 0.15)
        weights = [made if o.seat == bettor else w for o, w in zip(spot.opponents, weights,
                                                                   strict=True)]
    dealt = deal(spot.hole, spot.board, weights, TRIALS, rng)
    equity = dealt.equity() if dealt.trials else 0.5
    pot, call = spot.pot, spot.to_call
    if notes is not None:
        notes.equity = equity
    if call == 0:
        if equity >= 0.72 or (equity < 0.2 and rng.random() < 0.04):
            return said(notes, "value" if equity >= 0.72 else "bluff", bet_to(spot, pot * 0.5))
        return said(notes, "check_weak", check_or_call(spot))
    price = call / (pot + call)
    if equity >= 0.88 and rng.random() < 0.5:
        return said(notes, "value", bet_to(spot, spot.current_bet * 2.5))
    if call >= spot.mine.stack and equity < price + 0.05:
        return said(notes, "price_fold", fold_or_check(spot))
    # Sticky before the river (one more card might help); on the river a call needs about
    # the price.
    sticky = 0.12 if spot.street < 3 else 0.05
    if equity + sticky >= price or (spot.street < 3 and equity >= 0.3 and call <= pot * 0.5):
        return said(notes, "price_call", check_or_call(spot))
    if equity >= 0.95:
        return said(notes, "value", all_in(spot))
    return said(notes, "price_fold", fold_or_check(spot))
