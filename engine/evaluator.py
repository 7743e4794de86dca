"""Hand values (R25-R27): the best five of five, six or seven cards as one comparable integer.

A hand value packs the category and the ranks that decide ties into one ``int``::

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``r1..r5`` are the distinct deciding ranks in order of importance (the quads, trips or
pairs first, then the kickers from the highest; a straight only needs its top card, the wheel's
being 5) padded with zeros. Two hands tie exactly when their values are equal, and a higher
value always wins, so pots can be settled with ``max`` and ``==``.

The hot path, :func:`rank_ids`, adds one precomputed key per card. Each key holds a 3-bit count
per rank (above bit 16) and a 4-bit count per suit (below it). Starting the sum at ``0x3333``
lifts every suit count by 3, so a suit with five or more cards sets bit 3 of its nibble and
``sum & 0x8888`` spots a flush without looking at the cards again. Without a flush the rank
counts alone decide the hand: one dict lookup. With a flush, nothing else can be better (quads
or a full house need at least three cards off the flush suit, leaving at most four on it), so a
13-bit rank mask of the flush suit indexes a second table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cards import RANK_NAMES, RANK_PLURALS, Card

__all__ = [
    "CARD_KEYS",
    "CATEGORY_SHIFT",
    "FLUSH_BITS",
    "KEY_START",
    "RANK_SHIFT",
    "Category",
    "HandValue",
    "evaluate",
    "flush_mask_values",
    "flush_suits",
    "hand_values",
    "numpy_card_keys",
    "rank_ids",
    "rank_key_values",
    "rank_many",
]

Int64Array = npt.NDArray[np.int64]


class Category(IntEnum):
    """Hand categories from lowest to highest (R25)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


CATEGORY_SHIFT = 20
"""``value >> CATEGORY_SHIFT`` is the hand's :class:`Category`."""

RANK_SHIFT = 16
"""``key_sum >> RANK_SHIFT`` is the rank-count part of a sum of :data:`CARD_KEYS`."""

KEY_START = 0x3333
"""Where a sum of card keys starts, so that a five-card suit sets a bit of :data:`FLUSH_BITS`."""

FLUSH_BITS = 0x8888

_RANK_BITS = 3  # a count of up to 7 cards of one rank fits in three bits


def _rank_unit(rank_index: int) -> int:
    return 1 << (_RANK_BITS * rank_index)


CARD_KEYS: tuple[int, ...] = tuple(
    (_rank_unit(card_id >> 2) << RANK_SHIFT) | (1 << (4 * (card_id & 3))) for card_id in range(52)
)
"""Additive key of each card id: rank count above :data:`RANK_SHIFT`, suit count below."""

_KEY_OF = CARD_KEYS.__getitem__

# For each suit, the rank bit of each card id of that suit (0 for the other suits).
_SUIT_RANK_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << (card_id >> 2)) if card_id & 3 == suit else 0 for card_id in range(52))
    for suit in range(4)
)
# The flush suit's bit of FLUSH_BITS -> that suit's rank bits by card id.
_SUIT_BIT_GETTERS = {0x8 << (4 * suit): _SUIT_RANK_BITS[suit].__getitem__ for suit in range(4)}

_WHEEL_MASK = (1 << 12) | 0b1111  # A, 2, 3, 4, 5 as rank bits (bit 0 is the two)


def _straight_top(mask: int) -> int:
    """Top rank (2..14) of the best straight in a 13-bit rank mask, 0 if none (R26)."""
    for low in range(8, -1, -1):  # the ten-high window ... the six-high window
        window = 0b11111 << low
        if mask & window == window:
            return low + 6
    return 5 if mask & _WHEEL_MASK == _WHEEL_MASK else 0


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category)
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _flush_table() -> list[int]:
    """Value of the best flush or straight flush of each 13-bit rank mask (0 under five bits)."""
    table = [0] * (1 << 13)
    for mask in range(1 << 13):
        if mask.bit_count() < 5:
            continue
        top = _straight_top(mask)
        if top:
            table[mask] = _pack(Category.STRAIGHT_FLUSH, (top,))
        else:
            ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1][:5]
            table[mask] = _pack(Category.FLUSH, ranks)
    return table


