"""Template tags of issue 30: the line of a tournament's table page back to its lobby."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from engine.game import BLIND_LEVELS
from tables.tournament.models import Tournament

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_line(context: Any) -> SafeString:
    """At a table of a tournament: the tournament's name, its level, the players left and the
    link to its lobby (as the page is drawn; the lobby itself follows the tournament live).
    Nothing at any other table, for one query."""
    snapshot = context.get("table")
    if snapshot is None:
        return SafeString("")
    tournament = Tournament.objects.filter(tables__id=snapshot.id).first()
    if tournament is None:
        return SafeString("")
    number = tournament.tables.filter(pk=snapshot.id).values_list(
        "tournament_number", flat=True
    ).first()
    entrants = tournament.entrants.count()
    left = (
        1 if tournament.status == Tournament.Status.FINISHED
        else tournament.entrants.filter(place__isnull=True).count()
    )
    index = min(tournament.level, len(BLIND_LEVELS) - 1)
    small, big = BLIND_LEVELS[index]
    return mark_safe(render_to_string("tournament/_table_line.html", {
        "t": tournament, "number": number, "level": index + 1, "small": small, "big": big,
        "left": left, "entrants": entrants,
    }, context.get("request")))
