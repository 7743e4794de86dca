"""Template tags of tournaments: the line of a tournament's table page back to its lobby, and
the end of play at one of its tables."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.draw.tournament_line import over_here, table_line

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_line(context: Any) -> SafeString:
    """At a table of a tournament: the line back to its lobby (``tables.draw.tournament_line``),
    which then follows the tournament by itself. Nothing at any other table, for one query."""
    snapshot = context.get("table")
    if snapshot is None:
        return SafeString("")
    return table_line(snapshot.id, context.get("request"))


@register.simple_tag(takes_context=True)
def tournament_over(context: Any) -> dict[str, Any] | None:
    """A tournament's table once its play is over (``table/_over.html``): once the tournament
    is over too, its winner by name, whether this phone's player won, its place, and the places
    with this phone's marked (``tables.draw.tournament_line.over_here``); None before."""
    snapshot = context.get("table")
    if snapshot is None:
        return None
    persp = context.get("persp")
    # A page (a request) asks the database again; a frame of the live side reads what its
    # consumer found just before drawing (no query while drawing).
    again = context.get("request") is not None
    return over_here(snapshot, tuple(persp.mine) if persp is not None else (), again)
