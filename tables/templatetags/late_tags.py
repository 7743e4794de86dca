"""Template tags for late arrivals (tables.live.late)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from tables import claims
from tables.live import late

register = template.Library()


@register.simple_tag(takes_context=True)
def late_boxes(context: Any) -> SafeString:
    """The late arrival's offer, for the page's first draw."""
    request = context.get("request")
    snapshot = context.get("table")
    persp = context.get("persp")
    if request is None or snapshot is None:
        return SafeString("")
    hashes = claims.session_hashes(request.session)
    seated = bool(persp is not None and persp.mine)
    return mark_safe(render_to_string(
        "table/_late_offer.html", late.offer_context(snapshot.id, hashes, seated), request
    ))


@register.simple_tag(takes_context=True)
def late_requests(context: Any) -> SafeString:
    """The host's pending requests, in the host's sheet (table/host_sheet.html), for the page's
    first draw (an empty box for anyone else: the live side fills it)."""
    request = context.get("request")
    snapshot = context.get("table")
    if request is None or snapshot is None:
        return mark_safe(render_to_string("table/_late_requests.html", {"requests": []}))
    hashes = claims.session_hashes(request.session)
    return mark_safe(render_to_string(
        "table/_late_requests.html", late.requests_context(snapshot.id, hashes), request
    ))
