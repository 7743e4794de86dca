"""The line at the top of a tournament's table page: the tournament's code, this
table's number, the shared level and the players left, with the link to the lobby.

Drawn with the page, then asked for again every ``LINE_POLL_SECONDS`` by the line itself
(``tournament:table_line``, an htmx poll swapping it whole): the level and the players left
change between hands at the other tables too, which this table's frames do not carry. A poll
that fails (the server away) leaves the line as it was; the next one mends it.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from engine.game import BLIND_LEVELS
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
    return mark_safe(render_to_string("tournament/_table_line.html", {
        "t": tournament, "table_code": code, "number": number, "level": index + 1,
        "small": small, "big": big, "left": left, "entrants": entrants,
        "poll": LINE_POLL_SECONDS if tournament.status != Tournament.Status.FINISHED else None,
    }, request))
