from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from tables import hand_names, screens
from tables.fragments import render_component

register = template.Library()

_JSON_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


@register.simple_tag
def table_data(data: Any, oob: bool = False) -> SafeString:
    """The frame's small JSON part for scripts (``#table-data``), safe inside a script tag."""
    payload = json.dumps(data, separators=(",", ":")).translate(_JSON_ESCAPES)
    return format_html(
        '<script id="table-data" type="application/json"{}>{}</script>',
        mark_safe(' hx-swap-oob="true"') if oob else "",
        mark_safe(payload),
    )


@register.simple_tag(takes_context=True)
def play_screen(context: Any) -> SafeString:
    """The table while a game runs (see tables.screens)."""
    return screens.play_screen(context)


@register.simple_tag
def component(name: str, **params: Any) -> SafeString:
    """``{% component "components/card.html" card=c size="lg" %}``: like ``{% include name
    with ... only %}``, with the HTML shared between frames (see tables.fragments)."""
    return render_component(name, params)


@register.simple_tag
def hand_name(key: Any) -> str:
    """A hand's name in the page's language, from the engine's ``HandValue.key``."""
    return hand_names.hand_name(key if isinstance(key, dict) else None)
