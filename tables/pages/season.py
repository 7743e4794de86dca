"""The season's pages: your games (``/games/``), taking them to another phone, a group's season
(``/g/<code>/``, its CSV) and a player's line at the table (``/t/<code>/stats/<seat>/``).

Every figure is counted from what the whole table saw (tables.read.statistics): a season's page
shows no hole card but the hands shown at a showdown, so anyone with the group's link may read
it. The hands themselves stay behind tables.pages.history's rule (only who sat there).
"""

from __future__ import annotations

import csv
import io

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from engine.export import csv_row
from engine.stats import Figure, Tally, figures
from tables import claims, lookups
from tables.draw.chip_graph import COLOURS, DASHES, Curve, chip_graph
from tables.draw.qr import qr_svg_once
from tables.models import Group, Seat, StatsAtTable, Table
from tables.pages import push
from tables.pages.common import client_keys
from tables.read import game_nights, games
from tables.read.statistics import counted, tally_of
from tables.write import game_nights as planning
from tables.write import groups, identity
from tables.write.path import Refused

# Plain words first, the trackers' abbreviation after them (how_to_play explains each).
LABELS = {
    "hands": gettext_lazy("Hands"),
    "vpip": gettext_lazy("Put chips in before the flop (VPIP)"),
    "pfr": gettext_lazy("Raised before the flop (PFR)"),
    "three_bet": gettext_lazy("Raised a raise before the flop (three-bet)"),
    "fold_to_three_bet": gettext_lazy("Folded when their raise was raised (fold to three-bet)"),
    "aggression": gettext_lazy("Bets and raises for each call (aggression)"),
    "showdown": gettext_lazy("Went to showdown"),
    "won_showdown": gettext_lazy("Won at showdown"),
    "per_100": gettext_lazy("Chips per 100 hands"),
    "biggest_pot": gettext_lazy("Biggest pot won"),
}

_STATUS = {"rate_limited": 429, "unknown_link": 404, "used_link": 410, "expired_link": 410,
           "not_creator": 403}


def shown_line(t: Tally) -> list[dict[str, object]]:
    """A tally's figures as text, each with its sample ("n")."""
    out = []
    for f in figures(t):
        out.append({"key": f.key, "label": LABELS[f.key], "text": _figure_text(f),
                    "n": f.sample})
    return out


def _figure_text(f: Figure) -> str:
    if f.value is None and f.key == "aggression" and f.sample:
        return str(_("only bets and raises, no call"))  # a factor of calls has no value then
    if f.value is None:
        return "–"
    if f.unit == "percent":
        return f"{f.value:.0f}%"
    if f.unit == "ratio":
        return f"{f.value:.1f}"
    return f"{f.value:+.0f}" if f.key == "per_100" else f"{f.value:.0f}"


def _refusal(request: HttpRequest, exc: Refused, title: str) -> HttpResponse:
    return render(request, "pages/message.html", {"title": title, "text": exc.message},
                  status=_STATUS.get(exc.code, 400))


