"""Where a tournament moved this phone's player, for a phone that was not there to hear it.

A move between a tournament's tables tells the old table's group (``tournament.moved``,
``tables.write.tournament_between_hands``); a phone whose socket was closed then (asleep, in a
tunnel, a
server restart) hears nothing. When it comes back to the old table's page (a new socket, or
Redis back after an outage) and holds no seat there, this finds where its player sits now, so
that it is told "You moved to table 3, seat 5" and goes on there as a connected phone would.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tables.models import FormerClaim, Seat
from tables.models.tournament import Entrant


def where_now(table_id: int, tournament_id: int, hashes: Iterable[str]) -> dict[str, Any] | None:
    """The ``tournament.moved`` message for this phone, if its player sat at table
    ``table_id`` (and left it by a move: a person who only watches is left to watch) and plays
    on at another table of the tournament; else None."""
    wanted = [h for h in hashes if h]
    if not wanted or Seat.objects.filter(table_id=table_id, claim_hash__in=wanted).exists():
        return None
    if not FormerClaim.objects.filter(table_id=table_id, claim_hash__in=wanted).exists():
        return None
    entrant = (
        Entrant.objects.select_related("table")
        .filter(tournament_id=tournament_id, claim_hash__in=wanted, place=None,
                table__isnull=False, position__isnull=False)
        .exclude(table_id=table_id)
        .first()
    )
    if entrant is None or entrant.table is None or entrant.position is None:
        return None
    return {
        "type": "tournament.moved", "claim": entrant.claim_hash, "code": entrant.table.code,
        "table": entrant.table.tournament_number, "seat": entrant.position + 1,
    }