def _five_rank_value(ranks: Sequence[int]) -> int:
    """Value of five cards of the given ranks (2..14) that are not all one suit."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = [counts[r] for r in order]
    if shape[0] == 4:
        category = Category.FOUR_OF_A_KIND
    elif shape[:2] == [3, 2]:
        category = Category.FULL_HOUSE
    elif shape[0] == 3:
        category = Category.THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        category = Category.TWO_PAIR
    elif shape[0] == 2:
        category = Category.PAIR
    else:
        top = _straight_top(sum(1 << (r - 2) for r in ranks))
        if top:
            return _pack(Category.STRAIGHT, (top,))
        category = Category.HIGH_CARD
    return _pack(category, order)


def _rank_table() -> dict[int, int]:
    """Flush-free value of every five- to seven-card rank multiset, keyed by its rank counts.

    Five-card values come from the rules directly; a bigger multiset is worth the best of the
    multisets one card smaller, since every five of seven lie inside some six of them.
    """
    table: dict[int, int] = {}
    smaller: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(2, 15), 5):
        if ranks[0] == ranks[4]:
            continue  # five of one rank
        key = sum(_rank_unit(r - 2) for r in ranks)
        smaller[key] = _five_rank_value(ranks)
    table.update(smaller)
    units = [_rank_unit(i) for i in range(13)]
    for _size in (6, 7):
        bigger: dict[int, int] = {}
        for key, value in smaller.items():
            for i, unit in enumerate(units):
                if (key >> (_RANK_BITS * i)) & 7 < 4:
                    grown = key + unit
                    if bigger.get(grown, -1) < value:
                        bigger[grown] = value
        table.update(bigger)
        smaller = bigger
    return table


_FLUSH_VALUES: list[int] = _flush_table()
_RANK_VALUES: dict[int, int] = _rank_table()


def _flush_value(ids: Sequence[int], key_sum: int) -> int:
    in_suit = _SUIT_BIT_GETTERS[key_sum & FLUSH_BITS]
    return _FLUSH_VALUES[sum(map(in_suit, ids))]


def rank_ids(ids: Sequence[int]) -> int:
    """Value of the best five of 5-7 distinct card ids (``Card.id``); same as ``evaluate().value``.

    No checks: other input gives a wrong answer or a ``KeyError``. Use :func:`evaluate` for
    input from outside the engine.
    """
    key_sum = sum(map(_KEY_OF, ids), KEY_START)
    if key_sum & FLUSH_BITS:
        return _flush_value(ids, key_sum)
    return _RANK_VALUES[key_sum >> RANK_SHIFT]


def _category_of(value: int) -> Category:
    return Category(value >> CATEGORY_SHIFT)


def _deciding_ranks(value: int) -> list[int]:
    ranks = [(value >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]
    return [r for r in ranks if r]


_NAMING_RANKS = {
    Category.STRAIGHT_FLUSH: 1,
    Category.FOUR_OF_A_KIND: 1,
    Category.FULL_HOUSE: 2,
    Category.FLUSH: 1,
    Category.STRAIGHT: 1,
    Category.THREE_OF_A_KIND: 1,
    Category.TWO_PAIR: 2,
    Category.PAIR: 1,
    Category.HIGH_CARD: 1,
}


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """The best five-card hand out of some cards.

    Comparisons (``<``, ``==``, ...) and hashing use ``value`` only: equal values tie (R27).
    ``cards`` are the five cards that make the hand (R29), most important first: the quads,
    trips or pairs, then the kickers from the highest; a wheel is ordered 5-4-3-2-A.
    """

    value: int
    category: Category
    cards: tuple[Card, ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __lt__(self, other: HandValue) -> bool:
        return self.value < other.value

    def __le__(self, other: HandValue) -> bool:
        return self.value <= other.value

    def __gt__(self, other: HandValue) -> bool:
        return self.value > other.value

    def __ge__(self, other: HandValue) -> bool:
        return self.value >= other.value

    @property
    def ranks(self) -> list[int]:
        """The ranks that name the hand, e.g. ``[13, 7]`` for kings and sevens."""
        return _deciding_ranks(self.value)[: _NAMING_RANKS[self.category]]

    @property
    def is_royal(self) -> bool:
        return self.category is Category.STRAIGHT_FLUSH and self.ranks == [14]

    @property
    def name(self) -> str:
        """English description, e.g. ``"Full house, nines full of kings"``."""
        ranks = self.ranks
        top = ranks[0]
        match self.category:
            case Category.STRAIGHT_FLUSH:
                return "Royal flush" if top == 14 else f"Straight flush, {RANK_NAMES[top]} high"
            case Category.FOUR_OF_A_KIND:
                return f"Four of a kind, {RANK_PLURALS[top]}"
            case Category.FULL_HOUSE:
                return f"Full house, {RANK_PLURALS[top]} full of {RANK_PLURALS[ranks[1]]}"
            case Category.FLUSH:
                return f"Flush, {RANK_NAMES[top]} high"
            case Category.STRAIGHT:
                return f"Straight, {RANK_NAMES[top]} high"
            case Category.THREE_OF_A_KIND:
                return f"Three of a kind, {RANK_PLURALS[top]}"
            case Category.TWO_PAIR:
                return f"Two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[ranks[1]]}"
            case Category.PAIR:
                return f"Pair of {RANK_PLURALS[top]}"
            case _:
                return f"High card, {RANK_NAMES[top]}"

    @property
    def key(self) -> dict[str, Any]:
        """JSON-ready form of :attr:`name` for translation.

        ``{"category": "two_pair", "ranks": [13, 7]}``; the category is the lower-case
        :class:`Category` name, except ``"royal_flush"`` (with ``ranks`` ``[14]``).
        """
        category = "royal_flush" if self.is_royal else self.category.name.lower()
        return {"category": category, "ranks": self.ranks}


# How many cards of each deciding rank make the five, by category (straights are apart).
_SHAPES = {
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.PAIR: (2, 1, 1, 1),
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
}


def _five_cards(cards: Sequence[Card], value: int, category: Category) -> tuple[Card, ...]:
    """The five cards worth ``value``, most important first (R29).

    Where several cards would do (say two queens for one kicker), the first one given wins, so
    hole cards listed before the board are preferred.
    """
    pool = cards
    if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        suits = [c.suit for c in cards]
        flush_suit = max(set(suits), key=suits.count)
        pool = [c for c in cards if c.suit == flush_suit]
    ranks = _deciding_ranks(value)
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        # From the top card down; the wheel's ace plays low, last (R26).
        wanted = [14 if r == 1 else r for r in range(ranks[0], ranks[0] - 5, -1)]
        return tuple(next(c for c in pool if c.rank == r) for r in wanted)
    five: list[Card] = []
    for rank, count in zip(ranks, _SHAPES[category], strict=True):
        five.extend([c for c in pool if c.rank == rank][:count])
    return tuple(five)


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The best five of 5, 6 or 7 distinct cards (R25-R27)."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is valued from 5 to 7 cards, not {len(cards)}")
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        twice = next(c for i, c in enumerate(cards) if c in cards[:i])
        raise ValueError(f"the card {twice} appears twice in the hand")
    value = rank_ids(ids)
    category = _category_of(value)
    return HandValue(value, category, _five_cards(cards, value, category))


# --- batch evaluation with numpy -----------------------------------------------------------


@cache
def numpy_card_keys() -> Int64Array:
    """:data:`CARD_KEYS` as an ``int64`` array indexed by card id."""
    return np.array(CARD_KEYS, dtype=np.int64)


@cache
def _numpy_rank_table() -> tuple[Int64Array, Int64Array]:
    keys = np.fromiter(_RANK_VALUES.keys(), dtype=np.int64, count=len(_RANK_VALUES))
    values = np.fromiter(_RANK_VALUES.values(), dtype=np.int64, count=len(_RANK_VALUES))
    order = np.argsort(keys)
    return keys[order], values[order]


@cache
def _numpy_flush_table() -> Int64Array:
    return np.array(_FLUSH_VALUES, dtype=np.int64)


def rank_key_values(rank_keys: Int64Array) -> Int64Array:
    """Values of flush-free hands from their rank parts (``key_sum >> RANK_SHIFT``)."""
    keys, values = _numpy_rank_table()
    positions = np.searchsorted(keys, rank_keys)
    return values[positions]


def flush_mask_values(masks: npt.NDArray[np.integer[Any]]) -> Int64Array:
    """Values of flushes from the 13-bit rank mask of the flush suit's cards."""
    values: Int64Array = _numpy_flush_table()[masks]
    return values


