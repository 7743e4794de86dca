"""Two-card combos, the 169 starting-hand classes and board strength for the bots.

A combo is a pair of card ids ``a < b`` (``Card.id``, 0..51); the 1,326 of them are indexed in
the order of :data:`COMBOS`, and a range is a float array over that index. Hand values come
from :func:`engine.evaluator.hand_values`, so they equal ``rank_ids`` exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from engine.cards import RANKS, parse_card
from engine.evaluator import hand_values

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

N_COMBOS = 1326
N_CLASSES = 169


def _all_combos() -> IntArray:
    return np.array([(a, b) for b in range(52) for a in range(b)], dtype=np.intp)


COMBOS: IntArray = _all_combos()
"""``(1326, 2)`` card ids of every combo, lower id first."""

COMBO_INDEX: IntArray = np.full((52, 52), -1, dtype=np.intp)
COMBO_INDEX[COMBOS[:, 0], COMBOS[:, 1]] = np.arange(N_COMBOS)
COMBO_INDEX[COMBOS[:, 1], COMBOS[:, 0]] = np.arange(N_COMBOS)


def class_index(id_a: int, id_b: int) -> int:
    """The starting-hand class (0..168) of two card ids.

    With rank indexes 0..12 (two..ace): a pair is ``r * 13 + r``, a suited hand
    ``high * 13 + low`` and an offsuit hand ``low * 13 + high``.
    """
    ra, rb = id_a >> 2, id_b >> 2
    high, low = max(ra, rb), min(ra, rb)
    if high == low or (id_a & 3) == (id_b & 3):
        return high * 13 + low
    return low * 13 + high


def class_name(index: int) -> str:
    """``"AA"``, ``"AKs"``, ``"72o"``."""
    row, col = divmod(index, 13)
    if row == col:
        return RANKS[row] * 2
    if row > col:
        return RANKS[row] + RANKS[col] + "s"
    return RANKS[col] + RANKS[row] + "o"


COMBO_CLASS: IntArray = np.array([class_index(int(a), int(b)) for a, b in COMBOS], dtype=np.intp)
"""Class of each combo."""

CLASS_SIZE: IntArray = np.bincount(COMBO_CLASS, minlength=N_CLASSES).astype(np.intp)
"""Combos per class: 6 for a pair, 4 suited, 12 offsuit (zero for the unused indexes)."""

CLASS_NAMES: tuple[str, ...] = tuple(class_name(i) for i in range(N_CLASSES))


def card_ids(texts: Sequence[str]) -> list[int]:
    return [parse_card(t).id for t in texts]


def blocked_combos(dead: Sequence[int]) -> BoolArray:
    """True for every combo holding one of the ``dead`` card ids."""
    if not dead:
        return np.zeros(N_COMBOS, dtype=bool)
    mask = np.zeros(52, dtype=bool)
    mask[list(dead)] = True
    blocked: BoolArray = mask[COMBOS[:, 0]] | mask[COMBOS[:, 1]]
    return blocked


# ------------------------------------------------------------------ draws
def _straight_windows() -> list[int]:
    windows = [0b11111 << low for low in range(9)]
    windows.append((1 << 12) | 0b1111)  # the wheel
    return windows


_WINDOWS = _straight_windows()


def _draw_tables() -> tuple[BoolArray, BoolArray]:
    """For each 13-bit rank mask: holds a straight; holds an open-ended or double gutshot draw."""
    masks = np.arange(1 << 13)

    def straight(m: IntArray) -> BoolArray:
        found = np.zeros(len(m), dtype=bool)
        for window in _WINDOWS:
            found |= (m & window) == window
        return found

    made = straight(masks)
    outs = np.zeros(len(masks), dtype=np.intp)
    for rank in range(13):
        missing = ((masks >> rank) & 1) == 0
        outs += missing & straight(masks | (1 << rank))
    return made, ~made & (outs >= 2)


STRAIGHT_MADE, STRAIGHT_DRAW = _draw_tables()


@lru_cache(maxsize=4096)
def board_strength(board: tuple[int, ...]) -> tuple[FloatArray, BoolArray]:
    """How strong every combo is on ``board`` (3-5 cards), and which combos are impossible.

    The strength is the combo's made-hand percentile among all live combos (0 worst, 1 best),
    raised for flush and straight draws on the flop and turn so that a draw counts as a fair
    hand. Bots use it to order a player's range when reading their bets and calls.
    """
    blocked = blocked_combos(board)
    live = ~blocked
    values = hand_values(np.array([board], dtype=np.intp), COMBOS[live])[0]
    ordered = np.sort(values)
    below = np.searchsorted(ordered, values, side="left")
    upto = np.searchsorted(ordered, values, side="right")
    strength = np.zeros(N_COMBOS, dtype=np.float64)
    strength[live] = (below + upto) / (2.0 * len(values))
    if len(board) < 5:
        strength = np.maximum(strength, _draw_strength(board, len(board)))
        strength[blocked] = 0.0
    return strength, blocked


def _draw_strength(board: tuple[int, ...], size: int) -> FloatArray:
    first, second = COMBOS[:, 0], COMBOS[:, 1]
    flush_draw = np.zeros(N_COMBOS, dtype=bool)
    for suit in range(4):
        on_board = sum(1 for c in board if c & 3 == suit)
        mine = ((first & 3) == suit).astype(np.intp) + ((second & 3) == suit)
        flush_draw |= (mine > 0) & (on_board + mine == 4)
    board_mask = 0
    for c in board:
        board_mask |= 1 << (c >> 2)
    masks = board_mask | (1 << (first >> 2)) | (1 << (second >> 2))
    straight_draw = STRAIGHT_DRAW[masks] & ~STRAIGHT_MADE[masks] & (masks != board_mask)
    if STRAIGHT_DRAW[board_mask]:
        straight_draw &= False
    flop = size == 3
    score = np.zeros(N_COMBOS, dtype=np.float64)
    score[straight_draw] = 0.55 if flop else 0.45
    score[flush_draw] = 0.68 if flop else 0.55
    score[flush_draw & straight_draw] = 0.8 if flop else 0.65
    return score
