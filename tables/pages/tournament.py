"""A tournament's pages: creating one (``/new/?mode=tournament``), its page by code
(waiting: the share link, code and QR, who joined, the join form, the host's Start; once
started: the lobby of every table; once over, the recap: ``tables.read.tournament_recap``), the
fragment
the page polls, the host's pause and resume, the results as CSV, and a player's own hands at
every table they sat at (``tables.read.tournament_history``; only theirs, as they saw them).

As at a friends table, a phone proves who it is by a seat claim (``tables.claims``): joining
makes a claim in the session and stores its hash on the entrant, and ``start`` gives each
person's seat that hash, so the phone owns its seat at its table without doing anything.
Every change goes through ``tables.write.tournament_setup`` or ``tables.write.tournament_control``;
refusals become a message a person can read.
"""

from __future__ import annotations

import csv
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from engine.export import csv_row
from tables import claims, codes, lookups
from tables.draw import tournament_line as line
from tables.draw.qr import qr_svg
from tables.models import Table
from tables.models.tournament import Tournament
from tables.pages.common import NotFound, message_page, posted_join
from tables.pages.tournament_forms import CreateTournamentForm, JoinTournamentForm
from tables.read import tournament_history as history
from tables.read import tournament_recap as recap
from tables.read.tournament_lobby import RESULT_COLUMNS, my_entrant, result_rows, summary
from tables.write import tournament_control as control
from tables.write import tournament_setup as setup
from tables.write.path import Refused

POLL_SECONDS = 3


def _find(request: HttpRequest, code: str) -> Tournament:
    """The tournament for a code (``tables.lookups``: 429 while the client is limited); for
    none, ``NotFound`` with the page saying so (the miss counted, as a table's)."""
    try:
        return lookups.tournament(request, code)
    except lookups.UnknownCode:
        raise NotFound(message_page(
            request, _("No tournament with that code"),
            _("Check the code with your friends: it has six letters and digits."), 404,
        )) from None


def _hashes(request: HttpRequest) -> list[str]:
    return claims.session_hashes(request.session)


def _page_url(request: HttpRequest, code: str) -> str:
    path = reverse("tournament:page", args=[code])
    return settings.PUBLIC_URL + path if settings.PUBLIC_URL else request.build_absolute_uri(path)


def _context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    hashes = _hashes(request)
    seen = summary(tournament, hashes)
    url = _page_url(request, tournament.code)
    waiting = tournament.status == Tournament.Status.WAITING
    return {
        "t": tournament, "s": seen, "code": tournament.code,
        "pretty_code": codes.pretty(tournament.code), "join_url": url,
        "qr": mark_safe(qr_svg(url)) if waiting else "",
        "is_host": control.is_host(tournament, hashes),
        "join_form": JoinTournamentForm(), "poll": POLL_SECONDS,
        "people": sum(1 for e in seen.entrants if not e.is_computer),
        "places_open": tournament.entrants_wanted - len(seen.entrants),
        "recap": recap.recap(tournament),
    }


def _my_table(request: HttpRequest, tournament: Tournament) -> str | None:
    """The code of the table this phone's entrant sits at, if any."""
    mine = my_entrant(list(tournament.entrants.select_related("table")), _hashes(request))
    if mine is None or mine.table is None:
        return None
    return mine.table.code


# ---------------------------------------------------------------------------------- pages
@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    """``/new/?mode=tournament``: the host's name and the tournament's settings."""
    if request.method == "POST":
        form = CreateTournamentForm(request.POST)
        if form.is_valid():
            claim = claims.new_claim(request.session)
            try:
                tournament = setup.create(
                    [(form.cleaned_data["name"], claim)], **form.settings()
                )
            except Refused as exc:
                claims.forget(request.session, [claim])
                form.add_error(None, exc.message)
            else:
                return redirect("tournament:page", code=tournament.code)
    else:
        form = CreateTournamentForm()
    return render(request, "tournament/create.html", {"form": form})


@require_safe
def of_table(request: HttpRequest, code: str) -> HttpResponse:
    """The tournament a table belongs to: its game-over screen links here, as it knows the
    table's code and not the tournament's (the frame is drawn without a query)."""
    try:
        table = lookups.table(request, code)
    except lookups.UnknownCode:
        found = None
    else:
        found = (
            Table.objects.filter(code=table.code, tournament__isnull=False)
            .values_list("tournament__code", flat=True).first()
        )
    if found is None:
        return message_page(request, _("No tournament with that code"),
                        _("This table is not part of a tournament."), 404)
    return redirect("tournament:page", code=found)