# ---------------------------------------------------------------------------------- your games
@require_safe
def games_page(request: HttpRequest) -> HttpResponse:
    """Every game this phone played, newest first; a tournament opens to the player's hands
    at each of its tables they sat at."""
    hashes = claims.session_hashes(request.session)
    pages = Paginator(games.game_entries(hashes), games.PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    lines = games.entry_lines(list(page.object_list), hashes)
    response = render(request, "season/games.html", {
        "page": page, "lines": lines, "has_claims": bool(hashes),
    })
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def take_along(request: HttpRequest) -> HttpResponse:
    """The link and QR code that copy this phone's games to another phone."""
    if request.method != "POST":
        return render(request, "season/take_along.html", {
            "has_claims": bool(identity.held(request.session)),
            "playing": identity.playing_seats(request.session),
        })
    try:
        token = identity.make_link(
            request.session, with_seats=request.POST.get("with_seats") == "yes"
        )
    except Refused as exc:
        return _refusal(request, exc, _("Nothing to take along"))
    path = reverse("tables:games_here", args=[token])
    url = settings.PUBLIC_URL + path if settings.PUBLIC_URL else request.build_absolute_uri(path)
    response = render(request, "season/take_link.html", {
        "url": url, "qr": mark_safe(qr_svg_once(url)),
        "minutes": int(identity.VALID_FOR.total_seconds() // 60),
    })
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def games_here(request: HttpRequest, token: str) -> HttpResponse:
    keys = client_keys(request)
    title = _("Your games were not copied")
    try:
        if request.method == "POST":
            identity.use_link(token, request.session, keys)
            return redirect("tables:games")
        identity.check_link(token, keys)
    except Refused as exc:
        return _refusal(request, exc, title)
    response = render(request, "season/take_confirm.html", {})
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def forget_games(request: HttpRequest) -> HttpResponse:
    identity.forget(request.session, request.session.session_key)
    return redirect("tables:games")


# ---------------------------------------------------------------------------------- a group
def _group(request: HttpRequest, code: str) -> Group:
    return lookups.group(request, code)  # 429 while limited; 404 (counted) for no group


def season_graph(lines: list[groups.Line], games_count: int) -> SafeString:
    """Each person's chips won so far, after each game of the season; every line starts at 0
    just before the person's first game."""
    curves = []
    for line in lines:
        known = [(i + 1, v) for i, v in enumerate(line.curve) if v is not None]
        if known:
            curves.append(Curve(line.name, line.colour, line.dash,
                                [(known[0][0] - 1, 0), *known]))
    return chip_graph(
        curves, games_count, title=_("Chips won over the season, after each game"),
        testid="season-graph",
        x_labels=[(i, str(i), "middle") for i in range(1, games_count + 1)],
    )


@require_http_methods(["GET", "HEAD", "POST"])
def group_page(request: HttpRequest, code: str) -> HttpResponse:
    group = _group(request, code)
    hashes = claims.session_hashes(request.session)
    if request.method == "POST":
        post = request.POST
        what = post.get("do", "")
        try:
            if what == "rename":
                groups.rename(group, hashes, post.get("name", ""))
            elif what in ("remove", "restore"):
                table_id = post.get("game", "")
                if not table_id.isdigit():
                    raise Refused("not_in_group", _("That game is not one of this group's."))
                groups.set_removed(group, hashes, int(table_id), what == "remove")
            elif what == "computers":
                groups.set_hide_computers(group, hashes, post.get("hide") == "1")
            elif what == "pass":
                groups.pass_role(group, hashes, post.get("person", ""))
            else:
                raise Refused("bad_request", _("Reload the page and try again."))
        except Refused as exc:
            return _refusal(request, exc, _("The group was not changed"))
        return redirect("tables:group", code=group.code)
    show_all = request.GET.get("computers") == "1"
    with_computers = show_all or not group.hide_computers
    season = groups.season(group, with_computers=with_computers)
    for i, line in enumerate(season.lines):
        line.colour = COLOURS[i % len(COLOURS)]
        line.dash = DASHES[i % len(DASHES)]
        line.stats = shown_line(line.tally)
    counted_games = season.counted
    own = set(hashes)
    rows = []
    for index in range(len(counted_games)):
        rows.append({"number": index + 1, "chips": [
            line.curve[index] if index < len(line.curve) else None for line in season.lines
        ]})
    member = planning.member(group, hashes)
    push.keep_claims(request, [member.claim_hash] if member else [])  # told when a game is on
    coming, past = game_nights.nights(group, hashes)
    return render(request, "season/group.html", {
        "coming": coming, "past_nights": past, "member": member,
        "today": timezone.localdate(),
        "group": group, "season": season, "graph": season_graph(season.lines, len(counted_games)),
        "rows": rows,
        "is_creator": groups.is_creator(group, hashes),
        "members": [
            line for line in season.lines
            if line.claim_hashes and group.creator_hash not in line.claim_hashes
        ],
        "mine": {g.table.pk for g in season.games if any(
            r.claim_hash in own for r in g.people if r.claim_hash)},
        "show_all": show_all, "scheme": group.get_points_display(),
        "chips_scheme": group.place_points() is None,
    })


@require_safe
def group_csv(request: HttpRequest, code: str) -> HttpResponse:
    group = _group(request, code)
    season = groups.season(group, with_computers=True)
    out = io.StringIO()
    writer = csv.writer(out)
    keys = [f.key for f in figures(Tally())]
    writer.writerow(["name", "computer", "games", "wins", "points", "chips_won",
                     *[k for key in keys for k in (key, f"{key}_sample")]])
    for line in season.lines:
        values = []
        for f in figures(line.tally):
            values += ["" if f.value is None else f"{f.value:.2f}", f.sample]
        writer.writerow(csv_row([line.name, "yes" if line.computer else "no", line.games,
                                 line.wins, line.points, line.chips, *values]))
    writer.writerow([])
    writer.writerow(["game", "date", "table", "counted", "name", "place", "chips"])
    for index, game in enumerate(season.games, start=1):
        for r in game.people:
            writer.writerow(csv_row([
                index, game.table.created_at.date().isoformat(), game.table.code,
                "yes" if game.counts else "no", r.name, r.place or "", r.chips,
            ]))
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{group.code}.csv"'
    return response


# ---------------------------------------------------------------------------------- at the table
@require_http_methods(["GET", "HEAD", "POST"])
def seat_line(request: HttpRequest, code: str, position: int) -> HttpResponse:
    """A player's line for this game (from what the table saw); the host may turn it off."""
    table = lookups.table(request, code)  # 429 while limited; 404 (counted) for no table
    hashes = claims.session_hashes(request.session)
    seat = Seat.objects.filter(table=table, position=position).first()
    if seat is None:
        raise Http404
    setting = StatsAtTable.objects.filter(table=table).first()
    host = table.host_position is not None and Seat.objects.filter(
        table=table, position=table.host_position, claim_hash__in=hashes or [""]
    ).exists()
    if request.method == "POST":
        if not host:
            return render(request, "pages/message.html", {
                "title": _("Only the host can change this"), "text": _("Ask the host."),
            }, status=403)
        StatsAtTable.objects.update_or_create(
            table=table, defaults={"off": request.POST.get("off") == "1"}
        )
        return redirect("tables:seat_line", code=table.code, position=position)
    off = bool(setting and setting.off)
    part = request.GET.get("part") == "1"  # the table's dialog (static/js/app.js, the seat tap)
    if off and part:
        return HttpResponse(status=204)
    line = None
    if not off:
        stats = counted([table]) if table.status != Table.Status.WAITING else {}
        line = shown_line(tally_of(stats.get(table.pk), position))
    return render(request, "season/_seat_line_part.html" if part else "season/seat_line.html", {
        "table": table, "seat": seat, "line": line, "off": off, "host": host,
    })
