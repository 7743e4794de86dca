"""The medium computer player after the flop, and the tuning of it: the opponents' likely hands
are dealt many times (:mod:`engine.bots.sim`) and checking, calling, folding and a few bet and
raise sizes are valued against the part of them that would call (the bets an opponent would
fold to take the weakest part of his range). Bluffs come out of the same sums.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.actions import Action
from engine.bots import ranges
from engine.bots.base import Spot, all_in, bet_to, check_or_call, fold_or_check
from engine.bots.combos import BoolArray, FloatArray, board_strength
from engine.bots.medium_choice import Option, ProfileOf, Settings, choose, note_read
from engine.bots.reads import Profile
from engine.bots.reasons import Notes
from engine.bots.sim import Deal, deal

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


def decide_postflop(
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
    return choose(options, rng, settings, spot.pot, notes)


def _note_reads(notes: Notes, spot: Spot, profiles: Sequence[Profile], equity: float) -> None:
    """Note the equity, and the reads the decision uses: how often each opponent folds when the
    bot may bet, how aggressive the bettor is when it faces a bet."""
    notes.equity = equity
    bettor = spot.last_aggressor(spot.street)
    for o, p in zip(spot.opponents, profiles, strict=True):
        if spot.to_call == 0:
            note_read(notes, o.seat, "fold_to_bet", p)
        elif o.seat == bettor:
            note_read(notes, o.seat, "aggression", p)


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
