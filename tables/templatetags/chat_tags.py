"""Template tags for table talk (tables.write.talk)."""

from __future__ import annotations

from django import template

from tables.write.talk import REACTIONS

register = template.Library()


@register.simple_tag
def chat_reactions() -> list[dict[str, str]]:
    """The quick reactions, each with its emoji and its phrase in the active language."""
    return [
        {"name": name, "emoji": emoji, "label": str(label)}
        for name, (emoji, label) in REACTIONS.items()
    ]
