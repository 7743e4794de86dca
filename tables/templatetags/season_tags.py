"""Template tags of your games and groups: this phone's latest games on the home page, the
name field of the group "play again" starts."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from tables import claims
from tables.models.season import GROUP_NAME_MAX
from tables.read import games
from tables.write import groups

register = template.Library()
HOME_GAMES = 3


@register.simple_tag(takes_context=True)
def your_games(context: Any) -> SafeString:
    """The few latest games this phone sat in, with a link to all of them."""
    request = context.get("request")
    if request is None:
        return SafeString("")
    hashes = claims.session_hashes(request.session)
    # A tournament is one game, as in the whole list (tables.pages.season.games_page).
    shown = games.game_entries(hashes)[:HOME_GAMES] if hashes else []
    lines = games.entry_lines(shown, hashes) if shown else []
    return mark_safe(render_to_string("season/_home_games.html", {"lines": lines}, request))


@register.simple_tag(takes_context=True)
def group_name_field(context: Any) -> SafeString:
    """At game over, above "Play again": the name of the group playing again starts, prefilled
    with the players' names (from the frame's seats: a frame is drawn without the database)."""
    players = [
        (s["seat"], s["name"], not s["computer"]) for s in context.get("seats") or []
        if not s.get("open")
    ]
    return mark_safe(render_to_string("season/_group_name_field.html", {
        "name": groups.players_group_name(players), "most": GROUP_NAME_MAX,
    }))
