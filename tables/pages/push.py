"""Notifications on a locked phone: the page a table's drawer links (``/t/<code>/notify/``),
turning them on and off (``/push/on/``, ``/push/off/``,
posted by ``static/js/push.js`` after the person's tap and the browser's own permission
prompt), and the service worker (``/sw.js``, served from the site's root so that it may show
notifications for every page of it).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_POST, require_safe

from tables import lookups
from tables.write import push


def keep_claims(request: HttpRequest, also: Iterable[str] = ()) -> bool:
    """A page of a phone with notifications on: its subscriptions speak for its new claims,
    and ``also`` for its claims at the page's table or group. True when this phone turned them
    on (its table pages then say whether they are in sight)."""
    push.keep_claims(request.session, request.session.session_key, also)
    return bool(request.session.get(push.SESSION_FLAG))


@require_safe
def notify_page(request: HttpRequest, code: str) -> HttpResponse:
    """"Tell me when it's my turn" for a table, from its drawer."""
    table = lookups.table(request, code)  # 429 while limited; 404 (counted) for no table
    return render(request, "pages/notify.html", {"code": table.code})


@require_POST
def turn_on(request: HttpRequest) -> HttpResponse:
    post = request.POST
    if not request.session.session_key:
        request.session.save()  # a phone's first page: it needs a session to be known by
    try:
        push.subscribe(
            request.session, request.session.session_key, post.get("endpoint", ""),
            post.get("p256dh", ""), post.get("auth", ""), get_language() or "en",
        )
    except push.NotSubscribed as exc:
        return JsonResponse({"ok": False, "message": exc.message}, status=400)
    return JsonResponse({"ok": True})


@require_POST
def turn_off(request: HttpRequest) -> HttpResponse:
    deleted = push.stop(request.session, request.session.session_key,
                        request.POST.get("endpoint", ""))
    return JsonResponse({"ok": True, "deleted": deleted})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        render_to_string("pages/sw.js"), content_type="text/javascript; charset=utf-8"
    )
    # A browser checks its worker for updates at most daily whatever this says; no-cache makes
    # every check a fresh one.
    response["Cache-Control"] = "no-cache"
    return response
