"""Computer players at a table: what they see, what they remember, and their decision.

The bots contract (engine.bots.decide) gets exactly what a person in the seat would see, plus
the views of this game's finished hands (kept per process: ``tables.cache.past_views``).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from engine.actions import Action
from engine.bots import decide, decide_explained
from engine.game import Game
from engine.views import game_view
from tables import cache
from tables.models import Seat, Table
from tables.write.path import seeded


def decide_for(table: Table) -> Action | None:
    """The decision of the computer player to act at ``table`` (None if no computer is to act).

    Randomness is fresh from ``secrets`` in play and repeatable when TABLES_SEED is set.
    """
    return explained_for(table, explain=False)[0]


def explained_for(
    table: Table, *, explain: bool = True
) -> tuple[Action | None, dict[str, Any] | None]:
    """``decide_for``'s decision (the same for the same seed) and, with ``explain``, the public
    part of its reason (``engine.bots.reasons.Reason.public``: nothing about its cards)."""
    if table.state is None:
        return None, None
    # The version this process holds, if it is this one (read only here): no replay, no query.
    held = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
    game = held.game if held is not None and held.game is not None else Game.from_dict(
        table.state
    )
    hand = game.hand
    if hand is None or hand.finished or hand.seat_to_act is None:
        return None, None
    seat = hand.seat_to_act
    level = _computer_level(table, seat, held)
    if level is None:
        return None, None
    rng = seeded(table.id, "bot", game.hand_number, len(hand.actions)) or random.Random(
        secrets.randbits(64)
    )
    view = game_view(game, seat)
    past = cache.past_views(table.id, table.code, seat, before=game.hand_number)
    if not explain:
        return decide(level, view, past, rng), None
    action, reason = decide_explained(level, view, past, rng)
    return action, reason.public()


def _computer_level(table: Table, seat: int, held: cache.Snapshot | None) -> str | None:
    """The level of the computer player at ``seat`` (None: a person sits there), from the
    version held here when there is one."""
    if held is not None:
        info = held.seats.get(seat)
        if info is None or not info.is_computer:
            return None
        return info.level or table.computer_level
    row = Seat.objects.filter(table=table, position=seat, is_computer=True).first()
    return (row.level or table.computer_level) if row is not None else None
