"""A friend arriving late, on the phones: the offer to take a computer's seat and the host's
pending requests (``#late-offer``, ``#late-requests``), each phone its own (the requests only
on the host's). The seating itself is ``tables.write.late``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import override

from engine.game import Game
from tables.models import SeatRequest, Table
from tables.models.tournament import Entrant
from tables.write.late import OPEN_MODES


def offer_context(table_id: int, hashes: Iterable[str], seated: bool) -> dict[str, Any]:
    """What the late-arrival box shows this phone (nothing when it holds a seat)."""
    wanted = list(hashes)
    table = Table.objects.filter(pk=table_id).first()
    if seated or table is None or table.status != Table.Status.PLAYING:
        return {"show": False}
    if table.tournament_id is not None and Entrant.objects.filter(
        tournament_id=table.tournament_id, claim_hash__in=[h for h in wanted if h]
    ).exists():
        return {"show": False}  # a player of the tournament (in or out) takes no second seat
    mine = SeatRequest.objects.filter(table=table, claim_hash__in=wanted).order_by("-at").first()
    if mine is not None and mine.status != SeatRequest.Status.SEATED:
        return {"show": True, "request": mine, "code": table.code}
    if table.mode not in OPEN_MODES or table.state is None:
        return {"show": False}
    game = Game.from_dict(table.state)
    free = [
        s for s in table.seats.all()
        if s.is_computer and s.position in game.seats and game.seats[s.position].stack > 0
    ]
    return {"show": bool(free), "request": None, "code": table.code, "free": free}


def requests_context(table_id: int, hashes: Iterable[str]) -> dict[str, Any]:
    """The requests waiting for the host's answer (for the host's phone only)."""
    wanted = set(hashes)
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.host_position is None:
        return {"requests": []}
    host = table.seats.filter(position=table.host_position).first()
    if host is None or host.claim_hash not in wanted:
        return {"requests": []}
    pending = SeatRequest.objects.filter(table=table, status=SeatRequest.Status.PENDING)
    return {"requests": list(pending), "code": table.code}


def fragments(table_id: int, hashes: Iterable[str], seated: bool, language: str) -> str:
    """``#late-offer`` and ``#late-requests`` for one phone (out-of-band swaps)."""
    with override(language):
        return render_to_string(
            "table/_late_offer.html", {**offer_context(table_id, hashes, seated), "oob": True}
        ) + render_to_string(
            "table/_late_requests.html",
            {**requests_context(table_id, hashes), "oob": True},
        )


async def deliver(consumer: Any, seated: bool) -> None:
    assert consumer.table_id is not None
    html = await database_sync_to_async(fragments)(
        consumer.table_id, consumer.hashes, seated, consumer.language
    )
    await consumer.send(text_data=html)
