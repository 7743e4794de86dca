"""Template tags of tournaments: the line of a tournament's table page back to its lobby."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.draw.tournament_line import table_line

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_line(context: Any) -> SafeString:
    """At a table of a tournament: the line back to its lobby (``tables.draw.tournament_line``),
    which then follows the tournament by itself. Nothing at any other table, for one query."""
    snapshot = context.get("table")
    if snapshot is None:
        return SafeString("")
    return table_line(snapshot.id, context.get("request"))