@require_safe
def table_line(request: HttpRequest, code: str) -> HttpResponse:
    """The line at the top of a tournament's table page, asked for again by the line itself
    (``tables.draw.tournament_line``); nothing (204) for a table that is no tournament's, and for a
    code no table has (the miss counted: ``tables.lookups``)."""
    try:
        table = lookups.table(request, code)
    except lookups.UnknownCode:
        return HttpResponse(status=204)
    html = line.table_line(table.pk, request)
    if not html:
        return HttpResponse(status=204)
    return HttpResponse(html)


@require_safe
def page(request: HttpRequest, code: str) -> HttpResponse:
    found = _find(request, code)
    if code != found.code:
        return redirect("tournament:page", code=found.code)
    return render(request, "tournament/page.html", _context(request, found))


@require_safe
def live(request: HttpRequest, code: str) -> HttpResponse:
    """The part of the page that changes, polled every few seconds. A waiting page that finds
    the tournament started sends its phone to its own table (or shows the lobby)."""
    found = _find(request, code)
    if request.GET.get("from") == Tournament.Status.WAITING and (
        found.status != Tournament.Status.WAITING
    ):
        table = _my_table(request, found)
        if table is not None:
            return HttpResponseClientRedirect(reverse("tables:table", args=[table]))
        return HttpResponseClientRefresh()
    return render(request, "tournament/_live.html", _context(request, found))


@require_safe
def hands(request: HttpRequest, code: str) -> HttpResponse:
    """The hands this phone's player played, at every table they sat at (only theirs: P3)."""
    found = _find(request, code)
    hashes = _hashes(request)
    mine = history.entrant_of(found, hashes)
    if mine is None:
        return message_page(
            request, _("These hands are private"),
            _("Only the players of this tournament can see their hands."), 403,
        )
    return render(request, "tournament/hands.html", {
        "t": found, "code": found.code, "pretty_code": codes.pretty(found.code), "mine": mine,
        "parts": history.player_hands(found, hashes),
    })


@require_safe
def results_csv(request: HttpRequest, code: str) -> HttpResponse:
    found = _find(request, code)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{found.code}.csv"'
    writer = csv.writer(response)
    writer.writerow(RESULT_COLUMNS)
    writer.writerows(csv_row(row) for row in result_rows(found))
    return response


def by_code(request: HttpRequest, found: Tournament, data: dict[str, Any]) -> HttpResponse:
    """The home page's "join with a code" given a tournament's code (no table has it;
    ``tables.lookups.table_or_tournament``): the tournament's page, joined first when a name
    came with a post."""
    if request.method == "POST" and data.get("name"):
        _join_as(request, found, data["name"])
    return redirect("tournament:page", code=found.code)


def _join_as(request: HttpRequest, tournament: Tournament, name: str) -> None:
    hashes = _hashes(request)
    if my_entrant(list(tournament.entrants.all()), hashes) is not None:
        return  # already in
    if history.has_entered(tournament.id, hashes):  # a seat of theirs came to this phone
        messages.error(request, _(
            "You already play in this tournament from another phone: one seat a person."
        ))
        return
    claim = claims.new_claim(request.session)
    try:
        setup.join(tournament.id, name, claim)
    except Refused as exc:
        claims.forget(request.session, [claim])
        messages.error(request, exc.message)


# ---------------------------------------------------------------------------------- posts
@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    found = _find(request, code)
    form = posted_join(request, JoinTournamentForm, "tournament:page", found.code)
    _join_as(request, found, form.cleaned_data["name"])
    return redirect("tournament:page", code=found.code)


@require_POST
def start(request: HttpRequest, code: str) -> HttpResponse:
    found = _find(request, code)
    try:
        if not control.is_host(found, _hashes(request)):
            raise Refused("not_host", _("Only the host can do that."))
        setup.start(found.id)
    except Refused as exc:
        messages.error(request, exc.message)
        return redirect("tournament:page", code=found.code)
    table = _my_table(request, found)
    if table is not None:
        return redirect("tables:table", code=table)
    return redirect("tournament:page", code=found.code)


def _host_post(request: HttpRequest, code: str, action: Any) -> HttpResponse:
    found = _find(request, code)
    try:
        action(found.id, _hashes(request))
    except Refused as exc:
        messages.error(request, exc.message)
    return redirect("tournament:page", code=found.code)


@require_POST
def pause(request: HttpRequest, code: str) -> HttpResponse:
    return _host_post(request, code, control.pause)


@require_POST
def resume(request: HttpRequest, code: str) -> HttpResponse:
    return _host_post(request, code, control.resume)
