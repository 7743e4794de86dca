"""Reading an opponent's range from their actions in this hand.

Preflop, each action picks a slice of the strength order (an open raise is the top of the hands,
a cold call the next slice, a three-bet a narrow top, ...), its width set by the opponent's
profile: how often they raise and play hands, scaled by their position. After the flop every bet,
raise, call and check reweights the combos by how strong each is on the board of that street:
aggressive players bet a wider range and bluff more, players who fold often keep only the top of
their range when they call, bigger bets mean stronger hands.

The medium bot reads everyone with the typical profile of the table size; the hard bot with the
profile it has built of that player.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.bots import preflop
from engine.bots.base import Act, Spot
from engine.bots.combos import FloatArray, blocked_combos, board_strength
from engine.bots.counts import WEAK
from engine.bots.preflop import open_width as open_width  # re-exported: medium opens from it
from engine.bots.reads import WEIGHT_SHOWN, Profile, prior_for

ProfileOf = Callable[[int], Profile]

def _sigmoid(x: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-x))
    return out


def relative_strength(weights: FloatArray, strength: FloatArray) -> FloatArray:
    """Each combo's place inside the range (0 the weakest, 1 the strongest), by ``strength``."""
    order = np.argsort(strength, kind="stable")
    w = weights[order]
    cumulative = np.cumsum(w)
    total = cumulative[-1] if len(cumulative) else 0.0
    rel = np.empty_like(strength)
    if total <= 0:
        rel[order] = np.linspace(0.0, 1.0, len(order))
        return rel
    rel[order] = (cumulative - w / 2) / total
    return rel


# ------------------------------------------------------------------ preflop
# How far one player's reads may widen or narrow his ranges against a typical player's. Past
# twice the typical opening width a read is mostly a few hands' luck, or a player who opens
# nearly everything, which the cap of all hands reaches anyway.
OPEN_RATIO = (0.2, 2.0)
RERAISE_RATIO = (0.3, 8.0)
CALL_RATIO = (0.2, 2.5)
# The share (as a power) of a player's widening that carries over to the hands he calls a
# three-bet with or moves all in with: a player who opens twice as many hands as is typical
# folds most of the extra ones to a re-raise, he does not call it with twice as many.
CONTINUE_POWER = 0.5


def _clip(value: float, bounds: tuple[float, float]) -> float:
    return min(max(value, bounds[0]), bounds[1])


def preflop_classes(spot: Spot, seat: int, profile: Profile) -> FloatArray:
    """Class weights of ``seat``'s likely hands from their preflop actions in this hand.

    Each kind of action is widened by its own read (:mod:`engine.bots.reads`): opens by how often
    the player opened against a typical player in the same seats (``open_ratio``), re-raises by
    that and how often he re-raised when facing a raise (``reraise``), calls of a raise by how
    often he called one against a typical player (``call_ratio``), limps by how many hands he
    plays (``vpip``), calls of re-raises by how many more hands he plays than he raises (a
    calling station's) or by the square root of the opening read, whichever is wider.
    """
    prior = prior_for(spot.n)
    open_ratio = _clip(profile.open_ratio, OPEN_RATIO)
    reraise_ratio = _clip(profile.reraise / prior.reraise, RERAISE_RATIO)
    three_ratio = (open_ratio * reraise_ratio) ** 0.5
    call_ratio = _clip(profile.call_ratio, CALL_RATIO)
    heads_up = spot.n == 2
    behind = spot.behind_preflop(seat)
    position = open_width(spot.n, behind) / open_width(spot.n, 2 if spot.n > 2 else 1)
    opening = min(open_width(spot.n, behind) * open_ratio, 1.0)
    in_blind = spot.distance_from_button(seat) in ((0, 1) if heads_up else (1, 2))

    mine = [a for a in spot.acts if a.street == 0 and a.seat == seat]
    if not mine:
        # Blinds who have not acted yet, or players still to act: anything they might hold.
        return np.ones(preflop.N_CLASSES)
    last = mine[-1]
    if last.kind in ("check", "fold"):
        # A big blind who checked would have raised his best hands most of the time.
        weights = np.ones(preflop.N_CLASSES)
        weights -= 0.7 * preflop.top(min(0.12 * open_ratio, 0.6))
        return weights
    big = last.to / spot.big_blind
    if last.kind == "call":
        if last.level <= 1:  # a limp (or the small blind completing)
            width = min(max(profile.vpip, 0.1) * position * 1.2, 1.0)
            weights = preflop.top(width)
            weights -= 0.6 * preflop.top(min(opening * 0.5, width))
            return weights
        if last.level == 2:  # called one raise: what he calls with, less what he re-raises
            base = preflop.call_width(spot.n, in_blind, last.facing / spot.big_blind)
            width = min(base * call_ratio, 0.95)
            three_bet = min((0.14 if heads_up else 0.05) * three_ratio, width)
            weights = preflop.top(width)
            weights -= 0.65 * preflop.top(three_bet)
            return weights
        # Called a three-bet or more: a tight player's premium hands, but a player who calls
        # with most hands (plays many more than he raises) calls re-raises with many of them
        # too; one who opens many hands folds most of the extra ones to a re-raise (only the
        # square root of his widening carries over).
        flat = (profile.vpip - profile.pfr) / (prior.vpip - prior.pfr)
        flat_ratio = min(max(flat, 0.2), 2.5)
        ratio = max(open_ratio**CONTINUE_POWER, flat_ratio if flat_ratio > 1.2 else 0.0)
        width = min((0.2 if heads_up else 0.09) * ratio / (last.level - 1.5), 0.6)
        if last.all_in or last.facing > 30 * spot.big_blind:
            width = min(width, 0.1 * ratio)
        weights = preflop.top(width)
        weights -= 0.5 * preflop.top(width * 0.3)
        return weights
    # A raise.
    if last.level <= 1:
        width = opening
        if last.all_in and big <= 15:
            width = max(width, min(opening * 1.6, 0.9))
    else:
        # How wide they re-raise: from how often they raised when facing a raise (a maniac's
        # four-bets are not a tight player's), with how wide they open for the rest.
        width = reraise_width(spot.n, last.level) * three_ratio
    if last.all_in and big > 25 and last.level >= 2:
        width = min(width, 0.06 * open_ratio**CONTINUE_POWER)
    return preflop.top(min(max(width, 0.012), 1.0))


