"""What every page of a table starts from: the phone's seat claims and keys, finding the table
a code names, the pass and play state this phone keeps, and the plain message page.

A helper that cannot give a view what it asked for raises instead of returning a page:
``NotFound`` (no table with that code), ``NotYours`` (hands this phone may not see), each an
``Http404`` / ``PermissionDenied`` carrying the page that says so, or ``NameRefused`` (a join
form's name that cannot be used) carrying the way back, which ``RefusalMiddleware`` sends; so a
view reads ``table = find_table(request, code)`` and goes on.
"""

from __future__ import annotations

from typing import TypeVar

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from tables import claims, lookups
from tables.cache import Snapshot, load_snapshot
from tables.live.perspective import PassState
from tables.models import Table

PASS_KEY = "tables_pass"
_Form = TypeVar("_Form", bound=forms.Form)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def session_hashes(request: HtmxHttpRequest) -> list[str]:
    return claims.session_hashes(request.session)


def client_keys(request: HttpRequest) -> list[str]:
    return lookups.request_keys(request)


def pass_state(request: HtmxHttpRequest, table_id: int) -> PassState:
    return PassState.from_dict(request.session.get(PASS_KEY, {}).get(str(table_id)))


def save_pass_state(request: HtmxHttpRequest, table_id: int, state: PassState) -> None:
    stored = dict(request.session.get(PASS_KEY, {}))
    stored[str(table_id)] = state.to_dict()
    request.session[PASS_KEY] = dict(list(stored.items())[-20:])


def this_phone(
    request: HtmxHttpRequest, table: Table
) -> tuple[Snapshot, list[int], PassState]:
    """The table now, the seats this phone holds at it, and its pass and play state."""
    snapshot = load_snapshot(table.id)
    assert snapshot is not None
    return snapshot, snapshot.positions_of(session_hashes(request)), pass_state(request, table.id)


class NotFound(Http404):
    """No such code: ``response`` is the page saying so (sent by ``RefusalMiddleware``)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__()
        self.response = response


class NotYours(PermissionDenied):
    """Not this phone's to see: ``response`` is the page saying so (``RefusalMiddleware``)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__()
        self.response = response


class NameRefused(Exception):
    """A join form whose name cannot be used: ``response`` takes the phone back to the page it
    came from, told so (``RefusalMiddleware``)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__()
        self.response = response


class RefusalMiddleware(MiddlewareMixin):
    """A page's refusal raised by the shared helpers (``NotFound``, ``NotYours``,
    ``NameRefused``), wherever a view asked them: their own page, as it was drawn when raised."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, NotFound | NotYours | NameRefused):
            return exception.response
        return None


def find_table(request: HtmxHttpRequest, code: str) -> Table:
    """The table for a code (``tables.lookups``: 429 while the client is limited); for none,
    ``NotFound`` with the page saying so (the miss counted against the client)."""
    try:
        return lookups.table(request, code)
    except lookups.UnknownCode:
        raise NotFound(no_table(request)) from None


def no_table(request: HtmxHttpRequest) -> HttpResponse:
    return message_page(
        request, _("No table with that code"),
        _("Check the code with your friends: it has six letters and digits."), 404,
    )


def message_page(request: HttpRequest, title: str, text: str, status: int = 200) -> HttpResponse:
    """The plain page with a title and a line of text (a refusal, a missing code)."""
    return render(
        request, "pages/message.html", {"title": title, "text": text}, status=status
    )


def posted_join(request: HttpRequest, form_class: type[_Form], page: str, code: str) -> _Form:
    """The join form posted, valid; else ``NameRefused``: the phone is told its name cannot be
    used, back on ``page``."""
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please type a name of at most 20 characters."))
        raise NameRefused(redirect(page, code=code))
    return form
