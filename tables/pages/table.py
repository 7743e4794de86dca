"""Pages and form posts: create, join, lobby controls, and playing without JavaScript.

Each view authorises through the session's seat claims, calls one service (the write path) and
redirects (plain forms) or returns the table's fragment (htmx; ``hx-swap="none"`` forms get the
out-of-band swaps). Refusals become a message a person can read; nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from tables import action_log, lookups
from tables.cache import Snapshot, load_snapshot
from tables.live.frames import FrameOptions, Notice, error_notice, frame_context
from tables.live.perspective import hide, perspective, reveal
from tables.live.protocol import BadMessage, whole_number
from tables.models import Table
from tables.pages import push
from tables.pages.common import (
    HtmxHttpRequest,
    find_table,
    no_table,
    pass_state,
    posted_join,
    save_pass_state,
    session_hashes,
    this_phone,
)
from tables.pages.forms import CreateTableForm, JoinCodeForm, JoinForm
from tables.write import lobby, path, play


def _join_url(request: HtmxHttpRequest, code: str) -> str:
    path = reverse("tables:table", args=[code])
    return settings.PUBLIC_URL + path if settings.PUBLIC_URL else request.build_absolute_uri(path)


def _frame_context(
    request: HtmxHttpRequest, snapshot: Snapshot, notice: Notice | None = None
) -> dict[str, Any]:
    mine = snapshot.positions_of(session_hashes(request))
    state = pass_state(request, snapshot.id)
    persp = perspective(snapshot, mine, state)
    if len(mine) > 1:
        save_pass_state(request, snapshot.id, state)
    return frame_context(
        snapshot, persp, FrameOptions(join_url=_join_url(request, snapshot.code), notice=notice)
    )


def _after(
    request: HtmxHttpRequest, table: Table, refusal: path.Refused | None = None
) -> HttpResponse:
    """Answer a form post: the fresh fragment for htmx, a redirect for plain browsers."""
    if request.htmx:
        snapshot = load_snapshot(table.id)
        assert snapshot is not None
        notice = error_notice(refusal.code, refusal.message) if refusal else None
        context = _frame_context(request, snapshot, notice)
        context["oob"] = True
        return render(request, "table/_frame.html", context)
    if refusal is not None:
        messages.error(request, refusal.message)
    return redirect("tables:table", code=table.code)


# ---------------------------------------------------------------------------------- pages
@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    template = select_template(["pages/home.html"])
    hashes = set(session_hashes(request))
    mine = Table.objects.open().filter(seats__claim_hash__in=hashes).distinct() if hashes else []
    context = {
        "join_form": JoinCodeForm(),
        "my_tables": list(mine)[:5],
        "create_url": reverse("tables:create"),
    }
    return HttpResponse(template.render(context, request))


@require_http_methods(["GET", "HEAD", "POST"])
def create(request: HtmxHttpRequest) -> HttpResponse:
    mode = request.POST.get("mode") or request.GET.get("mode") or Table.Mode.FRIENDS
    if mode == "tournament":  # a tournament of several tables
        from tables.pages import tournament as tournament_views

        return tournament_views.create(request)
    if mode not in Table.Mode.values:
        mode = Table.Mode.FRIENDS
    if request.method == "POST":
        form = CreateTableForm(request.POST)
        if form.is_valid():
            try:
                table = lobby.create_table(
                    request.session, form.names(), form.table_settings(), form.cleaned_data["mode"]
                )
            except path.Refused as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("tables:table", code=table.code)
    else:
        initial = {"mode": mode, "seats": "4" if mode == Table.Mode.COMPUTER else "6"}
        form = CreateTableForm(initial=initial)
    return render(request, "pages/create.html", {"form": form, "mode": mode})


@require_http_methods(["GET", "HEAD", "POST"])
def join_by_code(request: HtmxHttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or request.GET or None)
    if form.is_bound and form.is_valid():
        from tables.pages import tournament as tournament_views

        try:
            found = lookups.table_or_tournament(request, form.cleaned_data["code"])
        except lookups.UnknownCode:
            return no_table(request)
        if not isinstance(found, Table):
            return tournament_views.by_code(request, found, form.cleaned_data)
        name = form.cleaned_data.get("name")
        if request.method == "POST" and name and found.status == Table.Status.WAITING:
            try:
                lobby.join_table(found.id, name, request.session)
            except path.Refused as exc:
                messages.error(request, exc.message)
        return redirect("tables:table", code=found.code)
    return render(request, "pages/join.html", {"form": form})


@require_safe
def table_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    if code != found.code:
        return redirect("tables:table", code=found.code)
    snapshot = load_snapshot(found.id)
    assert snapshot is not None
    context = _frame_context(request, snapshot)
    context["join_form"] = JoinForm()
    # The lobby's scripts (its name field, its share button) come only with a page drawn at the
    # lobby: once a game starts, its page never shows that table's lobby again (play again
    # opens the next table's page).
    context["at_lobby"] = snapshot.status == Table.Status.WAITING
    # The version the page shows: the socket skips sending it again (tables.live.consumer).
    context["ws_url"] = f"/ws/t/{found.code}/?v={snapshot.version}"
    # A seat taken since notifications were turned on; the page says when it is in sight.
    held = session_hashes(request)
    context["push_on"] = push.keep_claims(request, [
        snapshot.seats[p].claim_hash for p in snapshot.positions_of(held)
    ])
    return render(request, "table/page.html", context)


@require_safe
def frame(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The table's fragment alone (for a refresh without the websocket)."""
    found = find_table(request, code)
    snapshot = load_snapshot(found.id)
    assert snapshot is not None
    return render(request, "table/_frame.html", _frame_context(request, snapshot))


