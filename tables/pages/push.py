"""Notifications on a locked phone: turning them on and off (``/push/on/``, ``/push/off/``,
posted by ``static/js/push.js`` after the person's tap and the browser's own permission
prompt), and the service worker (``/sw.js``, served from the site's root so that it may show
notifications for every page of it).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_POST, require_safe

from tables.write import push


def keep_claims(request: HttpRequest) -> None:
    """A page of a phone with notifications on: its subscriptions speak for its new claims."""
    push.keep_claims(request.session, request.session.session_key)


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
