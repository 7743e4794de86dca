"""Play against several players at once, from each one's own read (issue 29).

- :func:`field_ranges`: the preflop range of every opponent who has put chips in voluntarily,
  each narrowed by their own profile and their actions in this hand (a caller behind a raiser
  holds the band of hands that call a raise, not any two cards; a limper the hands they limp).
- :func:`field_equity`: the bot's share of the pot against all of them together, dealt out
  (:mod:`engine.bots.sim`) instead of the heads-up equity against the raiser discounted by a
  fixed factor per caller.
- :func:`field_fold_equity`: a bet wins the pot at once only when every opponent folds, so its
  fold equity is the product of each one's chance to fold (their reads are independent given
  the public actions).
- :func:`need_to_call_all_in`: with :mod:`engine.bots.icm`, the share of the pot a call of an
  all in needs near the end of a game, when the bot's place is at stake and not only chips.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np

from engine.bots import icm, preflop, ranges
from engine.bots.base import Spot
from engine.bots.combos import FloatArray
from engine.bots.model import Profile
from engine.bots.sim import deal

ProfileOf = Callable[[int], Profile]

__all__ = [
    "field_equity",
    "field_fold_equity",
    "field_ranges",
    "icm_active",
    "need_to_call_all_in",
]


def field_ranges(spot: Spot, seats: Sequence[int], profile_of: ProfileOf) -> list[FloatArray]:
    """Combo weights of each of ``seats`` from their preflop actions and their own profile."""
    return [preflop.combo_weights(ranges.preflop_classes(spot, s, profile_of(s))) for s in seats]


def field_equity(spot: Spot, seats: Sequence[int], profile_of: ProfileOf, rng: random.Random,
                 trials: int = 300) -> float:
    """The bot's share of the pot at showdown against every one of ``seats`` (preflop)."""
    if not seats:
        return 1.0
    dealt = deal(spot.hole, spot.board, field_ranges(spot, seats, profile_of), trials, rng)
    return dealt.equity() if dealt.trials else 1.0 / (len(seats) + 1)


def field_fold_equity(fold_shares: Sequence[float]) -> float:
    """The chance that every opponent folds to a bet, each folding with their own share."""
    return float(np.prod([min(max(f, 0.0), 1.0) for f in fold_shares])) if fold_shares else 1.0


# ------------------------------------------------------------------ the end of a game
def icm_active(spot: Spot) -> bool:
    """Near the end of a game: three or four players left with short stacks against the blinds
    (a mean of 25 big blinds or less), or three left at any depth. Heads-up, places and chips
    agree (two places, one step), so the model is not needed there."""
    n = spot.n
    if n < 3 or n > 4:
        return False
    mean = sum(s.stack + s.in_pot for s in spot.seats) / n
    return n == 3 or mean <= 25 * spot.big_blind


def need_to_call_all_in(spot: Spot, villain: int) -> float:
    """The share of the pot the bot needs to call ``villain``'s all in, under Malmuth-Harville
    over the players still in the game (those out already hold the places below)."""
    seats = [s.seat for s in spot.seats]
    me, vi = seats.index(spot.me), seats.index(villain)
    mine = spot.mine
    call = min(spot.to_call, mine.stack)
    theirs = spot.info(villain)
    # chips of the villain's bet that the bot cannot match go back to him
    excess = max(theirs.bet - (mine.bet + call), 0)
    pot = spot.pot - excess
    behind = [s.stack for s in spot.seats]
    behind[vi] += excess
    fold = list(behind)
    fold[vi] += pot
    win = list(behind)
    win[me] += pot
    lose = list(behind)
    lose[me] -= call
    lose[vi] += pot + call
    values = icm.linear_values(len(seats))
    v_fold = icm.equities(fold, values)[me]
    v_win = icm.equities(win, values)[me]
    v_lose = icm.equities(lose, values)[me]
    if v_win - v_lose <= 0:
        return call / max(pot + call, 1)
    return min(max((v_fold - v_lose) / (v_win - v_lose), 0.0), 1.0)
