"""Why a computer player did that: the words for a tap on its last action.

Anyone who may watch the table may ask (the reasons hold only what everyone at the table sees:
``tables.live.reasons`` says what is told and when); only at a learning table, and only for a
computer seat whose last action has a reason.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tables.live import reasons
from tables.pages import common


@require_safe
def why(request: common.HtmxHttpRequest, code: str, seat: int) -> HttpResponse:
    found = common.find_table(request, code)
    snapshot, _mine, _state = common.this_phone(request, found)
    info = snapshot.seats.get(seat)
    told = reasons.words(snapshot, seat) if info is not None and info.is_computer else None
    if told is None:
        return render(request, "table/_why.html", {"title": None, "lines": None}, status=404)
    title, lines = told
    return render(request, "table/_why.html", {"title": title, "lines": lines, "seat": seat})