def flush_suits(key_sums: Int64Array) -> npt.NDArray[np.intp]:
    """Suit index (0..3) of the flush in key sums that have one (``sum & FLUSH_BITS`` set)."""
    bits = key_sums & FLUSH_BITS
    suits: npt.NDArray[np.intp] = (
        (bits >= 0x80).astype(np.intp) + (bits >= 0x800) + (bits >= 0x8000)
    )
    return suits


def hand_values(board: npt.ArrayLike, holes: npt.ArrayLike | None = None) -> Int64Array:
    """Values of many hands at once, each equal to :func:`rank_ids` of its cards (no checks:
    :func:`rank_many` checks its input). Every hand holds 5 to 7 distinct card ids.

    - ``holes`` ``None``: ``board`` is an ``(n, k)`` array of whole hands; values ``(n,)``.
    - ``holes`` ``(m, h)``: the same ``m`` hole-card sets with every row of ``board``
      ``(n, b)``; values ``(n, m)`` (every board that can still come against known hands).
    - ``holes`` ``(n, m, h)``: row ``i``'s own ``m`` hole-card sets with row ``i`` of ``board``;
      values ``(n, m)`` (each trial's board with the hands dealt in that trial).

    The key sums of the board and of each hole-card set are added, so a board shared by many
    hands is summed once.
    """
    boards = np.asarray(board, dtype=np.intp)
    if holes is None:
        return hand_values(boards, np.empty((1, 0), dtype=np.intp))[:, 0]
    hole_sets = np.asarray(holes, dtype=np.intp)
    keys = numpy_card_keys()
    sums = (keys[boards].sum(axis=1) + KEY_START)[:, None] + keys[hole_sets].sum(axis=-1)
    values = np.empty(sums.shape, dtype=np.int64)
    flush = (sums & FLUSH_BITS) != 0
    plain = ~flush
    values[plain] = rank_key_values(sums[plain] >> RANK_SHIFT)
    if flush.any():
        row, hand = np.nonzero(flush)
        own = hole_sets[hand] if hole_sets.ndim == 2 else hole_sets[row, hand]
        cards = np.concatenate([boards[row], own], axis=1)
        suits = flush_suits(sums[row, hand])
        bits = np.where((cards & 3) == suits[:, None], 1 << (cards >> 2), 0)
        values[row, hand] = flush_mask_values(bits.sum(axis=1))
    return values


def rank_many(ids: npt.ArrayLike) -> Int64Array:
    """Values of many hands at once: ``ids`` is an ``(n, k)`` array of card ids, 5 <= k <= 7.

    Gives ``rank_ids(row)`` for every row; refuses a malformed array (:func:`hand_values`
    takes trusted input without these checks).
    """
    hands = np.asarray(ids, dtype=np.intp)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(f"expected an (n, 5..7) array of card ids, got shape {hands.shape}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("card ids run from 0 to 51")
    ordered = np.sort(hands, axis=1)
    if np.any(ordered[:, 1:] == ordered[:, :-1]):
        raise ValueError("a hand holds the same card twice")
    return hand_values(hands)
