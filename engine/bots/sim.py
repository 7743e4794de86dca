"""Monte Carlo deals against weighted ranges, keeping every trial for what-if questions.

:func:`engine.equity.equity` answers "what share of the pot do I win"; the bots also need to ask
"and if only the stronger part of each range calls my bet?" without dealing again. So a
:class:`Deal` keeps each trial's hand values and the combo each opponent held, and
:meth:`Deal.share` settles the trials against any subset of callers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.bots.combos import (
    COMBOS,
    N_COMBOS,
    BoolArray,
    FloatArray,
    IntArray,
    blocked_combos,
)
from engine.evaluator import hand_values

_MAX_REDEALS = 30


@dataclass(frozen=True, slots=True)
class Deal:
    """``trials`` deals: the hero's value, each opponent's value and combo index per trial."""

    hero: npt.NDArray[np.int64]  # (trials,)
    opponents: npt.NDArray[np.int64]  # (trials, k)
    picks: IntArray  # (trials, k) combo index held by each opponent

    @property
    def trials(self) -> int:
        return len(self.hero)

    def share(self, callers: BoolArray | None = None) -> FloatArray:
        """The hero's share of the pot in each trial against the opponents marked in
        ``callers`` (``(trials, k)``; all of them when None). No caller means the whole pot."""
        values = self.opponents
        if callers is not None:
            values = np.where(callers, values, -1)
        best = values.max(axis=1)
        ties = (values == self.hero[:, None]).sum(axis=1)
        share = np.where(self.hero > best, 1.0, 0.0)
        level = self.hero == best
        share[level] = 1.0 / (1.0 + ties[level])
        return share

    def equity(self) -> float:
        return float(self.share().mean())


def deal(
    hero: Sequence[int],
    board: Sequence[int],
    ranges: Sequence[FloatArray],
    trials: int,
    rng: random.Random,
) -> Deal:
    """Deal ``trials`` times: each opponent a combo drawn from its range (weights over the 1,326
    combos; an empty range counts as any two cards), then the rest of the board."""
    gen = np.random.default_rng(rng.getrandbits(64))
    known = [*hero, *board]
    blocked = blocked_combos(known)
    k = len(ranges)
    picks = np.empty((trials, k), dtype=np.intp)
    probabilities = []
    for weights in ranges:
        live = np.where(blocked, 0.0, weights)
        total = live.sum()
        if total <= 0:
            live = (~blocked).astype(np.float64)
            total = live.sum()
        probabilities.append(live / total)
    pending = np.arange(trials)
    for _ in range(_MAX_REDEALS):
        for i, p in enumerate(probabilities):
            picks[pending, i] = gen.choice(N_COMBOS, size=len(pending), p=p)
        if k < 2:
            pending = pending[:0]
            break
        cards = np.sort(COMBOS[picks[pending]].reshape(len(pending), 2 * k), axis=1)
        pending = pending[(cards[:, 1:] == cards[:, :-1]).any(axis=1)]
        if not len(pending):
            break
    keep = np.ones(trials, dtype=bool)
    keep[pending] = False  # ranges that keep colliding: drop those few trials
    picks = picks[keep]
    n = len(picks)
    held = COMBOS[picks].reshape(n, 2 * k)

    missing = 5 - len(board)
    full_board = np.empty((n, 5), dtype=np.intp)
    full_board[:, : len(board)] = list(board)
    if missing:
        keys = gen.random((n, 52))
        keys[:, known] = 2.0
        np.put_along_axis(keys, held, 2.0, axis=1)
        full_board[:, len(board) :] = np.argpartition(keys, missing, axis=1)[:, :missing]
    hero_cards = np.broadcast_to(np.array(hero, dtype=np.intp), (n, 1, 2))
    values = hand_values(full_board, np.concatenate([hero_cards, held.reshape(n, k, 2)], axis=1))
    return Deal(values[:, 0], values[:, 1:], picks)


def uniform_range(dead: Sequence[int] = ()) -> FloatArray:
    weights: FloatArray = (~blocked_combos(dead)).astype(np.float64)
    return weights
