"""The medium computer player: solid, position-aware, deciding by expected value.

Preflop it follows a plan by hand strength, position and stack depth: open the right share of
hands for its seat, three-bet or call a raise when its equity against the raiser's likely hands
pays, push or fold when short. After the flop it deals the opponents' likely hands many times
(:mod:`engine.bots.sim`) and compares checking, calling, folding and a few bet sizes, counting
the bets an opponent would fold to (the weakest part of his range) and the equity against the
hands that would call. Bluffs come out of the same sums, so they are occasional.

Every opponent is read with the typical profile of the table size. The hard player
(:mod:`engine.bots.hard`) runs the same code with a profile of each opponent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.actions import Action
from engine.bots import icm, preflop, ranges
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check
from engine.bots.combos import BoolArray, FloatArray, board_strength
from engine.bots.reads import Profile, model_from_past, prior_for
from engine.bots.reasons import Notes, said
from engine.bots.sim import Deal, deal

ProfileOf = Callable[[int], Profile]


@dataclass(frozen=True, slots=True)
class Settings:
    trials: int = 400
    adapt: bool = False  # widen steals and thin value against what the profiles show
    mistakes: float = 0.06  # chance to take a close second-best option
    # How much of the folding the profiles predict the bot believes in when it bets: the
    # medium player doubts that people fold, so it bluffs only now and then.
    fold_belief: float = 0.75
    icm: bool = False  # near the end of a game, calls of an all in priced in places (icm.py)


MEDIUM = Settings()


def decide(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings,
    notes: Notes | None = None,
) -> Action:
    """``notes``: written as the bot decides, when it is to explain itself (never changes the
    decision: :mod:`engine.bots.reasons`)."""
    if spot.street == 0:
        return _preflop(spot, rng, profile_of, settings, notes)
    return _postflop(spot, rng, profile_of, settings, notes)


def _read(notes: Notes | None, seat: int, stat: str, profile: Profile) -> None:
    """Note the habit ``stat`` of the player in ``seat`` that the decision used, if the bot
    has seen them play (a typical player's habits are no read)."""
    if notes is not None and profile.counts.hands > 0:
        notes.read(seat, stat, getattr(profile, stat), profile.counts.hands)


def noticed_profiles(spot: Spot, past: Sequence[Mapping[str, Any]]) -> ProfileOf:
    """The typical profile for everyone, with what a solid player remembers of a player who
    calls a bet after the flop in this hand again: how often he folds to bets and how often he
    bets (a player seen calling everything down is not bluffed off his hand, and his checks do
    not make his hand weak if he never bets anyway); and of a player who re-raises in this hand
    again, how often he re-raises."""
    typical = Profile.typical(spot.n)
    callers = {a.seat for a in spot.acts if a.street >= 1 and a.kind == "call"}
    reraisers = {a.seat for a in spot.acts if a.street == 0 and a.kind == "raise" and a.level >= 2}
    if not past or not (callers or reraisers):
        return lambda seat: typical
    model = model_from_past(past, spot.me)

    def profile_of(seat: int) -> Profile:
        if seat not in callers and seat not in reraisers:
            return typical
        seen = model.profile(seat, spot.n)
        noticed = typical
        if seat in reraisers:  # how often he re-raises: a maniac's re-raises are not a rock's
            noticed = replace(noticed, reraise=seen.reraise)
        if seat in callers:
            noticed = replace(
                noticed,
                fold_to_bet=seen.fold_to_bet,
                fold_again=seen.fold_again,
                # and how seldom he bets: a player who never bets does not check only weak hands
                bet_rate=seen.bet_rate,
                aggression=seen.aggression,
            )
        return noticed

    return profile_of


# ------------------------------------------------------------------ choosing among options
# Two options whose values differ by less than this share of the pot are close: the bot may take
# the second (``Settings.mistakes``).
CLOSE_EV = 0.08


@dataclass(frozen=True, slots=True)
class Option:
    ev: float
    action: Action


def _choose(
    options: Sequence[Option], rng: random.Random, settings: Settings, pot: int,
    notes: Notes | None = None,
) -> Action:
    ranked = sorted(options, key=lambda o: o.ev, reverse=True)
    close = len(ranked) > 1 and ranked[1].ev >= ranked[0].ev - CLOSE_EV * pot
    second = close and rng.random() < settings.mistakes
    if notes is not None:
        notes.weighed([(o.action, o.ev) for o in ranked], second)
    if second:
        return ranked[1].action
    return ranked[0].action


# ------------------------------------------------------------------ preflop
# How far the folding read of the players behind may move the opening chart: it widens it against
# players who give up more than usual (steal from tight blinds), and it never narrows it against
# loose ones. Their calls cost a steal its folds, but the chart's hands are ahead of the wider
# range they call with, so they win more when called; narrowing by the fold odds alone gave up
# those opens (at the six-seat pool tables, folds of hands medium opened, against fish and
# min-raisers behind, cost hard 9 bb/100: benchmarks/bots_diverge.py, benchmarks/README.md).
STEAL_RANGE = (1.0, 2.0)
# A player behind folds to an open 1 - FOLDS_PER_VPIP times his VPIP, within FOLDS_RANGE.
FOLDS_PER_VPIP = 1.15
FOLDS_RANGE = (0.05, 0.95)
# Players who play at least LOOSE_VPIP times a typical player's hands are loose. Against loose
# limpers the big blind raises with this much equity against their range (more per extra
# limper); on the button before loose players, it raises or limps with these.
LOOSE_VPIP = 1.2
PUNISH_EQUITY = 0.52
LOOSE_RAISE_EQUITY = 0.48
LOOSE_LIMP_EQUITY = 0.38
EQUITY_PER_EXTRA_PLAYER = 0.05
# How much a raiser's VPIP read moves the share of his range that goes on against a re-raise.
KEEP_VPIP_POWER = 0.3
# The share of hands pushed at 10 big blinds, by players still to act behind (heads-up: the
# first figure; more than five behind: the last); shorter stacks push wider, deeper ones
# narrower, as 10 big blinds over the stack to the power PUSH_DEPTH_POWER, within PUSH_RANGE.
HEADS_UP_PUSH = 0.72
PUSH_BASE = {1: 0.55, 2: 0.36, 3: 0.27, 4: 0.21, 5: 0.17}
PUSH_MANY_BEHIND = 0.15
PUSH_DEPTH_BB = 10.0
PUSH_DEPTH_POWER = 0.6
PUSH_RANGE = (0.04, 1.0)


def push_width(players: int, behind: int, stack_bb: float) -> float:
    """The share of hands to push all in with ``stack_bb`` big blinds, ``behind`` to act."""
    base = HEADS_UP_PUSH if players == 2 else PUSH_BASE.get(behind, PUSH_MANY_BEHIND)
    width = base * (PUSH_DEPTH_BB / max(stack_bb, 1.0)) ** PUSH_DEPTH_POWER
    return float(min(max(width, PUSH_RANGE[0]), PUSH_RANGE[1]))


def _steal_factor(
    spot: Spot, profile_of: ProfileOf, settings: Settings, notes: Notes | None = None
) -> float:
    """How much wider than the chart to open, from how often the players behind give up
    (``STEAL_RANGE``: never narrower than the chart)."""
    if not settings.adapt:
        return 1.0
    typical = prior_for(spot.n)
    behind = [
        s.seat for s in spot.seats
        if s.seat != spot.me and not s.folded and not any(a.seat == s.seat for a in spot.acts)
    ]
    if not behind:
        return 1.0
    for seat in behind:
        _read(notes, seat, "vpip", profile_of(seat))

    def folds(vpip: float) -> float:
        return float(min(max(1.0 - FOLDS_PER_VPIP * vpip, FOLDS_RANGE[0]), FOLDS_RANGE[1]))

    model = float(np.prod([folds(profile_of(s).vpip) for s in behind]))
    usual = folds(typical.vpip) ** len(behind)
    odds = (model / (1 - model)) / (usual / (1 - usual))
    return float(min(max(odds**0.5, STEAL_RANGE[0]), STEAL_RANGE[1]))


# At or under this many big blinds (effective) an unraised pot is pushed or folded.
PUSH_FOLD_BB = 12
# The big blind after limps: the top share of hands it pushes when short, and the top share it
# raises for value (heads-up, and at more players); the raise is to this many big blinds plus
# one per limper.
BIG_BLIND_PUSH = 0.15
BIG_BLIND_VALUE = {True: 0.22, False: 0.12}
LIMPED_RAISE_BB = 3
# With limpers in, the pushing range and the opening range shrink to these shares.
LIMPED_PUSH_SHARE = 0.6
LIMPED_OPEN_SHARE = 0.55
# Hands just outside the opening range (up to this multiple of it) are opened this often.
MIXED_OPEN_MARGIN = 1.15
MIXED_OPEN_CHANCE = 0.3
# An open raise: to this many big blinds heads-up or with two players or fewer behind, to the
# second figure with more (plus one big blind per limper, and half a big blind more against
# loose players behind, read as a steal factor under LOOSE_STEAL); all in when it would commit
# this share of the stack.
OPEN_BB = {True: 2.5, False: 3.0}
LOOSE_STEAL = 0.85
LOOSE_EXTRA_BB = 0.5
OPEN_ALL_IN_SHARE = 0.33
# The top share of hands noted as premium when opened.
PREMIUM = 0.05
# The small blind completes after limps with the top half of hands.
SMALL_BLIND_COMPLETES = 0.5


def _preflop(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings,
    notes: Notes | None = None,
) -> Action:
    """Before the flop: the big blind's option after limps, an open, or facing a raise."""
    cls = preflop.hand_class(spot.hole)
    level = spot.level()
    if level > 1:
        return _facing_raise(spot, rng, profile_of, settings, cls, level, notes)
    pct = float(preflop.PERCENTILE[cls])
    limpers = [a.seat for a in spot.street_acts(0) if a.kind == "call" and a.level <= 1]
    if spot.legal["check"]:  # the big blind after limps
        return _big_blind_option(spot, profile_of, settings, cls, pct, limpers, notes)
    return _unraised(spot, rng, profile_of, settings, cls, pct, len(limpers), notes)


def _big_blind_option(
    spot: Spot, profile_of: ProfileOf, settings: Settings, cls: int, pct: float,
    limpers: list[int], notes: Notes | None,
) -> Action:
    """The big blind after limps: push when short, raise for value or to punish loose
    limpers, else check for free."""
    bb = spot.big_blind
    if spot.effective_stack() / bb <= PUSH_FOLD_BB and pct <= BIG_BLIND_PUSH:
        return said(notes, "push", all_in(spot))
    if pct <= BIG_BLIND_VALUE[spot.n == 2]:
        return said(notes, "value", bet_to(spot, bb * (LIMPED_RAISE_BB + len(limpers))))
    if _punish_limpers(spot, profile_of, settings, cls, limpers, notes):
        return said(notes, "punish_limpers", bet_to(spot, bb * (LIMPED_RAISE_BB + len(limpers))))
    return said(notes, "free_check", check_or_call(spot))


def _unraised(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings, cls: int,
    pct: float, limpers: int, notes: Notes | None,
) -> Action:
    """Nobody has raised: push or fold when short, else open the chart's share of hands for
    the seat (wider against players who give up), limp, or fold."""
    stack_bb = spot.effective_stack() / spot.big_blind
    behind = spot.behind_preflop(spot.me)
    steal = _steal_factor(spot, profile_of, settings, notes)
    if stack_bb <= PUSH_FOLD_BB:
        width = push_width(spot.n, behind, stack_bb) * steal * (
            LIMPED_PUSH_SHARE if limpers else 1.0
        )
        if pct <= width:
            return said(notes, "push", all_in(spot))
        return said(notes, "fold_weak", fold_or_check(spot))
    width = ranges.open_width(spot.n, behind) * steal
    if limpers:
        width *= LIMPED_OPEN_SHARE
    loose = _loose_behind(spot, profile_of, settings, cls) if not limpers else None
    value_raise = loose is not None and loose[0]
    if pct <= width or value_raise or (
        pct <= width * MIXED_OPEN_MARGIN and rng.random() < MIXED_OPEN_CHANCE
    ):
        return _open(spot, settings, pct, limpers, steal, value_raise, notes)
    if limpers and spot.distance_from_button(spot.me) == 1 and pct <= SMALL_BLIND_COMPLETES:
        return said(notes, "limp", check_or_call(spot))  # complete the small blind
    if loose is not None and loose[1]:
        return said(notes, "limp", check_or_call(spot))  # loose players pay off later
    return said(notes, "fold_weak", fold_or_check(spot))


def _open(
    spot: Spot, settings: Settings, pct: float, limpers: int, steal: float, value_raise: bool,
    notes: Notes | None,
) -> Action:
    """The open raise (``OPEN_BB``), noted as a premium hand, an open of the chart or a steal."""
    bb = spot.big_blind
    behind = spot.behind_preflop(spot.me)
    size = bb * OPEN_BB[spot.n == 2 or behind <= 2] + bb * limpers
    if settings.adapt and steal < LOOSE_STEAL:
        size += bb * LOOSE_EXTRA_BB  # loose players behind: they call anyway, charge them more
    if notes is not None:
        chart = ranges.open_width(spot.n, behind) * (LIMPED_OPEN_SHARE if limpers else 1.0)
        notes.motive = (
            "premium" if pct <= PREMIUM else "open" if pct <= chart or value_raise else "steal"
        )
    if size >= spot.mine.stack * OPEN_ALL_IN_SHARE:
        return all_in(spot)
    return bet_to(spot, size)


def _punish_limpers(
    spot: Spot, profile_of: ProfileOf, settings: Settings, cls: int, limpers: list[int],
    notes: Notes | None = None,
) -> bool:
    """In the big blind after limps by players who play many more hands than usual: raise a
    hand that is well ahead of the hands they limp and call with (out of position, so it
    needs more than the button does)."""
    if not settings.adapt or not limpers:
        return False
    tightest = min(profile_of(s).vpip for s in limpers)
    for seat in limpers:
        _read(notes, seat, "vpip", profile_of(seat))
    if tightest < prior_for(spot.n).vpip * LOOSE_VPIP:
        return False
    eq = preflop.equity_vs(cls, preflop.top(min(tightest, 1.0))) * preflop.playability(cls)
    return eq >= PUNISH_EQUITY + EQUITY_PER_EXTRA_PLAYER * (len(limpers) - 1)


def _loose_behind(
    spot: Spot, profile_of: ProfileOf, settings: Settings, cls: int
) -> tuple[bool, bool] | None:
    """On the button (or heads-up) with everyone before folded and only players who play
    many more hands than usual still to act: (raise for value, limp) for the hand ``cls``.

    Folding there gives up position against the players who pay off most. A raise is worth it
    with a hand that is ahead of the hands they call with (the top of their playing range); a
    limp with a hand that has a fair share against them, in position. ``None`` elsewhere."""
    if not settings.adapt or spot.distance_from_button(spot.me) != 0:
        return None
    behind = [
        s.seat for s in spot.seats
        if s.seat != spot.me and not s.folded and not any(a.seat == s.seat for a in spot.acts)
    ]
    if not behind or len(behind) > 2:
        return None
    loosest = max(profile_of(s).vpip for s in behind)
    if loosest < prior_for(spot.n).vpip * LOOSE_VPIP:
        return None
    eq = preflop.equity_vs(cls, preflop.top(min(loosest, 1.0))) * preflop.playability(cls)
    extra = EQUITY_PER_EXTRA_PLAYER * (len(behind) - 1)
    return eq >= LOOSE_RAISE_EQUITY + extra, eq >= LOOSE_LIMP_EQUITY + extra


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


def _facing_raise(
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
    _read(notes, raiser, "pfr" if level <= 2 else "reraise", profile)
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
    return _choose(options, rng, settings, pot, notes)


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


# ------------------------------------------------------------------ after the flop
# Bet sizes tried on each street, as shares of the pot.
BET_SIZES = {1: (0.33, 0.66), 2: (0.5, 0.8), 3: (0.5, 0.8, 1.2)}
# Against opponents who all fold to bets less than this often, a pot-sized bet is tried too
# (before the river: they pay, so charge them).
STATION_FOLDS = 0.25
# With no more than this many pots behind, a bet of the whole stack is tried too.
SHOVE_POTS = 1.5
# A bet or raise of at least this share of the bot's chips goes all in.
ALL_IN_SHARE = 0.92
# Share of its equity a call after the flop realises before the river, in position and out of it.
REALISE_POSTFLOP = {True: 0.93, False: 0.87}
# A raise goes to the bet faced plus this share of the pot after the call.
RAISE_POT_SHARE = 0.85
# Facing a raise, players fold this share of what the fold reads say they fold to a bet.
RAISE_FOLD_SCALE = 0.8
# A raise before the river keeps this share of its value (more cards to come against it).
RAISE_BEFORE_RIVER = 0.97
# No opponent is reckoned to fold more than this share of his range.
MOST_FOLD = 0.95


@dataclass(frozen=True, slots=True)
class _Dealt:
    """The opponents' likely hands dealt many times after the flop, and what a bet of a size
    wins against them: ``places`` is each dealt hand's place in its player's range (0 weakest,
    1 strongest), ``again`` whether each opponent called a bet on an earlier street."""

    deal: Deal
    places: FloatArray
    profiles: list[Profile]
    can_fold: list[bool]
    again: list[bool]
    pot: int
    belief: float  # how much of the folding the profiles predict the bot believes in

    def against_callers(
        self, callers: BoolArray, added: float, their_added: Sequence[float]
    ) -> float:
        """EV of putting in ``added`` more when the marked opponents call (the rest fold)."""
        share = self.deal.share(callers)
        extra = (callers * np.array(their_added)).sum(axis=1)
        pot = self.pot
        gain = np.where(callers.any(axis=1), share * (pot + added + extra) - added, pot)
        return float(gain.mean())

    def callers_for(self, size: float, scale: float) -> BoolArray:
        """Who calls a bet of ``size`` pots, trial by trial: the strongest part of each range.
        A player who already called a bet on an earlier street kept the part of his range that
        does not fold: he folds again only as often as such players do."""
        marks = np.ones_like(self.places, dtype=bool)
        for i, p in enumerate(self.profiles):
            if self.can_fold[i]:
                fold = ranges.fold_share(p, size, self.again[i]) * scale * self.belief
                marks[:, i] = self.places[:, i] >= min(fold, MOST_FOLD)
        return marks


def _postflop(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings,
    notes: Notes | None = None,
) -> Action:
    """Check, bet, fold, call or raise after the flop: the opponents' likely hands are dealt
    many times and each option valued against the part of them that would call."""
    opponents = spot.opponents
    profiles = [profile_of(o.seat) for o in opponents]
    weights = [ranges.estimate(spot, o.seat, p) for o, p in zip(opponents, profiles, strict=True)]
    deal_ = deal(spot.hole, spot.board, weights, settings.trials, rng)
    if deal_.trials == 0:
        return check_or_call(spot)
    strength, _ = board_strength(spot.board)
    places = np.stack(
        [ranges.relative_strength(w, strength)[deal_.picks[:, i]] for i, w in enumerate(weights)],
        axis=1,
    )
    equity = deal_.equity()
    if notes is not None:
        _note_reads(notes, spot, profiles, equity)
    dealt = _Dealt(
        deal_, places, profiles, [o.stack > 0 for o in opponents],
        [ranges.called_before(spot, o.seat, spot.street) for o in opponents],
        spot.pot, settings.fold_belief,
    )
    if spot.to_call == 0:
        options = _bet_options(spot, dealt, equity, settings, notes)
    else:
        options = _facing_bet_options(spot, dealt, equity, notes)
    return _choose(options, rng, settings, spot.pot, notes)


def _note_reads(notes: Notes, spot: Spot, profiles: Sequence[Profile], equity: float) -> None:
    """Note the equity, and the reads the decision uses: how often each opponent folds when the
    bot may bet, how aggressive the bettor is when it faces a bet."""
    notes.equity = equity
    bettor = spot.last_aggressor(spot.street)
    for o, p in zip(spot.opponents, profiles, strict=True):
        if spot.to_call == 0:
            _read(notes, o.seat, "fold_to_bet", p)
        elif o.seat == bettor:
            _read(notes, o.seat, "aggression", p)


def _bet_options(
    spot: Spot, dealt: _Dealt, equity: float, settings: Settings, notes: Notes | None
) -> list[Option]:
    """Checked to: checking, and each bet size of ``BET_SIZES`` (a pot against players who do
    not fold, the whole stack when it is small against the pot)."""
    pot = spot.pot
    options = [Option(_checked(equity, pot, len(spot.opponents), spot.street), check_or_call(spot))]
    if spot.legal["bet_or_raise"] is None:
        return options
    sizes = list(BET_SIZES[spot.street])
    if settings.adapt and spot.street < 3 and all(
        p.fold_to_bet < STATION_FOLDS for p in dealt.profiles
    ):
        sizes.append(1.0)
    stack = spot.mine.stack
    if stack <= SHOVE_POTS * pot:
        sizes.append(stack / max(pot, 1))
    for size in sizes:
        amount = min(size * pot, stack)
        their = [min(amount, o.stack) for o in spot.opponents]
        marks = dealt.callers_for(amount / max(pot, 1), 1.0)
        ev = dealt.against_callers(marks, amount, their)
        action = all_in(spot) if amount >= stack * ALL_IN_SHARE else bet_to(spot, amount)
        options.append(Option(ev, action))
        _folds(notes, action, marks)
    return options


def _facing_bet_options(
    spot: Spot, dealt: _Dealt, equity: float, notes: Notes | None
) -> list[Option]:
    """Facing a bet: folding, calling (the equity the call realises) and one raise size."""
    pot, call, mine = spot.pot, spot.to_call, spot.mine
    river = spot.street == 3
    realise = 1.0 if river or call >= mine.stack else REALISE_POSTFLOP[spot.in_position()]
    options = [
        Option(0.0, fold_or_check(spot)),
        Option(equity * realise * (pot + call) - call, check_or_call(spot)),
    ]
    if spot.legal["bet_or_raise"] is None:
        return options
    target = spot.current_bet + RAISE_POT_SHARE * (pot + call)
    target = min(target, mine.stack + mine.bet)
    added = target - mine.bet
    their = [max(min(target, o.stack + o.bet) - o.bet, 0) for o in spot.opponents]
    marks = dealt.callers_for(added / max(pot + call, 1), RAISE_FOLD_SCALE)
    ev = dealt.against_callers(marks, added, their)
    ev = ev * (1.0 if river else RAISE_BEFORE_RIVER)
    go_all_in = target >= (mine.stack + mine.bet) * ALL_IN_SHARE
    options.append(Option(ev, all_in(spot) if go_all_in else bet_to(spot, target)))
    _folds(notes, options[-1].action, marks)
    return options


def _folds(notes: Notes | None, action: Action, callers: BoolArray) -> None:
    """Note how often the bot reckons everyone folds to ``action`` (no caller in a deal)."""
    if notes is not None:
        notes.fold_chances[action] = float(1.0 - callers.any(axis=1).mean())


# Share of its edge over an even split that a hand ahead of several players keeps when it checks
# a street with more cards to come: free cards for every draw and every overcard against it.
CHECK_KEEPS = {1: 0.75, 2: 0.85}


def _checked(equity: float, pot: int, opponents: int, street: int) -> float:
    """What checking is worth: the equity, less part of the edge of a hand that is ahead of
    two or more opponents before the river (heads-up and on the river, the equity itself)."""
    fair = 1.0 / (opponents + 1)
    if opponents < 2 or street >= 3 or equity <= fair:
        return equity * pot
    return (fair + (equity - fair) * CHECK_KEEPS.get(street, 1.0)) * pot
