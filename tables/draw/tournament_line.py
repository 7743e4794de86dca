"""The line at the top of a tournament's table page: the tournament's code, this
table's number, the shared level and the players left, with the link to the lobby; for a
phone whose player is out, where they finished. And the end of play at a tournament's table
once the tournament is over (``over_here``): the winner by name, "you" marked.

Drawn with the page, then asked for again every ``LINE_POLL_SECONDS`` by the line itself
(``tournament:table_line``, an htmx poll swapping it whole): the level and the players left
change between hands at the other tables too, which this table's frames do not carry. A poll
that fails (the server away) leaves the line as it was; the next one mends it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from engine.blinds import BLIND_LEVELS
from tables import claims
from tables.models.tournament import Tournament

LINE_POLL_SECONDS = 15


def table_line(table_id: int, request: HttpRequest | None) -> SafeString:
    """The line for the table ``table_id`` ("" when it is no tournament's table)."""
    tournament = Tournament.objects.filter(tables__id=table_id).first()
    if tournament is None:
        return SafeString("")
    table = tournament.tables.filter(pk=table_id).values_list(
        "code", "tournament_number"
    ).first()
    assert table is not None
    code, number = table
    entrants = tournament.entrants.count()
    left = (
        1 if tournament.status == Tournament.Status.FINISHED
        else tournament.entrants.filter(place__isnull=True).count()
    )
    index = min(tournament.level, len(BLIND_LEVELS) - 1)
    small, big = BLIND_LEVELS[index]
    hashes = claims.session_hashes(request.session) if request is not None else []
    mine = tournament.entrants.filter(claim_hash__in=hashes).first() if hashes else None
    return mark_safe(render_to_string("tournament/_table_line.html", {
        "t": tournament, "table_code": code, "number": number, "level": index + 1,
        "small": small, "big": big, "left": left, "entrants": entrants,
        # This phone's player out of the tournament (while it goes on): where they finished.
        "out_place": mine.place if mine is not None
        and tournament.status == Tournament.Status.PLAYING else None,
        "poll": LINE_POLL_SECONDS if tournament.status != Tournament.Status.FINISHED else None,
    }, request))


def tournament_over(snapshot: Any, again: bool = False) -> dict[str, Any] | None:
    """Once the tournament of the table ``snapshot`` shows is over: its winner's name and its
    places (each with the table and seat of those still seated at the end), kept in the
    snapshot's memo (a frame is drawn without a query: ``tables.live.consumer`` calls this
    first with ``again``, on the database thread); None before. "Not over yet" is kept too, so
    that drawing never queries, and asked ``again`` by the consumer and the pages (the
    tournament may end later, without a new version of this finished table)."""
    kept: dict[str, Any] | bool | None = snapshot.memo.get(_OVER)
    if isinstance(kept, dict):
        return kept
    if kept is False and not again:
        return None
    tournament = Tournament.objects.filter(
        tables__id=snapshot.id, status=Tournament.Status.FINISHED
    ).first()
    if tournament is None:
        snapshot.memo[_OVER] = False
        return None
    entrants = sorted(
        (e for e in tournament.entrants.all() if e.place is not None), key=lambda e: e.place or 0
    )
    made = {
        "winner": entrants[0].name if entrants else "",
        "places": [
            {"place": e.place, "name": e.name,
             "at": (e.table_id, e.position) if e.table_id is not None else None}
            for e in entrants
        ],
    }
    snapshot.memo[_OVER] = made
    return made


_OVER = "tournament_over"


def over_here(
    snapshot: Any, mine: tuple[int, ...], again: bool = False
) -> dict[str, Any] | None:
    """The tournament's end as the table ``snapshot`` shows it to the phone holding the seats
    ``mine`` there: the winner's name, whether this phone's player won, their place, and the
    places as the table's standings are drawn (``table/_over.html``), "you" marked; None while
    the tournament goes on."""
    over = tournament_over(snapshot, again)
    if over is None:
        return None
    you = next((p for p in over["places"] if mine and p["at"] is not None
                and p["at"][0] == snapshot.id and p["at"][1] in mine), None)
    return {
        "finished": True, "winner": over["winner"],
        "won": you is not None and you["place"] == 1,
        "you_place": you["place"] if you is not None else None, "count": len(over["places"]),
        "places": [
            {"place": p["place"], "name": p["name"], "you": p is you, "chips": None, "seat": ""}
            for p in over["places"]
        ],
    }
