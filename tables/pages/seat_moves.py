"""Pages for moving a seat to another phone (the rules live in tables.write.seat_moves).

``/t/<code>/move/``: the seats this phone may move (its own; the host: anyone's), and after
choosing one, the single-use link and its QR code. ``/move/<token>/``: on the other phone, what
the link would move and a button to confirm (a link preview or a scanner opening the page
changes nothing); confirming moves the seat and opens the table.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tables import claims
from tables.draw.qr import qr_svg_once
from tables.pages.common import HtmxHttpRequest, client_keys, find_table, message_page
from tables.write import seat_moves
from tables.write.path import Refused

# How each refusal is answered (the page says why in words).
_STATUS = {
    "rate_limited": 429, "unknown_link": 404, "used_link": 410, "expired_link": 410,
    "seat_changed": 409, "same_phone": 409, "not_open": 409, "not_your_seat": 403,
    "phone_present": 409,
}


def _refusal(request: HttpRequest, exc: Refused) -> HttpResponse:
    return render(
        request, "pages/message.html",
        {"title": _("The seat was not moved"), "text": exc.message},
        status=_STATUS.get(exc.code, 400),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def move_menu(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    hashes = claims.session_hashes(request.session)
    seats = seat_moves.movable_seats(found, hashes)
    if not seats:
        return message_page(
            request, _("The seat was not moved"),
            _("Only a player at a table that is still open can move a seat."), 403,
        )
    if request.method == "POST":
        wanted = request.POST.get("seat", "")
        try:
            if not wanted.isdigit():
                raise Refused("not_your_seat", _("Choose a seat to move."))
            link = seat_moves.make_link(found, hashes, int(wanted))
        except Refused as exc:
            return _refusal(request, exc)
        path = reverse("tables:move_here", args=[link.token])
        url = settings.PUBLIC_URL + path if settings.PUBLIC_URL else (
            request.build_absolute_uri(path)
        )
        response = render(request, "table/moves/link.html", {
            "code": found.code, "link": link, "url": url, "qr": mark_safe(qr_svg_once(url)),
            "minutes": int(seat_moves.VALID_FOR.total_seconds() // 60),
        })
        response["Cache-Control"] = "no-store"
        return response
    own, now = set(hashes), timezone.now()
    return render(request, "table/moves/menu.html", {
        "code": found.code,
        "seats": [
            {"seat": s, "mine": s.claim_hash in own, "gone": seat_moves.phone_is_gone(s, now)}
            for s in seats
        ],
    })


@require_http_methods(["GET", "HEAD", "POST"])
def move_here(request: HtmxHttpRequest, token: str) -> HttpResponse:
    keys = client_keys(request)
    if request.method == "POST":
        try:
            table = seat_moves.use_link(token, request.session, keys)
        except Refused as exc:
            return _refusal(request, exc)
        return redirect("tables:table", code=table.code)
    try:
        move = seat_moves.check_link(token, keys)
    except Refused as exc:
        return _refusal(request, exc)
    response = render(request, "table/moves/confirm.html", {
        "name": seat_moves.seat_name(move), "code": move.table.code,
    })
    response["Cache-Control"] = "no-store"
    return response
