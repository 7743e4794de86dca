"""Template tags of the table screens: ``{% component %}`` (a kept drawing, see
``tables.cache``), ``{% play_frame %}`` and hand names in the page's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from tables.cache import render_component
from tables.draw import hand_names
from tables.live import screens, shared

register = template.Library()


@register.simple_tag
def table_data(data: Any, oob: bool = False) -> SafeString:
    """The frame's small JSON part for scripts (``#table-data``), safe inside a script tag."""
    return shared.table_data(data, oob)


@register.simple_tag(takes_context=True)
def play_frame(context: Any) -> SafeString:
    """The whole frame on the play and watch screens (see tables.live.screens)."""
    return screens.play_frame(context)


@register.simple_tag
def component(name: str, **params: Any) -> SafeString:
    """``{% component "components/card.html" card=c size="lg" %}``: like ``{% include name
    with ... only %}``, with the HTML shared between frames (see tables.cache.fragments)."""
    return render_component(name, params)


@register.simple_tag
def hand_name(key: Any) -> str:
    """A hand's name in the page's language, from the engine's ``HandValue.key``."""
    return hand_names.hand_name(key if isinstance(key, dict) else None)
