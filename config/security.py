"""Response headers that limit what a page may load and use: CSP and Permissions-Policy; and
what may keep a page: ``Cache-Control: private, no-store`` on pages that carry hole cards.

The Content Security Policy lives in settings (CONTENT_SECURITY_POLICY, django-csp); this
module adds the one source a fixed setting cannot name, the websocket of the host the page came
from, and sends the Permissions-Policy header.
"""

from __future__ import annotations

from collections.abc import Callable

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with connect-src naming this host's websocket.

    A page at https://poker.example.org may open wss://poker.example.org/ws/... and nothing
    else ('self' covers ws: and wss: in current browsers only; older Safari needs the name).
    """

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts  # a refused host gets the fixed policy, no websocket
        websocket = ("wss://" if request.is_secure() else "ws://") + host
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", ()), websocket]  # added to 'self'
        parts.update = update
        return parts


class PermissionsPolicyMiddleware:
    """Sends settings.PERMISSIONS_POLICY (already joined into one header value)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.value = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.value)
        return response


class PrivatePagesMiddleware:
    """``Cache-Control: private, no-store`` on every response of the URL namespaces in
    ``PRIVATE_NAMESPACES``: the table's page and its fragments, hand histories and their
    exports, replays, tournaments and the admin can all carry someone's hole cards (or a
    staff member's view of every card), which no shared cache may keep and no browser may
    write to disk or show again from its back button. One rule for the whole namespace, so a
    new page there is private without anyone remembering to say so; a view's own
    Cache-Control is kept and made private and no-store too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and PRIVATE_NAMESPACES & set(match.namespaces):
            patch_cache_control(response, private=True, no_store=True)
        return response


PRIVATE_NAMESPACES = frozenset({"tables", "tournament", "admin"})
