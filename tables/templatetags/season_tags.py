"""Template tags of your games: this phone's latest games on the home page."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from tables import claims
from tables.read import games

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
