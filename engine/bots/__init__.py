"""Computer players. They decide from exactly what a person in their seat would see.

Contract used by the tables app (kept stable while the bots grow):

    decide(level, view, past, rng) -> Action

- ``level``: "easy", "medium" or "hard".
- ``view``: ``engine.views.game_view(game, seat)`` for the bot's own seat (its legal actions are
  in ``view["hand"]["legal"]``).
- ``past``: ``engine.views.hand_view(hand, seat)`` of this game's finished hands, oldest first:
  the public history the bot remembers (rebuilt from stored hands after a restart).
- ``rng``: injected randomness (seeded in tests, ``secrets``-seeded in play).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, ActionKind

LEVELS = ("easy", "medium", "hard")


def decide(
    level: str, view: dict[str, Any], past: Sequence[dict[str, Any]], rng: random.Random
) -> Action:
    """A first, simple policy (check or call, rarely raise) until the real levels land."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}")
    hand = view["hand"]
    legal = hand["legal"] if hand else None
    if legal is None:
        raise ValueError("the computer player is not to act")
    seat = legal["seat"]
    if legal["bet_or_raise"] and rng.random() < 0.1:
        return Action(seat, ActionKind(legal["bet_or_raise"]), legal["min_to"])
    if legal["check"]:
        return Action(seat, ActionKind.CHECK)
    return Action(seat, ActionKind.CALL)
