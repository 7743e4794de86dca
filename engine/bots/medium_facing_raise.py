"""The medium computer player facing a raise before the flop, and the tuning of it: fold, call
or re-raise by expected value, from its equity against the raiser's likely hands and which of
them go on against a re-raise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from engine.actions import Action
from engine.bots import icm, preflop, ranges
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check
from engine.bots.combos import FloatArray
from engine.bots.medium_choice import Option, ProfileOf, Settings, choose, note_read
from engine.bots.reads import Profile, prior_for
from engine.bots.reasons import Notes

# How much a raiser's VPIP read moves the share of his range that goes on against a re-raise.
KEEP_VPIP_POWER = 0.3
# Share of its heads-up equity against the raiser a hand keeps for each player who called the
# raise before it, and for each player still to act behind it (a fixed multiway discount).
EQUITY_PER_CALLER = 0.82
EQUITY_PER_PLAYER_BEHIND = 0.97
# Share of its equity a call of a raise realises after the flop, in position and out of it
# (times the hand's playability: suited and connected hands realise more).
REALISE_CALL = {True: 0.92, False: 0.8}
# Stack-to-pot ratio after a call from which a hand realises only the share above: at 0 it
# realises all of its equity (the rest goes in on most flops, position matters little), in
# between a part of the rest.
SPR_ALL_IN = 3.0
# A re-raise goes to this many times the raise, in position and out of it (plus one raise per
# caller); a four-bet or more, to a smaller multiple.
RERAISE_FACTOR = {True: 3.0, False: 3.6}
FOUR_BET_FACTOR = 2.3
# A short stack (this many big blinds or fewer, effective) re-raises all in, as does a re-raise
# that would commit this share of the bot's chips.
SHORT_STACK_BB = 25
COMMIT_SHARE = 0.4
# For each caller in between: the share of its equity against the continuing range a re-raise
# keeps, and the share of the raiser's folds that still wins the pot (the caller may go on).
RERAISE_PER_CALLER = 0.85
# Equity realised after a called re-raise that is not all in, in position and out of it.
REALISE_RERAISE = {True: 0.95, False: 0.88}
# The share of the raiser's range that goes on against a re-raise stays in this band once his
# reads have moved it.
KEEP_RANGE = (0.05, 1.0)
# At most this share of the hands that go on raise again; against them the bot goes on only with
# more than this equity.
MOST_RAISE_AGAIN = 0.6
STRONG_AGAINST_RAISE = 0.5


@dataclass(frozen=True, slots=True)
class _Facing:
    """A preflop raise the bot faces: who made it and how the bot reads him (his profile and
    his range of starting-hand classes), the bot's hand class, the betting level, how many
    players called the raise before the bot, and whether the bot acts after the raiser later."""

    raiser: int
    profile: Profile
    their: FloatArray
    cls: int
    level: int
    callers: int
    in_position: bool


def facing_raise(
    spot: Spot,
    rng: random.Random,
    profile_of: ProfileOf,
    settings: Settings,
    cls: int,
    level: int,
    notes: Notes | None = None,
) -> Action:
    """Fold, call or re-raise a preflop raise, by expected value."""
    raiser = spot.last_aggressor(0)
    assert raiser is not None
    profile = profile_of(raiser)
    note_read(notes, raiser, "pfr" if level <= 2 else "reraise", profile)
    their = ranges.preflop_classes(spot, raiser, profile)
    eq = preflop.equity_vs(cls, their)
    callers = sum(1 for a in spot.street_acts(0) if a.kind == "call" and a.level == level)
    acted = {a.seat for a in spot.street_acts(0) if a.level == level}
    behind = [s for s in spot.opponents if s.seat != raiser and s.stack > 0 and s.seat not in acted]
    eq_multi = eq * EQUITY_PER_CALLER ** callers * EQUITY_PER_PLAYER_BEHIND ** len(behind)
    pot, call = spot.pot, spot.to_call
    order = spot.postflop_order()
    in_position = order.index(spot.me) > order.index(raiser)
    realise = _call_realisation(spot, raiser, cls, in_position)
    need = call / max(pot + call, 1)
    if settings.icm and call >= spot.mine.stack and icm.applies(spot):
        need = icm.need_to_call_all_in(spot, raiser)
    options = [
        Option(0.0, fold_or_check(spot)),
        Option((eq_multi * realise - need) * (pot + call), check_or_call(spot)),
    ]
    if notes is not None:
        notes.equity = eq_multi
    if spot.legal["bet_or_raise"] is not None and not spot.info(raiser).all_in:
        facing = _Facing(raiser, profile, their, cls, level, callers, in_position)
        options.append(_reraise(spot, facing, settings, notes))
    return choose(options, rng, settings, pot, notes)


def _call_realisation(spot: Spot, raiser: int, cls: int, in_position: bool) -> float:
    """The share of its equity a call of ``raiser``'s raise realises: less out of position and
    with a hand that plays badly after the flop, nearly all of it when little is left behind
    (a re-raised pot), all of it when the call or the raise is all in."""
    mine, raiser_info, call = spot.mine, spot.info(raiser), spot.to_call
    realise = REALISE_CALL[in_position] * preflop.playability(cls)
    if call >= mine.stack or raiser_info.all_in or raiser_info.stack == 0:
        return 1.0
    left = min(mine.stack - call, raiser_info.stack)
    spr = left / max(spot.pot + call, 1)
    return realise + (1.0 - realise) * min(max(1.0 - spr / SPR_ALL_IN, 0.0), 1.0)


def _reraise(spot: Spot, f: _Facing, settings: Settings, notes: Notes | None) -> Option:
    """The re-raise and what it is worth: the pot when everyone folds, else the equity
    against the hands that go on (less, when some of them raise again)."""
    mine, raiser_info, pot = spot.mine, spot.info(f.raiser), spot.pot
    target, go_all_in = _reraise_target(spot, f)
    target_eff = min(target, raiser_info.stack + raiser_info.bet)
    added = target - mine.bet
    their_added = max(target_eff - raiser_info.bet, 0)
    keep, continuing = _continuing(
        spot, f.their, f.level, their_added / max(pot + added + their_added, 1), go_all_in
    )
    if settings.adapt:
        keep, continuing = _read_keep(spot, f, keep)
    eq_called = preflop.equity_vs(f.cls, continuing) * RERAISE_PER_CALLER ** f.callers
    fold_all = (1 - keep) * RERAISE_PER_CALLER ** f.callers
    realise_raise = 1.0 if go_all_in else REALISE_RERAISE[f.in_position]
    realise_raise *= 1.0 if go_all_in else preflop.playability(f.cls)
    played = eq_called * realise_raise * (pot + added + their_added) - added
    if not go_all_in:
        played = _raised_again(spot, f, keep, continuing, played, added)
    ev = fold_all * pot + (1 - fold_all) * played
    action = all_in(spot) if go_all_in else bet_to(spot, target)
    if notes is not None:
        notes.fold_chances[action] = fold_all
    return Option(ev, action)


def _reraise_target(spot: Spot, f: _Facing) -> tuple[float, bool]:
    """How far to re-raise (``RERAISE_FACTOR`` times the raise, plus one raise per caller), and
    whether that is all in (a short stack, or a re-raise that commits ``COMMIT_SHARE``)."""
    facing_to = spot.current_bet
    factor = FOUR_BET_FACTOR if f.level >= 3 else RERAISE_FACTOR[f.in_position]
    target: float = facing_to * factor + facing_to * f.callers
    mine = spot.mine
    short = spot.effective_stack() <= SHORT_STACK_BB * spot.big_blind
    go_all_in = short or target >= (mine.stack + mine.bet) * COMMIT_SHARE
    if go_all_in:
        target = mine.stack + mine.bet
    return target, go_all_in


def _read_keep(spot: Spot, f: _Facing, keep: float) -> tuple[float, FloatArray]:
    """The share of the raiser's range that goes on, moved by how often he folds to bets and
    how many hands he plays, and the top of his range of that share."""
    typical = prior_for(spot.n)
    keep *= ((1 - f.profile.fold_to_bet) / (1 - typical.fold_to_bet)) ** 0.5
    keep *= (f.profile.vpip / typical.vpip) ** KEEP_VPIP_POWER
    keep = min(max(keep, KEEP_RANGE[0]), KEEP_RANGE[1])
    return keep, _top_of(f.their, keep)


def _raised_again(
    spot: Spot, f: _Facing, keep: float, continuing: FloatArray, played: float, added: float
) -> float:
    """What a re-raise that is not all in is worth when part of what goes on raises again:
    the bot then gives up (losing what it added) unless it is strong."""
    width = float((f.their * preflop.CLASS_SIZE).sum()) / preflop.N_COMBOS
    again = min(
        ranges.reraise_width(spot.n, f.level + 1) / max(keep * width, 1e-9), MOST_RAISE_AGAIN
    )
    strong = preflop.equity_vs(f.cls, _top_of(continuing, again)) > STRONG_AGAINST_RAISE
    return (1 - again) * played + again * (played if strong else -added)


# A deep all in re-raise (more than SHORT_STACK_BB behind) shows only this top share of hands.
DEEP_SHOVE_SHOWS = 0.06
# The raiser realises this share of his equity against a re-raise that is not all in, and
# decides softly: a hand this much equity short of the price still goes on about a quarter of
# the time (the width of a logistic step).
RAISER_REALISES = 0.85
GO_ON_SOFTNESS = 0.03
# People defend more than the sums say against re-raises: at least this share of their range
# goes on against an all in, a three-bet, and a four-bet or more.
LEAST_AGAINST_SHOVE = 0.35
LEAST_AGAINST_THREE_BET = 0.5
LEAST_AGAINST_MORE = 0.45


def _continuing(
    spot: Spot, their: FloatArray, level: int, price: float, shove: bool
) -> tuple[float, FloatArray]:
    """Which of the raiser's hands go on against a re-raise: those whose equity against the
    range the re-raise shows pays the price. Returns (share kept, the classes kept)."""
    deep = shove and spot.effective_stack() > SHORT_STACK_BB * spot.big_blind
    width = DEEP_SHOVE_SHOWS if deep else 1.0
    shown = preflop.top(min(ranges.reraise_width(spot.n, level), width))
    mass = shown * preflop.CLASS_SIZE
    equities = preflop.MATRIX @ mass / max(float(mass.sum()), 1e-9)
    realise = 1.0 if shove else RAISER_REALISES
    go_on = their / (1.0 + np.exp(-(equities * realise - price) / GO_ON_SOFTNESS))
    total = float((their * preflop.CLASS_SIZE).sum())
    keep = float((go_on * preflop.CLASS_SIZE).sum()) / total if total > 0 else 1.0
    if shove:
        least = LEAST_AGAINST_SHOVE
    else:
        least = LEAST_AGAINST_THREE_BET if level == 2 else LEAST_AGAINST_MORE
    if keep < least:
        return least, _top_of(their, least)
    return keep, go_on


def _top_of(class_weights: FloatArray, share: float) -> FloatArray:
    """The strongest ``share`` of a class range (by combos)."""
    mass = class_weights * preflop.CLASS_SIZE
    order = preflop.ORDER
    cumulative = np.cumsum(mass[order])
    total = cumulative[-1] if len(cumulative) else 0.0
    if total <= 0:
        return class_weights
    keep = np.zeros_like(class_weights)
    before = cumulative - mass[order]
    limit = share * total
    fraction = np.clip((limit - before) / np.maximum(mass[order], 1e-12), 0.0, 1.0)
    keep[order] = class_weights[order] * fraction
    return keep
