"""What each computer player remembers of a game: the views of its finished hands.

Keyed by table id, code (SQLite may give a deleted table's id to a new one) and seat; each
entry holds the number of the last hand loaded and ``hand_view(hand, seat)`` of every finished
(not cancelled) hand, oldest first. A finished hand never changes, so an entry is only ever
grown by the hands finished since; a restart only costs a replay. 512 entries, oldest first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from engine.history import replay
from engine.views import hand_view
from tables.models import Hand

PAST_KEPT = 512
_past: OrderedDict[tuple[int, str, int], tuple[int, list[dict[str, Any]]]] = OrderedDict()
_lock = threading.Lock()


def past_views(
    table_id: int, code: str, seat: int, *, before: int | None = None
) -> list[dict[str, Any]]:
    """``hand_view(hand, seat)`` of every finished (not cancelled) hand of the table. ``before``:
    the hand running now, when the caller knows it (every hand before it is over): no query when
    the hand before it is held already."""
    key = (table_id, code, seat)
    with _lock:
        last, views = _past.get(key, (0, []))
        if before is not None and last >= before - 1:  # nothing finished since
            if key in _past:
                _past.move_to_end(key)
            return views
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
        while len(_past) > PAST_KEPT:
            _past.popitem(last=False)
    return views
