"""The medium computer player's decisions before the flop when nobody has raised, and their
tuning: push or fold when short, open the chart's share of hands for the seat (wider against
players who give up), limp, or fold; and the big blind's option after limps. Facing a raise it
decides in :mod:`engine.bots.medium_facing_raise`.
"""

from __future__ import annotations

import random

import numpy as np

from engine.actions import Action
from engine.bots import preflop, ranges
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check
from engine.bots.medium_choice import ProfileOf, Settings, note_read
from engine.bots.medium_facing_raise import facing_raise
from engine.bots.reads import prior_for
from engine.bots.reasons import Notes, said

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
        note_read(notes, seat, "vpip", profile_of(seat))

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


def decide_preflop(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings,
    notes: Notes | None = None,
) -> Action:
    """Before the flop: the big blind's option after limps, an open, or facing a raise."""
    cls = preflop.hand_class(spot.hole)
    level = spot.level()
    if level > 1:
        return facing_raise(spot, rng, profile_of, settings, cls, level, notes)
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
        note_read(notes, seat, "vpip", profile_of(seat))
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