def reraise_width(players: int, level: int) -> float:
    """Typical share of hands that re-raise when facing ``level`` bets (2: a three-bet)."""
    heads_up = players == 2
    if level == 2:
        return 0.14 if heads_up else 0.055
    return 0.07 if heads_up else 0.03


# ------------------------------------------------------------------ after the flop
def bet_share(profile: Profile) -> tuple[float, float]:
    """(share of the range bet for value, share of the weakest hands bet as a bluff)."""
    rate = min(max(profile.bet_rate, 0.05), 0.85)
    share = min(rate * 1.4, 0.95)  # bet_rate counts calls and folds too: they bet more when free
    bluffs = min(0.2 + 0.4 * max(rate - 0.3, 0.0), 0.5)
    c = profile.counts
    if c.shown_bets:  # the bets they showed down say how often they bluff
        bluffs = (bluffs * WEIGHT_SHOWN + c.shown_bluffs) / (WEIGHT_SHOWN + c.shown_bets)
    value = max(share * (1 - bluffs), 0.1)
    bluff = max(share * bluffs, 0.02)
    return value, bluff


def fold_share(profile: Profile, size: float, called_before: bool = False) -> float:
    """Share of the range folded against a bet of ``size`` times the pot; ``called_before``
    when the player already called a bet on an earlier street of this hand (what is left of
    their range then folds as often as they fold again, not as often as they fold at first)."""
    base = profile.fold_again if called_before else profile.fold_to_bet
    return min(max(base + 0.2 * (size - 0.6), 0.03), 0.92)


def called_before(spot: Spot, seat: int, street: int) -> bool:
    """Whether ``seat`` called a bet after the flop on a street before ``street``."""
    return any(a.seat == seat and a.kind == "call" and 1 <= a.street < street for a in spot.acts)


def apply_act(
    weights: FloatArray, act: Act, strength: FloatArray, profile: Profile, again: bool = False
) -> FloatArray:
    """Reweight a range after one postflop action (``again``: the player called a bet on an
    earlier street of the hand)."""
    rel = relative_strength(weights, strength)
    # Bets are read half by a hand's place in the range, half by its strength on the board: a
    # tight range that missed the flop does not bet its "best" hands as if they were strong.
    mixed = 0.5 * (rel + strength)
    value, bluff = bet_share(profile)
    if act.kind in ("bet", "raise"):
        pot = max(act.pot_before + act.facing, 1)
        size = (act.to - act.current_bet) / pot
        if act.kind == "raise":
            value *= 0.55
            bluff *= 0.6
        value *= min(max(1.15 - 0.3 * size, 0.65), 1.1)
        factor = (
            0.08
            + 0.92 * _sigmoid((mixed - (1.0 - value)) / 0.04)
            + 0.7 * (1.0 - _sigmoid((rel - bluff) / 0.03))
        )
    elif act.kind == "call":
        pot = max(act.pot_before, 1)
        fold = fold_share(profile, act.facing / pot, again)
        raise_top = value * 0.3
        raised = 0.5 * _sigmoid((rel - (1.0 - raise_top)) / 0.03)
        factor = _sigmoid((rel - fold) / 0.05) * (1.0 - raised)
        # Calls they showed down with strong hands only: their calls mean strength on the
        # board itself, not only against the rest of their range.
        loose = min(profile.weak_calls / prior_for(2).weak_calls, 1.0)
        if loose < 1.0:
            factor = factor * (loose + (1.0 - loose) * _sigmoid((strength - WEAK) / 0.05))
    elif act.kind == "check":
        slow = 0.75 if profile.aggression >= 0.35 else 0.5
        factor = 1.0 - slow * _sigmoid((mixed - (1.0 - value)) / 0.04)
    else:
        return weights
    out: FloatArray = weights * factor
    return out


def estimate(spot: Spot, seat: int, profile: Profile) -> FloatArray:
    """Weights over the 1,326 combos of what ``seat`` holds now, cards the bot sees removed."""
    weights = preflop.combo_weights(preflop_classes(spot, seat, profile))
    weights = np.where(blocked_combos([*spot.hole, *spot.board]), 0.0, weights)
    for street in (1, 2, 3):
        if street > spot.street:
            break
        board = spot.board_by_street.get(street)
        if not board:
            break
        strength, _ = board_strength(board)
        again = called_before(spot, seat, street)
        for act in spot.street_acts(street):
            if act.seat == seat:
                weights = apply_act(weights, act, strength, profile, again)
    if weights.sum() <= 0:
        weights = (~blocked_combos([*spot.hole, *spot.board])).astype(np.float64)
    return weights
