"""Computer players at a table: what they see, what they remember, and their decision.

The bots contract (engine.bots.decide) gets exactly what a person in the seat would see, plus
the views of this game's finished hands. Those are rebuilt from stored Hand rows and cached per
process, so a restart only costs a replay.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from typing import Any

from engine.actions import Action
from engine.bots import decide
from engine.game import Game
from engine.history import replay
from engine.views import game_view, hand_view
from tables.models import Hand, Seat, Table
from tables.write.path import seeded

_CACHE_SIZE = 512
# (table id, code, seat) -> (last hand number loaded, views of the finished hands, oldest first).
# The code is part of the key because SQLite may give a deleted table's id to a new one.
_past: OrderedDict[tuple[int, str, int], tuple[int, list[dict[str, Any]]]] = OrderedDict()
_lock = threading.Lock()


def past_views(table_id: int, code: str, seat: int) -> list[dict[str, Any]]:
    """``hand_view(hand, seat)`` of every finished (not cancelled) hand of the table."""
    key = (table_id, code, seat)
    with _lock:
        last, views = _past.get(key, (0, []))
    rows = Hand.objects.filter(
        table_id=table_id, number__gt=last, ended_at__isnull=False, cancelled=False
    ).order_by("number")
    added = [(row.number, hand_view(replay(row.record), seat)) for row in rows]
    if added:
        views = [*views, *(view for _n, view in added)]
        last = added[-1][0]
    with _lock:
        _past[key] = (last, views)
        _past.move_to_end(key)
        while len(_past) > _CACHE_SIZE:
            _past.popitem(last=False)
    return views


def forget(table_id: int) -> None:
    with _lock:
        for key in [k for k in _past if k[0] == table_id]:
            del _past[key]


def decide_for(table: Table) -> Action | None:
    """The decision of the computer player to act at ``table`` (None if no computer is to act).

    Randomness is fresh from ``secrets`` in play and repeatable when TABLES_SEED is set.
    """
    if table.state is None:
        return None
    game = Game.from_dict(table.state)
    hand = game.hand
    if hand is None or hand.finished or hand.seat_to_act is None:
        return None
    seat = hand.seat_to_act
    row = Seat.objects.filter(table=table, position=seat, is_computer=True).first()
    if row is None:
        return None
    rng = seeded(table.id, "bot", game.hand_number, len(hand.actions)) or random.Random(
        secrets.randbits(64)
    )
    level = row.level or table.computer_level
    return decide(level, game_view(game, seat), past_views(table.id, table.code, seat), rng)
