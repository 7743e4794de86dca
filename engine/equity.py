"""Monte Carlo equity: the share of the pot a hand wins against opponents' unknown cards.

All trials are dealt and valued at once with numpy, using the evaluator's own tables (the same
card keys and lookups as :func:`engine.evaluator.rank_ids`), so a 10,000-trial estimate takes a
few milliseconds. The only randomness comes from the ``random.Random`` passed in: the same seed
gives the same estimate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.evaluator import hand_values

__all__ = ["Combo", "Range", "equity"]

Combo = tuple[Card, Card]
Range = Sequence[Combo] | Mapping[Combo, float]
"""An opponent's possible hole cards: equally likely combos, or a mapping combo -> weight."""

IntArray = npt.NDArray[np.intp]

_MAX_REDEALS = 1000  # rounds of redealing opponents whose ranges collide before giving up


def equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: int,
    trials: int,
    rng: random.Random,
    dead: Sequence[Card] = (),
    ranges: Sequence[Range | None] | None = None,
) -> float:
    """Expected share of the pot won by ``hole`` against ``opponents`` hands, ties split.

    The board is completed to five cards and each opponent gets two cards, avoiding ``hole``,
    ``board`` and ``dead`` (cards known to be out of play, e.g. folded and shown). ``ranges``
    gives one entry per opponent: ``None`` for any two cards, or the combos that opponent may
    hold (a sequence of equally likely combos or a mapping combo -> weight). Hands are dealt
    from the exact joint distribution: weighted combos for the ranged opponents, redealt
    together whenever two of them would share a card, then uniform cards for the rest.
    """
    known = _check_known(hole, board, dead)
    if opponents < 1:
        raise ValueError("equity needs at least one opponent")
    if trials < 1:
        raise ValueError("equity needs at least one trial")
    if len(known) + (5 - len(board)) + 2 * opponents > 52:
        raise ValueError(f"not enough cards left to deal to {opponents} opponents")
    if ranges is not None and len(ranges) != opponents:
        raise ValueError(f"got {len(ranges)} ranges for {opponents} opponents")

    gen = np.random.default_rng(rng.getrandbits(128))
    ranged = [] if ranges is None else [(i, r) for i, r in enumerate(ranges) if r is not None]
    holes = np.empty((trials, opponents, 2), dtype=np.intp)
    taken = np.zeros((trials, 0), dtype=np.intp)
    if ranged:
        dealt = _deal_ranges([_combo_table(r, known, i) for i, r in ranged], trials, gen)
        for k, (i, _) in enumerate(ranged):
            holes[:, i] = dealt[:, 2 * k : 2 * k + 2]
        taken = dealt

    missing = 5 - len(board)
    random_seats = [i for i in range(opponents) if ranges is None or ranges[i] is None]
    cards = _deal_rest(known, taken, missing + 2 * len(random_seats), trials, gen)
    for k, i in enumerate(random_seats):
        holes[:, i] = cards[:, missing + 2 * k : missing + 2 * k + 2]

    full_board = np.empty((trials, 5), dtype=np.intp)
    full_board[:, : len(board)] = [c.id for c in board]
    full_board[:, len(board) :] = cards[:, :missing]
    seats = np.concatenate(
        [np.broadcast_to(np.array([c.id for c in hole], dtype=np.intp), (trials, 1, 2)), holes],
        axis=1,
    )
    values = hand_values(full_board, seats)
    best = values.max(axis=1)
    winners = values == best[:, None]
    shares = winners[:, 0] / winners.sum(axis=1)
    return float(shares.mean())


def _check_known(hole: Sequence[Card], board: Sequence[Card], dead: Sequence[Card]) -> list[int]:
    if len(hole) != 2:
        raise ValueError(f"a hand has two hole cards, not {len(hole)}")
    if len(board) > 5:
        raise ValueError(f"the board has at most five cards, not {len(board)}")
    known = [c.id for c in (*hole, *board, *dead)]
    if len(set(known)) != len(known):
        raise ValueError("the same card appears twice among the hole cards, board and dead cards")
    return known


def _combo_table(
    combos: Range, known: Sequence[int], seat: int
) -> tuple[IntArray, npt.NDArray[np.float64]]:
    """The combos of one range that do not use a known card, and their probabilities."""
    pairs = combos.items() if isinstance(combos, Mapping) else ((c, 1.0) for c in combos)
    blocked = set(known)
    ids: list[tuple[int, int]] = []
    weights: list[float] = []
    for (a, b), weight in pairs:
        if a == b:
            raise ValueError(f"opponent {seat + 1}'s range holds {a} twice in one combo")
        if weight < 0:
            raise ValueError(f"opponent {seat + 1}'s range has a negative weight")
        if weight > 0 and a.id not in blocked and b.id not in blocked:
            ids.append((a.id, b.id))
            weights.append(weight)
    total = sum(weights)
    if not ids or total <= 0:
        raise ValueError(f"opponent {seat + 1}'s range has no combo left with these cards out")
    return np.array(ids, dtype=np.intp), np.array(weights) / total


def _deal_ranges(
    tables: Sequence[tuple[IntArray, npt.NDArray[np.float64]]],
    trials: int,
    gen: np.random.Generator,
) -> IntArray:
    """Hole cards of every ranged opponent, ``(trials, 2 * len(tables))``, never sharing a card."""
    dealt = np.empty((trials, 2 * len(tables)), dtype=np.intp)
    pending = np.arange(trials)
    for _ in range(_MAX_REDEALS):
        for k, (combos, probabilities) in enumerate(tables):
            picks = gen.choice(len(combos), size=len(pending), p=probabilities)
            dealt[pending, 2 * k : 2 * k + 2] = combos[picks]
        ordered = np.sort(dealt[pending], axis=1)
        pending = pending[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        if not pending.size:
            return dealt
    raise ValueError("the opponents' ranges overlap too much to deal them all at once")


def _deal_rest(
    known: Sequence[int], taken: IntArray, count: int, trials: int, gen: np.random.Generator
) -> IntArray:
    """``count`` uniformly random cards per trial, in random order, avoiding known and taken."""
    if not count:
        return np.empty((trials, 0), dtype=np.intp)
    blocked = set(known)
    pool = np.array([c for c in range(52) if c not in blocked], dtype=np.intp)
    keys = gen.random((trials, len(pool)))
    if taken.size:
        # Cards already given to ranged opponents sort last, so they are never dealt again.
        column = np.full(52, -1, dtype=np.intp)
        column[pool] = np.arange(len(pool))
        np.put_along_axis(keys, column[taken], 2.0, axis=1)
    order = np.argsort(keys, axis=1)[:, :count]
    dealt: IntArray = pool[order]
    return dealt


