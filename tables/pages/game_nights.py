"""A group's game nights (``/g/<code>/nights/``): a member proposes one, members answer in,
maybe or out, the proposer or anyone in opens its table with one tap, and each night has a
calendar file (``.ics``) with a reminder. The list itself is drawn on the group's page
(``templates/season/_game_nights.html``, from ``tables.read.game_nights``)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tables import claims, lookups
from tables.draw.calendar import night_ics
from tables.models import GameNight, Group
from tables.write import game_nights
from tables.write.path import Refused

_STATUS = {"not_a_member": 403, "not_in": 403, "not_proposer": 403}


def _night(group: Group, night_id: int) -> GameNight:
    night = GameNight.objects.filter(group=group, pk=night_id).select_related("group").first()
    if night is None:
        raise Http404
    return night


def _refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    return render(request, "pages/message.html", {
        "title": _("The game night was not changed"), "text": exc.message,
    }, status=_STATUS.get(exc.code, 400))


def _back(group: Group) -> HttpResponse:
    return redirect(reverse("tables:group", args=[group.code]) + "#nights")


@require_POST
def propose(request: HttpRequest, code: str) -> HttpResponse:
    group = lookups.group(request, code)
    post = request.POST
    try:
        game_nights.propose(
            group, claims.session_hashes(request.session), post.get("day", ""),
            post.get("time", ""), post.get("zone", ""), post.get("note", ""),
        )
    except Refused as exc:
        return _refused(request, exc)
    return _back(group)


@require_POST
def reply(request: HttpRequest, code: str, night_id: int) -> HttpResponse:
    """An answer (in, maybe, out), "open" (the night's table, opened with this tap) or
    "cancel" (the proposer calls it off)."""
    group = lookups.group(request, code)
    night = _night(group, night_id)
    what = request.POST.get("do", "")
    try:
        hashes = claims.session_hashes(request.session)
        if what == "open":
            table = game_nights.open_table(night, request.session)
            return redirect("tables:table", code=table.code)
        if what == "cancel":
            game_nights.cancel(night, hashes)
        else:
            game_nights.answer(night, hashes, what)
    except Refused as exc:
        return _refused(request, exc)
    return _back(group)


@require_safe
def calendar(request: HttpRequest, code: str, night_id: int) -> HttpResponse:
    group = lookups.group(request, code)
    night = _night(group, night_id)
    path = reverse("tables:group", args=[group.code])
    url = settings.PUBLIC_URL + path if settings.PUBLIC_URL else request.build_absolute_uri(path)
    response = HttpResponse(night_ics(night, group.name, url, timezone.now()),
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="game-night-{night.starts_at:%Y-%m-%d}.ics"'
    )
    return response
