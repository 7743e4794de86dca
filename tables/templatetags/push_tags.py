"""Template tags for notifications on a locked phone (tables.write.push)."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def push_key() -> str:
    """The server's VAPID public key, which a browser subscribes with ("": notifications off)."""
    return str(settings.VAPID_PUBLIC_KEY)
