"""The hard computer player: the medium player's method with a profile of every opponent.

The profiles come from the hands of this game the bot has seen (:mod:`engine.bots.reads`). The
same sums then adapt by themselves: a player who calls too much folds less often in the bot's
estimate, so thin value bets gain and bluffs lose; a player who folds too much makes steals and
bluffs pay; an aggressive player's bets hold more bluffs, so the bot calls them down wider.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots import medium
from engine.bots.base import Spot
from engine.bots.medium_choice import Settings
from engine.bots.reads import Profile, model_from_past
from engine.bots.reasons import Notes

HARD = Settings(trials=600, adapt=True, mistakes=0.03, fold_belief=0.9, icm=True)


def decide(
    spot: Spot, past: Sequence[Mapping[str, Any]], rng: random.Random,
    notes: Notes | None = None,
) -> Action:
    model = model_from_past(past, spot.me)
    players = spot.n
    cache: dict[int, Profile] = {}

    def profile_of(seat: int) -> Profile:
        if seat not in cache:
            cache[seat] = model.profile(seat, players)
        return cache[seat]

    return medium.decide(spot, rng, profile_of, HARD, notes)
