"""Scripted opponents of outside styles for the computer players' benchmark.

None of them reads the bots' code or the hands they saw before: each decides from its seat's
view with a few rules, like a kind of player met at a real table.

- ``mc-caller``: a Monte-Carlo caller. It deals the unknown cards many times against random
  hands and calls whenever its chance pays the price; it bets and raises only when its chance
  is high. Loose before the flop (random hands are easy to beat), honest after it.
- ``station``: a calling station. Never folds; raises its best few starting hands, bets only
  near-certain winners when checked to, never raises after the flop.
- ``tight``: plays about one hand in eight, bets and calls only with top pair or better, never
  bluffs: its calls mean strength.
- ``wild``: a maniac. Raises and re-raises most hands before the flop, bets the pot most times
  it is checked to, raises bets often, calls down with little.
"""

from __future__ import annotations

import random

from benchmarks.scripted import Past, View, made_strength, price
from engine.actions import Action
from engine.bots import preflop as preflop_table
from engine.bots.base import all_in, bet_to, check_or_call, fold_or_check, read_spot
from engine.bots.sim import deal, uniform_range

MC_TRIALS = 200


def mc_caller(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    opponents = max(len(spot.opponents), 1)
    if spot.street == 0:
        chance = float(preflop_table.VS_RANDOM[preflop_table.hand_class(spot.hole),
                                               min(opponents, 5) - 1])
    else:
        dealt = deal(spot.hole, spot.board, [uniform_range()] * opponents, MC_TRIALS, rng)
        chance = dealt.equity() if dealt.trials else 0.5
    fair = 1.0 / (opponents + 1)  # an even share of the pot
    strong = fair + (1.0 - fair) * 0.35
    if spot.to_call == 0:
        if chance >= strong and (spot.street > 0 or spot.level() <= 2):
            return bet_to(spot, spot.pot * 0.6 if spot.street else 3 * spot.big_blind)
        return check_or_call(spot)
    if chance >= fair + (1.0 - fair) * 0.55 and spot.level() <= 3:
        return bet_to(spot, spot.current_bet * 2.5)
    if chance >= price(spot) + 0.02:
        return check_or_call(spot)
    return fold_or_check(spot)


def station(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if pct <= 0.05 and spot.level() <= 2:
            return bet_to(spot, 3 * max(spot.current_bet, spot.big_blind))
        return check_or_call(spot)
    if spot.to_call == 0 and made_strength(spot) >= 0.93:
        return bet_to(spot, spot.pot * 0.5)
    return check_or_call(spot)


def tight(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        level = spot.level()
        if level <= 1:
            if pct <= 0.12:
                return bet_to(spot, 3 * bb + bb * sum(1 for a in spot.acts if a.kind == "call"))
            return check_or_call(spot) if spot.legal["check"] else fold_or_check(spot)
        if level == 2:
            if pct <= 0.035:
                return bet_to(spot, 3 * spot.current_bet)
            return check_or_call(spot) if pct <= 0.1 and spot.to_call <= 10 * bb \
                else fold_or_check(spot)
        if pct <= 0.015:
            return all_in(spot)
        return check_or_call(spot) if pct <= 0.035 else fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot * 0.66) if s >= 0.8 else check_or_call(spot)
    if s >= 0.96:
        return bet_to(spot, spot.current_bet * 2.5)
    return check_or_call(spot) if s >= 0.78 else fold_or_check(spot)


def wild(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if spot.level() <= 4 and rng.random() < 0.65:
            return bet_to(spot, 3 * max(spot.current_bet, spot.big_blind))
        if spot.legal["check"] or pct <= 0.75 or spot.to_call <= 2 * spot.big_blind:
            return check_or_call(spot)
        return fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot) if rng.random() < 0.75 else check_or_call(spot)
    if rng.random() < 0.3 + 0.3 * s:
        return bet_to(spot, spot.current_bet + spot.pot)
    if s >= 0.35 or rng.random() < 0.5:
        return check_or_call(spot)
    return fold_or_check(spot)


OUTSIDE = {"mc-caller": mc_caller, "station": station, "tight": tight, "wild": wild}
