"""A pool of outside player styles for the honest yardstick of the computer players (issue 29).

None of these reads the bots' code; each decides from its seat's view (and, for the adapter, the
hands of the session it saw) with rules of its own, unlike the styles of
:mod:`benchmarks.bots_opponents` (a Monte-Carlo caller, a station, a tight folder, a maniac):

- ``rock`` (tight passive): plays about one hand in seven, mostly by calling; raises only the
  very best starting hands; after the flop calls with a pair or better, bets only big hands.
- ``fish`` (loose passive): plays over half its hands by limping and calling, calls bets with
  any pair or draw and now and then with nothing, bets small with strong hands only.
- ``tag`` (tight aggressive by equity): opens by position, three-bets its best hands; after the
  flop deals the unknown cards against the better half of hands for each opponent still in and
  bets or raises when that equity is high, calls when it pays the price, else folds.
- ``bluffer`` (bluff-heavy): opens a third of its hands, three-bets light, bets most of its air
  and its strong hands (checks the middle), barrels on, raises bets as a bluff now and then.
- ``shover`` (short-stack shover): sits with 15 big blinds and goes all in or folds before the
  flop (a third of its hands unopened, its best tenth against a raise).
- ``check-raiser``: a solid player who checks every hand first to act after the flop and
  check-raises its strong hands, its draws and a few bluffs; bets when checked to with value.
- ``min-raiser``: raises and bets the minimum the rules allow, with a wide range; calls a lot.
- ``adapter``: a solid player that keeps score, from the hands of the session it saw, of who won
  its chips; against the player beating it most, it calls down wider if that player bets a lot
  (and bluffs him less) or folds more to him if he seldom bets, and re-raises him more often.

``STACK_BB`` gives the styles that sit with other than the table's 100 big blinds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from benchmarks.scripted import ANY_PRICE, Past, Policy, View, by_ranges, made_strength, price
from engine.actions import Action, ActionKind
from engine.bots import preflop as preflop_table
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check, read_spot
from engine.bots.sim import deal


def _pct(spot: Spot) -> float:
    return preflop_table.percentile(spot.hole)


def _min_raise(spot: Spot) -> Action:
    legal = spot.legal
    if legal["bet_or_raise"] is None or legal["min_to"] is None:
        return check_or_call(spot)
    if int(legal["min_to"]) >= int(legal["max_to"]):
        return all_in(spot)
    return Action(spot.me, ActionKind(legal["bet_or_raise"]), int(legal["min_to"]))


def _unopened(spot: Spot) -> bool:
    return spot.level() <= 1


def _behind(spot: Spot) -> int:
    return spot.behind_preflop(spot.me)


# ------------------------------------------------------------------ tight passive
def rock(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.025, [(0.14, 6), (0.04, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        if s >= 0.93 and rng.random() < 0.6:
            return bet_to(spot, spot.pot * 0.4)
        return check_or_call(spot)
    if s >= 0.98 and rng.random() < 0.3:
        return bet_to(spot, spot.current_bet * 2.2)
    need = 0.72 if spot.to_call > 0.7 * spot.pot else 0.6
    return check_or_call(spot) if s >= need else fold_or_check(spot)


# ------------------------------------------------------------------ loose passive
def fish(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.02, [(0.6, 8), (0.25, 25), (0.05, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        if s >= 0.9 and rng.random() < 0.5:
            return bet_to(spot, spot.pot * 0.33)
        return check_or_call(spot)
    if s >= 0.25 if spot.street < 3 else s >= 0.42:
        return check_or_call(spot)
    return check_or_call(spot) if rng.random() < 0.2 else fold_or_check(spot)


# ------------------------------------------------------------------ tight aggressive by equity
TAG_OPEN = {5: 0.14, 4: 0.17, 3: 0.22, 2: 0.32, 1: 0.45}
TAG_TRIALS = 150
_BETTER_HALF = preflop_table.combo_weights(preflop_table.top(0.5))


def tag(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    bb = spot.big_blind
    heads_up = spot.n == 2
    if spot.street == 0:
        pct = _pct(spot)
        level = spot.level()
        if level <= 1:
            width = 0.7 if heads_up else TAG_OPEN.get(_behind(spot), 0.45)
            if spot.legal["check"]:
                return bet_to(spot, 4 * bb) if pct <= 0.1 else check_or_call(spot)
            if pct <= width:
                return bet_to(spot, (2.5 if heads_up else 3) * bb)
            return fold_or_check(spot)
        if level == 2:
            if pct <= (0.12 if heads_up else 0.05):
                return bet_to(spot, 3 * spot.current_bet)
            if pct <= (0.35 if heads_up else 0.13) and spot.to_call <= 5 * bb:
                return check_or_call(spot)
            return fold_or_check(spot)
        if pct <= 0.02:
            return all_in(spot)
        return check_or_call(spot) if pct <= 0.045 else fold_or_check(spot)
    k = max(len(spot.opponents), 1)
    dealt = deal(spot.hole, spot.board, [_BETTER_HALF] * k, TAG_TRIALS, rng)
    eq = dealt.equity() if dealt.trials else 0.5
    fair = 1.0 / (k + 1)
    if spot.to_call == 0:
        raiser = spot.last_aggressor(0) == spot.me
        if eq >= fair + (1 - fair) * 0.3 or (raiser and k == 1 and spot.street == 1
                                               and rng.random() < 0.55):
            return bet_to(spot, spot.pot * 0.66)
        return check_or_call(spot)
    if eq >= fair + (1 - fair) * 0.5:
        return bet_to(spot, spot.current_bet * 2.8)
    if eq >= price(spot) + 0.08:
        return check_or_call(spot)
    return fold_or_check(spot)


# ------------------------------------------------------------------ bluff-heavy
def bluffer(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = _pct(spot)
        level = spot.level()
        if level <= 1:
            if spot.legal["check"]:
                return bet_to(spot, 4 * bb) if pct <= 0.2 else check_or_call(spot)
            if pct <= (0.75 if spot.n == 2 else 0.33):
                return bet_to(spot, 3 * bb)
            return fold_or_check(spot)
        if level == 2:
            if pct <= 0.04 or (0.25 <= pct <= 0.55 and rng.random() < 0.15):
                return bet_to(spot, 3 * spot.current_bet)
            return check_or_call(spot) if pct <= 0.22 else fold_or_check(spot)
        if pct <= 0.02:
            return all_in(spot)
        return check_or_call(spot) if pct <= 0.05 else fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        if s >= 0.7 or (s < 0.4 and rng.random() < 0.7):
            return bet_to(spot, spot.pot * 0.75)
        return check_or_call(spot)
    if s >= 0.9 or (s < 0.3 and rng.random() < 0.18):
        return bet_to(spot, spot.current_bet * 2.5 + spot.pot * 0.3)
    return check_or_call(spot) if s >= 0.5 else fold_or_check(spot)


# ------------------------------------------------------------------ short-stack shover
def shover(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        pct = _pct(spot)
        if _unopened(spot):
            if spot.legal["check"]:
                return all_in(spot) if pct <= 0.2 else check_or_call(spot)
            width = 0.7 if spot.n == 2 else min(0.18 + 0.05 * max(5 - _behind(spot), 0), 0.4)
            return all_in(spot) if pct <= width else fold_or_check(spot)
        return all_in(spot) if pct <= (0.2 if spot.n == 2 else 0.1) else fold_or_check(spot)
    s = made_strength(spot)
    if s >= 0.6:
        return all_in(spot)
    return fold_or_check(spot)


# ------------------------------------------------------------------ check-raiser
def _solid_preflop(spot: Spot, rng: random.Random, three_bet: float = 0.04) -> Action:
    bb = spot.big_blind
    pct = _pct(spot)
    level = spot.level()
    heads_up = spot.n == 2
    if level <= 1:
        if spot.legal["check"]:
            return bet_to(spot, 4 * bb) if pct <= 0.1 else check_or_call(spot)
        width = 0.65 if heads_up else TAG_OPEN.get(_behind(spot), 0.45) * 1.1
        if pct <= width:
            return bet_to(spot, (2.5 if heads_up else 3) * bb)
        return fold_or_check(spot)
    if level == 2:
        if pct <= (three_bet * 2.5 if heads_up else three_bet):
            return bet_to(spot, 3 * spot.current_bet)
        if pct <= (0.35 if heads_up else 0.15) and spot.to_call <= 5 * bb:
            return check_or_call(spot)
        return fold_or_check(spot)
    if pct <= 0.02:
        return all_in(spot)
    return check_or_call(spot) if pct <= 0.05 else fold_or_check(spot)


def _first_to_act(spot: Spot) -> bool:
    """Nobody has acted yet on this street."""
    return not spot.street_acts(spot.street)


def check_raiser(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    if spot.street == 0:
        return _solid_preflop(spot, rng)
    s = made_strength(spot)
    if spot.to_call == 0:
        if _first_to_act(spot):
            return check_or_call(spot)  # always check first: the trap is set
        if s >= 0.62:
            return bet_to(spot, spot.pot * 0.5)
        return check_or_call(spot)
    checked_first = any(a.seat == spot.me and a.kind == "check"
                        for a in spot.street_acts(spot.street))
    if checked_first and (s >= 0.8 or (0.5 <= s < 0.65 and spot.street < 3 and rng.random() < 0.4)
                          or (s < 0.2 and rng.random() < 0.12)):
        return bet_to(spot, spot.current_bet * 3 + spot.pot * 0.2)
    if s >= 0.88:
        return bet_to(spot, spot.current_bet * 2.5)
    return check_or_call(spot) if s >= 0.42 + 0.6 * price(spot) else fold_or_check(spot)


# ------------------------------------------------------------------ minimum-raiser
def min_raiser(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = _pct(spot)
        level = spot.level()
        if level <= 1:
            if pct <= (0.7 if spot.n == 2 else 0.35):
                return _min_raise(spot)
            if spot.legal["check"]:
                return check_or_call(spot)
            return check_or_call(spot) if pct <= 0.5 and spot.to_call <= bb else fold_or_check(spot)
        if pct <= 0.08 and level <= 4:
            return _min_raise(spot)
        if pct <= 0.3 and spot.to_call <= 10 * bb:
            return check_or_call(spot)
        return check_or_call(spot) if pct <= 0.06 else fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        return _min_raise(spot) if s >= 0.45 else check_or_call(spot)
    if s >= 0.85 and spot.level() <= 4:
        return _min_raise(spot)
    return check_or_call(spot) if s >= 0.35 else fold_or_check(spot)


# ------------------------------------------------------------------ adapter
def _net(hand: Mapping[str, Any], seat: int) -> int:
    won = sum(int(a["amount"]) for a in hand["awards"] if int(a["seat"]) == seat)
    put = next(int(p["in_pot"]) for p in hand["players"] if int(p["seat"]) == seat)
    return won - put


def beaten_by(past: Past, me: int) -> tuple[int | None, float]:
    """The opponent who won most of ``me``'s chips over the hands of ``past`` (chips won in
    hands ``me`` lost money in while they won money), and how aggressive they were after the
    flop (bets and raises among their postflop actions)."""
    score: dict[int, int] = {}
    aggressive: dict[int, int] = {}
    acted: dict[int, int] = {}
    for hand in past:
        mine = _net(hand, me)
        for p in hand["players"]:
            seat = int(p["seat"])
            if seat == me:
                continue
            net = _net(hand, seat)
            if mine < 0 < net:
                score[seat] = score.get(seat, 0) + min(net, -mine)
        for e in hand["events"]:
            if e["kind"] == "action" and e["street"] != "preflop" and int(e["seat"]) != me:
                seat = int(e["seat"])
                acted[seat] = acted.get(seat, 0) + 1
                if e["action"] in ("bet", "raise"):
                    aggressive[seat] = aggressive.get(seat, 0) + 1
    if not score:
        return None, 0.0
    seat = max(score, key=lambda s: score[s])
    if score[seat] < 400:  # 20 big blinds at the benchmark's blinds
        return None, 0.0
    return seat, (aggressive.get(seat, 0) + 1) / (acted.get(seat, 0) + 3)


def adapter(view: View, past: Past, rng: random.Random) -> Action:
    spot = read_spot(view)
    nemesis, aggression = beaten_by(past, spot.me) if past else (None, 0.0)
    facing = spot.last_aggressor(spot.street)
    against = nemesis is not None and facing == nemesis
    if spot.street == 0:
        if against and spot.level() == 2 and _pct(spot) <= 0.12:
            return bet_to(spot, 3 * spot.current_bet)  # re-raise the one who beats it
        return _solid_preflop(spot, rng)
    s = made_strength(spot)
    if spot.to_call == 0:
        nemesis_in = nemesis is not None and any(o.seat == nemesis for o in spot.opponents)
        bluff = 0.1 if nemesis_in and aggression >= 0.4 else 0.3
        raiser = spot.last_aggressor(0) == spot.me
        if s >= 0.72 or (spot.street == 1 and raiser and rng.random() < bluff + 0.2):
            return bet_to(spot, spot.pot * 0.6)
        return check_or_call(spot)
    if s >= 0.93:
        return bet_to(spot, spot.current_bet * 2.5)
    need = 0.45 + 0.8 * price(spot)
    if against:
        need += -0.2 if aggression >= 0.4 else 0.1
    return check_or_call(spot) if s >= need else fold_or_check(spot)


POOL: dict[str, Policy] = {
    "rock": rock,
    "fish": fish,
    "tag": tag,
    "bluffer": bluffer,
    "shover": shover,
    "check-raiser": check_raiser,
    "min-raiser": min_raiser,
    "adapter": adapter,
}
STACK_BB: dict[str, int] = {"shover": 15}
REMEMBERING = {"adapter"}  # styles that read the hands of the session


def draw_tables(count: int, seed: int, seats: int = 5) -> list[tuple[str, ...]]:
    """``count`` different tables of ``seats`` opponents drawn at random from the pool (with
    repeats inside a table, as at a real table), from ``seed``."""
    rng = random.Random(seed)
    names = sorted(POOL)
    seen: set[tuple[str, ...]] = set()
    tables: list[tuple[str, ...]] = []
    while len(tables) < count:
        table = tuple(rng.choice(names) for _ in range(seats))
        key = tuple(sorted(table))
        if key in seen:
            continue
        seen.add(key)
        tables.append(table)
    return tables


__all__ = ["POOL", "REMEMBERING", "STACK_BB", "beaten_by", "draw_tables"]
