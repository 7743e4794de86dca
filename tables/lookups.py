"""Which table, tournament or group a code names: the one way every page, form post and the
table's websocket ask it (tests/tables/pages/test_code_lookups.py walks the URL patterns to
prove it).

A client already limited (``tables.ratelimit``) is refused before anything is looked up
(``TooManyWrongCodes``, answered 429 by ``TooManyWrongCodesMiddleware``), so the answer never
says whether a code exists. A code that names nothing is counted against the client, then
refused (``UnknownCode``, a 404). A code that names something is never counted: a player going
back to their table costs nothing.

It lives beside the limiter rather than in ``tables.cache``: it is not a cached read but the
limiter's gate, and it writes (the misses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

from tables import codes, ratelimit
from tables.models import Group, Table, Tournament

T = TypeVar("T")

Who = HttpRequest | list[str]  # a request, or a websocket's client keys


class TooManyWrongCodes(Exception):
    """The client has had its wrong codes (or links) for this minute."""


class UnknownCode(Http404):
    """No table, tournament or group has this code; the miss has been counted."""


def request_keys(request: HttpRequest) -> list[str]:
    """A page request's client keys: the address the proxy saw and the session."""
    address = ratelimit.request_address(request.META)
    return ratelimit.client_keys(address, request.session.session_key)


def _gate(who: Who) -> list[str]:
    keys = who if isinstance(who, list) else request_keys(who)
    if ratelimit.is_limited(keys):
        raise TooManyWrongCodes
    return keys


def _miss(keys: list[str]) -> UnknownCode:
    ratelimit.record_failure(keys)
    return UnknownCode()


def _table(normal: str | None) -> Table | None:
    return Table.objects.by_code(normal) if normal else None


def _tournament(normal: str | None) -> Tournament | None:
    if not normal:
        return None
    return Tournament.objects.filter(code=normal).order_by("-created_at").first()


def _found(who: Who, look: Callable[[], T | None]) -> T:
    """The gate first (429 while limited), then the lookup; a miss is counted and raised."""
    keys = _gate(who)
    found = look()
    if found is None:
        raise _miss(keys)
    return found


def table(who: Who, code: str) -> Table:
    """The open table with this code, else the most recent one that had it."""
    return _found(who, lambda: _table(codes.normalize(code)))


def tournament(who: Who, code: str) -> Tournament:
    """The most recent tournament with this code."""
    return _found(who, lambda: _tournament(codes.normalize(code)))


def group(who: Who, code: str) -> Group:
    return _found(who, lambda: Group.objects.filter(code=(code or "").lower()).first())


def table_or_tournament(who: Who, code: str) -> Table | Tournament:
    """The home page's "join with a code": a table's code, else a tournament's (one miss if
    neither)."""
    keys = _gate(who)
    normal = codes.normalize(code)
    found = _table(normal) or _tournament(normal)
    if found is None:
        raise _miss(keys)
    return found


def limited_page(request: HttpRequest) -> HttpResponse:
    response = render(request, "pages/message.html", {
        "title": _("Too many wrong codes"), "text": _("Wait a minute, then try again."),
    }, status=429)
    response["Retry-After"] = str(int(ratelimit.WINDOW.total_seconds()))
    return response


class TooManyWrongCodesMiddleware(MiddlewareMixin):
    """A lookup refused for a limited client, wherever a view asked it: the 429 page."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyWrongCodes):
            return limited_page(request)
        return None