# ---------------------------------------------------------------------------------- lobby
@require_POST
def join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    form = posted_join(request, JoinForm, "tables:table", found.code)
    try:
        lobby.join_table(
            found.id, form.cleaned_data["name"], request.session,
            another=form.cleaned_data["another"],
        )
    except path.Refused as exc:
        return _after(request, found, exc)
    if request.htmx:
        return HttpResponseClientRefresh()  # the page opens its socket with the new seat
    return redirect("tables:table", code=found.code)


def _host_post(request: HtmxHttpRequest, code: str, action: Any) -> HttpResponse:
    found = find_table(request, code)
    try:
        action(found)
    except path.Refused as exc:
        return _after(request, found, exc)
    return _after(request, found)


@require_POST
def start(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _host_post(request, code, lambda t: lobby.start_game(t.id, session_hashes(request)))


@require_POST
def add_computer(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _host_post(
        request, code, lambda t: lobby.change_seat_count(t.id, session_hashes(request), 1)
    )


@require_POST
def remove_computer(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _host_post(
        request, code, lambda t: lobby.change_seat_count(t.id, session_hashes(request), -1)
    )


@require_POST
def remove_seat(request: HtmxHttpRequest, code: str, position: int) -> HttpResponse:
    return _host_post(
        request, code, lambda t: lobby.remove_person(t.id, session_hashes(request), position)
    )


@require_POST
def leave(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    lobby.leave_table(found.id, session_hashes(request))
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("home")
        return response
    return redirect("home")


@require_POST
def again(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    from tables.write import groups  # the two games are a group's

    try:
        typed = " ".join(request.POST.get("group_name", "").split())
        name = groups.clean_group_name(typed) if typed else ""
        new = lobby.play_again(found.id, session_hashes(request))
    except path.Refused as exc:
        return _after(request, found, exc)
    groups.continue_group(found, new, session_hashes(request), request.POST.get("points"), name)
    url = reverse("tables:table", args=[new.code])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


# ---------------------------------------------------------------------------------- playing
@require_POST
def act(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """An action from a plain form (the websocket carries the same fields)."""
    found = find_table(request, code)
    post = request.POST
    try:
        amount = whole_number(
            post.get("amount"), "bad_amount", _("The amount must be a whole number of chips.")
        )
        version = whole_number(
            post.get("version"), "bad_version", _("Reload the page and try again.")
        )
        seat = whole_number(post.get("seat"), "bad_seat", _("A seat is a number from 0 to 5."))
    except BadMessage as exc:
        action_log.refused(found.code, None, exc.code)
        return _after(request, found, path.Refused(exc.code, exc.message))
    action_id = post.get("action_id") or play.random_action_id()
    state = pass_state(request, found.id)
    try:
        play.act(
            found.id, session_hashes(request), kind=post.get("kind", ""), amount=amount,
            version=version if version is not None else -1, action_id=action_id[:64],
            seat=seat, revealed=state.revealed,
        )
    except path.Refused as exc:
        action_log.refused(found.code, version, exc.code)
        return _after(request, found, exc)
    except Exception as exc:
        action_log.failed(found.code, version, exc)
        raise
    return _after(request, found)


@require_POST
def reveal_seat(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """Pass and play without JavaScript: the person at ``seat`` confirms they hold the phone."""
    found = find_table(request, code)
    snapshot, mine, state = this_phone(request, found)
    try:
        seat = whole_number(request.POST.get("seat"), "bad_seat", "")
    except BadMessage:
        seat = None
    if not reveal(snapshot, mine, state, seat):
        refusal = path.Refused("not_your_seat", _("That seat is not yours to show."))
        return _after(request, found, refusal)
    save_pass_state(request, found.id, state)
    if seat is not None and snapshot.seats[seat].away:
        play.come_back(found.id, [seat])
    return _after(request, found)


@require_POST
def hide_cards(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    state = pass_state(request, found.id)
    hide(state)
    save_pass_state(request, found.id, state)
    return _after(request, found)


@require_POST
def back(request: HtmxHttpRequest, code: str) -> HttpResponse:
    found = find_table(request, code)
    _, mine, state = this_phone(request, found)
    seats = mine if len(mine) == 1 else [p for p in [state.revealed] if p is not None]
    play.come_back(found.id, seats)
    return _after(request, found)
