"""What every page of a table starts from: the phone's seat claims and keys, finding the table
a code names (or the page saying there is none), the pass and play state this phone keeps, and
the plain message page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from tables import claims, lookups
from tables.cache import Snapshot, load_snapshot
from tables.live.perspective import PassState
from tables.models import Table

PASS_KEY = "tables_pass"


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


def find_table(request: HtmxHttpRequest, code: str) -> Table | HttpResponse:
    """The table for a code (``tables.lookups``: 429 while the client is limited), or the page
    saying there is none (the miss counted against the client)."""
    try:
        return lookups.table(request, code)
    except lookups.UnknownCode:
        return no_table(request)


def no_table(request: HtmxHttpRequest) -> HttpResponse:
    return message_page(
        request, _("No table with that code"),
        _("Check the code with your friends: it has six letters and digits."), 404,
    )


def message_page(request: HttpRequest, title: str, text: str, status: int = 200) -> HttpResponse:
    """The plain page with a title and a line of text (a refusal, a missing code)."""
    return render(
        request, "tables/message.html", {"title": title, "text": text}, status=status
    )
