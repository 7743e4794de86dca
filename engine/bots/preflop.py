"""Starting hands: their strength order, "top x%" ranges and preflop equities from the table.

The tables come from ``preflop_data`` (made by ``scripts/gen_preflop_table.py``). Hands are put
in one strength order, from the equity against one and against three random hands, so that "the
top 20% of hands" means the same for every bot and every range estimate.
"""

from __future__ import annotations

import base64

import numpy as np

from engine.bots import preflop_data
from engine.bots.combos import (
    CLASS_NAMES,
    CLASS_SIZE,
    COMBO_CLASS,
    N_CLASSES,
    N_COMBOS,
    FloatArray,
    IntArray,
    class_index,
)

__all__ = [
    "CLASS_SIZE",
    "MATRIX",
    "N_CLASSES",
    "N_COMBOS",
    "OPEN",
    "ORDER",
    "PERCENTILE",
    "VS_RANDOM",
    "band",
    "call_width",
    "combo_weights",
    "equity_vs",
    "hand_class",
    "open_width",
    "percentile",
    "playability",
    "top",
]

VS_RANDOM: FloatArray = np.array([preflop_data.VS_RANDOM[name] for name in CLASS_NAMES])
"""``(169, 5)``: equity of each class against 1..5 random hands."""

MATRIX: FloatArray = (
    np.frombuffer(b"".join(base64.b64decode(row) for row in preflop_data.MATRIX), dtype="<u2")
    .astype(np.float64)
    .reshape(N_CLASSES, N_CLASSES)
    / 65535.0
)
"""``(169, 169)``: heads-up equity of class ``i`` against class ``j``."""


def _order() -> tuple[IntArray, FloatArray, FloatArray]:
    score = VS_RANDOM[:, 0] / VS_RANDOM[:, 0].mean() + VS_RANDOM[:, 2] / VS_RANDOM[:, 2].mean()
    order = np.argsort(-score, kind="stable")
    sizes = CLASS_SIZE[order] / N_COMBOS
    end = np.cumsum(sizes)
    start = end - sizes
    starts = np.empty(N_CLASSES)
    ends = np.empty(N_CLASSES)
    starts[order] = start
    ends[order] = end
    return order, starts, ends


ORDER, _START, _END = _order()
"""Classes from the strongest; each class covers ``[_START, _END)`` of all combos."""

PERCENTILE: FloatArray = (_START + _END) / 2
"""Share of all combos stronger than the class (its middle): 0 for aces, near 1 for 7-2."""


def hand_class(hole: tuple[int, int]) -> int:
    return class_index(hole[0], hole[1])


def percentile(hole: tuple[int, int]) -> float:
    return float(PERCENTILE[hand_class(hole)])


def top(width: float) -> FloatArray:
    """Class weights of the strongest ``width`` share of all combos (partial at the edge)."""
    return band(0.0, width)


def band(low: float, high: float) -> FloatArray:
    """Class weights of the hands between the ``low`` and ``high`` strength percentiles."""
    low = min(max(low, 0.0), 1.0)
    high = min(max(high, low), 1.0)
    overlap = np.minimum(_END, high) - np.maximum(_START, low)
    weights: FloatArray = np.clip(overlap / (_END - _START), 0.0, 1.0)
    return weights


def combo_weights(class_weights: FloatArray) -> FloatArray:
    """Spread class weights onto the 1,326 combos."""
    weights: FloatArray = class_weights[COMBO_CLASS]
    return weights


def equity_vs(cls: int, class_weights: FloatArray) -> float:
    """Heads-up equity of ``cls`` against a range of classes (card removal ignored)."""
    mass = class_weights * CLASS_SIZE
    total = float(mass.sum())
    if total <= 0:
        return float(VS_RANDOM[cls, 0])
    return float(MATRIX[cls] @ mass / total)


def playability(cls: int) -> float:
    """How well a hand plays after the flop (pairs and suited, connected cards realise more)."""
    row, col = divmod(cls, 13)
    if row == col:
        return 1.0
    high, low = max(row, col), min(row, col)
    gap = high - low
    bonus = 0.04 if row > col else 0.0
    bonus += {1: 0.03, 2: 0.015, 3: 0.0}.get(gap, -0.03)
    if high >= 9:  # jack or better
        bonus += 0.02
    return 0.96 + bonus


# Opening widths (share of all combos raised when everyone before folded), by players dealt in
# and players still to act behind the opener. Medium and hard open from these tables too, and
# the opponent model counts a player's opens against them (``model.Counts.open_expected``).
OPEN: dict[int, dict[int, float]] = {
    2: {1: 0.8},
    3: {2: 0.45, 1: 0.45},
    4: {3: 0.3, 2: 0.42, 1: 0.42},
    5: {4: 0.22, 3: 0.28, 2: 0.42, 1: 0.42},
    6: {5: 0.16, 4: 0.2, 3: 0.27, 2: 0.42, 1: 0.42},
}


def open_width(players: int, behind: int) -> float:
    chart = OPEN[min(max(players, 2), 6)]
    return chart.get(behind, min(chart.values()))


def call_width(players: int, in_blind: bool, facing_big_blinds: float) -> float:
    """Share of all hands a typical player calls one raise with (his re-raises included: they
    are taken off the top by the range reader), in a blind or not, facing a raise of so many
    big blinds more."""
    heads_up = players == 2
    base = (0.55 if heads_up else 0.3) if in_blind else (0.4 if heads_up else 0.15)
    if facing_big_blinds > 4 and not heads_up:
        base *= 0.75
    return base
