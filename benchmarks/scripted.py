"""What the scripted players of the computer players' benchmarks share (bots_match,
bots_opponents, outside_styles, bots_leaks): the types of a policy, the strength of a made hand,
the price of a call, and the simple play before the flop by hand ranges."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots import preflop as preflop_table
from engine.bots.base import Spot, bet_to, check_or_call, fold_or_check
from engine.bots.combos import COMBO_INDEX, board_strength

View = Mapping[str, Any]
Past = Sequence[Mapping[str, Any]]
Policy = Callable[[View, Past, random.Random], Action]


def made_strength(spot: Spot) -> float:
    """Made-hand (and draw) percentile of the hole cards on the board, against all combos."""
    strength, _ = board_strength(spot.board)
    return float(strength[COMBO_INDEX[spot.hole[0], spot.hole[1]]])


def price(spot: Spot) -> float:
    """The share of the pot after the call that the call costs."""
    return spot.to_call / max(spot.pot + spot.to_call, 1)


def by_ranges(spot: Spot, raise_top: float, calls: Sequence[tuple[float, float]]) -> Action:
    """Before the flop by hand ranges: raise the top ``raise_top`` share of hands (unless the pot
    was raised twice already), take a free look, call with the top ``share`` of hands up to
    ``big_blinds`` for each ``(share, big_blinds)`` of ``calls``, fold the rest."""
    pct = preflop_table.percentile(spot.hole)
    if pct <= raise_top and spot.level() <= 2:
        return bet_to(spot, 3 * max(spot.current_bet, spot.big_blind))
    if spot.legal["check"]:
        return check_or_call(spot)
    for share, big_blinds in calls:
        if pct <= share and spot.to_call <= big_blinds * spot.big_blind:
            return check_or_call(spot)
    return fold_or_check(spot)


ANY_PRICE = math.inf
"""For ``by_ranges``: a call whatever it costs."""
