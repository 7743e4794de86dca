"""A friend arriving late: the form posts (ask for a computer's seat; the host answers)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tables import claims, lookups
from tables.live.late import fragments
from tables.models import Table
from tables.pages.common import client_keys
from tables.write.late import answer, request_seat
from tables.write.path import Refused


def _table(request: HttpRequest, code: str) -> Table:
    return lookups.table(request, code)  # 429 while limited; 404 (counted) for no table


@require_POST
def ask(request: HttpRequest, code: str) -> HttpResponse:
    table = _table(request, code)
    try:
        request_seat(table.id, request.session, str(request.POST.get("name", "")),
                     client_keys(request))
    except Refused as exc:
        messages.error(request, exc.message)
    return redirect("tables:table", code=table.code)


@require_POST
def reply(request: HttpRequest, code: str, request_id: int) -> HttpResponse:
    table = _table(request, code)
    try:
        answer(table.id, claims.session_hashes(request.session), request_id,
               str(request.POST.get("answer", "")))
    except Refused as exc:
        messages.error(request, exc.message)
    if request.headers.get("HX-Request"):
        return HttpResponse(fragments(
            table.id, claims.session_hashes(request.session), True,
            getattr(request, "LANGUAGE_CODE", "en"),
        ))
    return redirect("tables:table", code=table.code)
