"""Value all 133,784,560 seven-card hands with the engine's tables and count them by category.

A seven-card hand is split into its two lowest cards (1,326 prefixes) and five higher cards. The
2,598,960 five-card combinations are listed once, with their summed card keys and per-suit rank
masks, sorted by lowest card; for each prefix the matching suffixes are one contiguous slice.
Each hand is then valued exactly like :func:`engine.evaluator.rank_ids` does it: the sum of
``CARD_KEYS`` from ``KEY_START``, ``FLUSH_BITS`` to spot a flush, and the engine's rank and flush
tables for the value, all vectorised with numpy. A few hands of every prefix are also valued
with ``rank_ids`` itself and must agree. Prefixes are shared among worker processes.

    .venv/bin/python benchmarks/exhaustive_7card.py [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from itertools import chain, combinations
from math import comb

import numpy as np
import numpy.typing as npt

from engine.evaluator import (
    CARD_KEYS,
    CATEGORY_SHIFT,
    FLUSH_BITS,
    KEY_START,
    RANK_SHIFT,
    Category,
    flush_mask_values,
    flush_suits,
    numpy_card_keys,
    rank_ids,
    rank_key_values,
)

EXPECTED = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}
EXPECTED_DISTINCT = 4_824
CHECKS_PER_PREFIX = 16


class Suffixes:
    """Every five-card combination, sorted by lowest card, with what valuing it needs."""

    def __init__(self) -> None:
        flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8)
        self.cards = flat.reshape(-1, 5).astype(np.intp)
        self.lowest = self.cards[:, 0].copy()
        self.key_sums = numpy_card_keys()[self.cards].sum(axis=1)
        # masks[suit, i]: rank bits of suffix i's cards of that suit.
        suit_of, bit_of = self.cards & 3, 1 << (self.cards >> 2)
        self.masks = np.stack(
            [np.where(suit_of == suit, bit_of, 0).sum(axis=1) for suit in range(4)]
        ).astype(np.int64)


_suffixes: Suffixes | None = None  # built before the workers fork, shared with them


def count_prefix(prefix: tuple[int, int]) -> npt.NDArray[np.int64]:
    """Counts by hand value of the hands whose two lowest cards are ``prefix``.

    Returns a flat array of (value, count) pairs.
    """
    assert _suffixes is not None
    low, high = prefix
    start = int(np.searchsorted(_suffixes.lowest, high + 1))
    sums = _suffixes.key_sums[start:] + (KEY_START + CARD_KEYS[low] + CARD_KEYS[high])
    flush = (sums & FLUSH_BITS) != 0
    values = np.empty(len(sums), dtype=np.int64)
    plain = ~flush
    values[plain] = rank_key_values(sums[plain] >> RANK_SHIFT)
    where = np.nonzero(flush)[0]
    if where.size:
        suits = flush_suits(sums[where])
        prefix_bits = np.zeros(4, dtype=np.int64)
        for card in prefix:
            prefix_bits[card & 3] |= 1 << (card >> 2)
        masks = _suffixes.masks[suits, start + where] | prefix_bits[suits]
        values[where] = flush_mask_values(masks)

    rng = random.Random(low * 52 + high)
    for i in rng.sample(range(len(values)), min(CHECKS_PER_PREFIX, len(values))):
        hand = [low, high, *(int(c) for c in _suffixes.cards[start + i])]
        if rank_ids(hand) != values[i]:
            raise AssertionError(f"rank_ids disagrees with the batch on {hand}")

    distinct, counts = np.unique(values, return_counts=True)
    return np.stack([distinct, counts], axis=1).ravel()


def main(argv: Sequence[str] | None = None) -> int:
    global _suffixes
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    _suffixes = Suffixes()
    prepared = time.perf_counter()
    # Most work first (low cards leave the most suffixes), so the workers finish together.
    prefixes = sorted(combinations(range(52), 2), key=lambda p: -comb(51 - p[1], 5))
    by_value: dict[int, int] = {}
    context = multiprocessing.get_context("fork")
    with context.Pool(args.workers) as pool:
        for pairs in pool.imap_unordered(count_prefix, prefixes):
            for value, count in pairs.reshape(-1, 2).tolist():
                by_value[value] = by_value.get(value, 0) + count
    finished = time.perf_counter()

    by_category = dict.fromkeys(EXPECTED, 0)
    for value, count in by_value.items():
        by_category[Category(value >> CATEGORY_SHIFT)] += count
    total = sum(by_category.values())
    print(f"All seven-card hands: {total:,} (expected {comb(52, 7):,})")
    print(f"{'category':<18}{'hands':>14}{'expected':>14}  match")
    for category, expected in EXPECTED.items():
        got = by_category[category]
        print(f"{category.name.lower():<18}{got:>14,}{expected:>14,}  {got == expected}")
    distinct = len(by_value)
    matched = distinct == EXPECTED_DISTINCT
    print(f"{'distinct values':<18}{distinct:>14,}{EXPECTED_DISTINCT:>14,}  {matched}")
    ok = by_category == EXPECTED and matched and total == comb(52, 7)
    print(f"all counts match: {ok}")
    print(
        f"time: {finished - started:.1f} s ({prepared - started:.1f} s building the suffixes, "
        f"{finished - prepared:.1f} s counting with {args.workers} workers); "
        f"{CHECKS_PER_PREFIX * len(prefixes):,} hands cross-checked with rank_ids"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
