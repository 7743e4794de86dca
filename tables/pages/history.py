"""Hand histories of a table and their exports (PokerStars text, PHH, results CSV).

Only someone who was seated at the table (their browser session holds a seat claim, or held
one before a computer player took the seat over: ``FormerClaim``) or staff may open them (P3).
A player sees every hand as they saw it at the table: their own hole cards and the hands shown
at the showdown, never a mucked or folded hand, in the page, its source or any export; someone
who left sees the hands up to the one they left in. Staff see the complete record. Only
finished hands are listed or exported: a hand in progress (or one a moderator called off) never
appears, so its hidden cards cannot leak.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from engine.export import (
    HandMeta,
    game_results_csv,
    phh_game,
    phh_hand,
    pokerstars_game,
    pokerstars_hand,
)
from engine.game import Game
from engine.hand import Hand as EngineHand
from engine.history import replay
from engine.views import visible_events
from tables import claims, codes, lookups
from tables.commitments import proof_context
from tables.draw import explain
from tables.draw.describe import describe_events
from tables.draw.hand_names import hand_name
from tables.models import FormerClaim, Hand, Seat, Table
from tables.pages.common import NotYours
from tables.read import tournament_history
from tables.write import late


@dataclass(frozen=True)
class Access:
    """Which table, and through whose eyes: a seat number, or None for staff (everything)."""

    table: Table
    viewer: int | None
    seats: tuple[int, ...]  # the seats this session holds (or held) at the table
    # Seats this session held before they changed hands -> the last hand they were dealt
    # there: later hands at that seat were not theirs to see.
    left: dict[int, int] = field(default_factory=dict)
    # Seats -> the first hand of this session's window there (the seat was taken over from a
    # computer, moved to this phone, handed on at a tournament): the hands before were not
    # theirs to see.
    joined: dict[int, int] = field(default_factory=dict)
    # At a tournament's table a seat is held by one player after another: the
    # numbers of the hands the viewer played there (None: not a tournament's table).
    only: frozenset[int] | None = None

    @property
    def first_hand(self) -> int | None:
        """The first hand the viewer may open (None: from the first)."""
        return self.joined.get(self.viewer) if self.viewer is not None else None

    @property
    def last_hand(self) -> int | None:
        """The last hand the viewer may open (None: every hand)."""
        return self.left.get(self.viewer) if self.viewer is not None else None

    @property
    def query(self) -> str:
        """Keeps the chosen seat on links (a phone may hold several seats: pass and play)."""
        if self.viewer is None or len(self.seats) <= 1:
            return ""
        return f"?seat={self.viewer}"


def _refuse(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "pages/message.html",
        {
            "title": _("These hands are private"),
            "text": _("Only the players who sat at this table can see its hands."),
        },
        status=403,
    )


def access_for(request: HttpRequest, code: str) -> Access:
    """The table and viewer (else ``NotYours``, with the page saying these hands are
    private). Codes are reused once a table is over, so the table is the most recent one with
    this code where this session held a seat."""
    latest = lookups.table(request, code)  # 429 while limited; 404 (counted) for no table
    tables = Table.objects.filter(code=latest.code).order_by("-created_at")
    hashes = claims.session_hashes(request.session)
    if hashes:
        found = _seats_held(tables, hashes)
        if found is not None:
            table, seats, left, joined = found
            viewer = _chosen_seat(request, seats)
            only = None
            if table.tournament_id is not None:
                only = frozenset(tournament_history.own_numbers_for(table, viewer, hashes))
            return Access(table, viewer, seats, left, joined, only)
    if request.user.is_authenticated and request.user.is_staff:
        return Access(latest, None, ())
    raise NotYours(_refuse(request))


def _seats_held(
    tables: QuerySet[Table], hashes: list[str]
) -> tuple[Table, tuple[int, ...], dict[int, int], dict[int, int]] | None:
    """The most recent of ``tables`` where these claims hold or held a seat: the table, its
    seats, for seats since left the last hand played there, and the first hand of each
    seat's window (the window moves with the seat: ``Seat.first_hand``)."""
    held = list(
        Seat.objects.filter(table__in=tables, claim_hash__in=hashes).select_related("table")
    )
    former = list(
        FormerClaim.objects.filter(table__in=tables, claim_hash__in=hashes).select_related("table")
    )
    rows: list[Seat | FormerClaim] = [*held, *former]
    if not rows:
        return None
    table = max((r.table for r in rows), key=lambda t: (t.created_at, t.pk))
    now = {s.position for s in held if s.table_id == table.pk}
    left: dict[int, int] = {}
    first = {s.position: s.first_hand for s in held if s.table_id == table.pk}
    for claim in former:
        if claim.table_id == table.pk and claim.position not in now:
            left[claim.position] = max(claim.last_hand, left.get(claim.position, 0))
            first[claim.position] = min(claim.first_hand, first.get(claim.position, 1 << 31))
    return table, tuple(sorted(now | set(left))), left, {p: f for p, f in first.items() if f}


def _chosen_seat(request: HttpRequest, seats: tuple[int, ...]) -> int:
    wanted = request.GET.get("seat", "")
    return int(wanted) if wanted.isdigit() and int(wanted) in seats else seats[0]


def finished_hands(table: Table) -> QuerySet[Hand]:
    """The hands that ended normally: never the running one, never a cancelled one."""
    return Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False)


def viewable_hands(access: Access) -> QuerySet[Hand]:
    """The finished hands this viewer may open (up to the hand they left in, if they left)."""
    hands = finished_hands(access.table)
    if access.last_hand is not None:
        hands = hands.filter(number__lte=access.last_hand)
    if access.first_hand is not None:
        hands = hands.filter(number__gte=access.first_hand)
    if access.only is not None:
        hands = hands.filter(number__in=access.only)
    return hands


def names_of(row: Hand) -> dict[int, str]:
    return {int(p["seat"]): str(p["name"]) for p in row.players}


def meta_of(row: Hand, table: Table) -> HandMeta:
    return HandMeta(row.pk, table.code, row.started_at, table.seat_count)


def _engine_hand(row: Hand) -> EngineHand:
    hand = replay(row.record)
    if not hand.finished:  # a stored hand marked ended must have ended: never show it otherwise
        raise Http404
    return hand


def _hand_summary(row: Hand, hand: EngineHand, access: Access, url: str) -> dict[str, Any]:
    names = names_of(row)
    winners = sorted({a.seat for a in hand.awards})
    start = dict(zip(hand.seats, hand.settings.stacks, strict=True))
    viewer = access.viewer
    result = None
    cards: list[str] = []
    if viewer is not None and viewer in start:
        result = hand.final_stacks[viewer] - start[viewer]
        cards = [str(c) for c in hand.hole[hand.index_of(viewer)]]  # the viewer's own: P3
    # The winning hand is named only when it was shown: a pot taken without a showdown says
    # nothing of the cards.
    shown = next((a.hand for a in hand.awards if a.hand is not None), None)
    return {
        "number": row.number,
        "small_blind": hand.settings.small_blind,
        "big_blind": hand.settings.big_blind,
        "winners": ", ".join(names.get(s, "?") for s in winners),
        "pot": sum(a.amount for a in hand.awards),
        "result": result,
        "url": url,
        "cards": cards,
        "board": [str(c) for c in hand.board],
        "winning_hand": hand_name(shown.key) if shown is not None else "",
        "saw_flop": viewer is not None and saw_flop(hand, viewer),
    }


def saw_flop(hand: EngineHand, seat: int) -> bool:
    """Whether ``seat`` was dealt in and still held its cards when the flop came."""
    if seat not in hand.seats or len(hand.board) < 3:
        return False
    return not any(
        e.kind == "action" and e.action == "fold" and e.seat == seat and e.street == "preflop"
        for e in hand.events
    )


def _exports(access: Access, number: int | None = None) -> list[dict[str, str]]:
    code, q = access.table.code, access.query
    if number is not None:
        return [
            {"label": _("PokerStars text (for tracking tools)"), "format": "pokerstars",
             "url": reverse("tables:hand_pokerstars", args=[code, number]) + q},
            {"label": _("PHH file (PokerKit)"), "format": "phh",
             "url": reverse("tables:hand_phh", args=[code, number]) + q},
        ]
    return [
        {"label": _("Every hand as PokerStars text"), "format": "pokerstars",
         "url": reverse("tables:game_pokerstars", args=[code]) + q},
        {"label": _("Every hand as PHH"), "format": "phh",
         "url": reverse("tables:game_phh", args=[code]) + q},
        {"label": _("Results as CSV (spreadsheets)"), "format": "csv",
         "url": reverse("tables:results_csv", args=[code]) + q},
    ]


# ---------------------------------------------------------------------------------- pages
@require_safe
def hand_list(request: HttpRequest, code: str) -> HttpResponse:
    access = access_for(request, code)
    table = access.table
    flop_only = request.GET.get("flop") == "1" and access.viewer is not None
    hands = []
    for row in viewable_hands(access).order_by("-number"):
        url = reverse("tables:hand", args=[table.code, row.number]) + access.query
        summary = _hand_summary(row, _engine_hand(row), access, url)
        if not flop_only or summary["saw_flop"]:
            hands.append(summary)
    list_url = reverse("tables:history", args=[table.code])
    joiner = "&" if access.query else "?"
    return render(
        request,
        "history/list.html",
        {
            "code": table.code,
            "pretty_code": codes.pretty(table.code),
            "hands": hands,
            "back_url": reverse("tables:table", args=[table.code]),
            "exports": _exports(access),
            "seats": access.seats,
            "viewer": access.viewer,
            "flop_only": flop_only,
            "all_url": list_url + access.query,
            "flop_url": list_url + access.query + joiner + "flop=1",
        },
    )


@require_safe
def hand_page(request: HttpRequest, code: str, number: int) -> HttpResponse:
    access = access_for(request, code)
    table = access.table
    rows = viewable_hands(access)
    row = rows.filter(number=number).first()
    if row is None:
        raise Http404
    hand = _engine_hand(row)
    names = names_of(row)
    viewer = access.viewer
    # Staff get the complete record (still never the deck or a burnt card).
    events = [e.to_dict() for e in hand.events] if viewer is None else visible_events(hand, viewer)

    def name(seat: int | None) -> str:
        return names.get(seat, "?") if seat is not None else ""

    replay_data = {
        "seats": [
            {"seat": s, "name": names.get(s, "?"), "stack": stack}
            for s, stack in zip(hand.seats, hand.settings.stacks, strict=True)
        ],
        "button": hand.settings.button,
        "small_blind": hand.settings.small_blind,
        "big_blind": hand.settings.big_blind,
        "viewer": viewer,
        "events": events,
        "lines": describe_events(events, name, keep_empty=True),
    }
    # The run-out's odds, and the viewer's own decisions explained (from what
    # they saw: the earlier hands as they saw them feed the computer player's model).
    earlier = rows.filter(number__lt=number).order_by("-number")[: explain.PAST_HANDS]
    replay_data.update(explain.replay_extras(
        hand, viewer, names, [_engine_hand(r) for r in reversed(earlier)] if viewer is not None
        else [],
    ))
    before = rows.filter(number__lt=number).order_by("-number").first()
    after = rows.filter(number__gt=number).order_by("number").first()

    def link(other: Hand | None) -> str | None:
        if other is None:
            return None
        return reverse("tables:hand", args=[table.code, other.number]) + access.query

    return render(
        request,
        "history/hand.html",
        {
            "code": table.code,
            "number": row.number,
            "replay": replay_data,
            "list_url": reverse("tables:history", args=[table.code]) + access.query,
            "prev_url": link(before),
            "next_url": link(after),
            "exports": _exports(access, row.number),
            # A friend who took over a computer's seat just before this hand.
            "took_over": late.took_over_before(table, row.number),
            # P5: what would have come, if someone dealt in asked; a note, never a result.
            "rest_of_board": row.rest_of_board or None,
            **proof_context(row, table.code, access.query),
        },
    )


# ---------------------------------------------------------------------------------- exports
def _download(text: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _one(access: Access, number: int) -> tuple[Hand, EngineHand]:
    row = viewable_hands(access).filter(number=number).first()
    if row is None:
        raise Http404
    return row, _engine_hand(row)


@require_safe
def hand_pokerstars(request: HttpRequest, code: str, number: int) -> HttpResponse:
    return _hand_file(request, code, number, pokerstars_hand, "txt")


@require_safe
def hand_phh(request: HttpRequest, code: str, number: int) -> HttpResponse:
    return _hand_file(request, code, number, phh_hand, "phh")


def _hand_file(
    request: HttpRequest, code: str, number: int, write: Callable[..., str], suffix: str
) -> HttpResponse:
    """One hand as a file the viewer may have, written by ``write`` (an engine.export writer)."""
    access = access_for(request, code)
    row, hand = _one(access, number)
    text = write(hand, names_of(row), meta_of(row, access.table), access.viewer)
    return _download(text, f"holdem-{access.table.code}-hand-{row.number}.{suffix}", "text/plain")


def _all(access: Access) -> list[tuple[Hand, EngineHand]]:
    return [(row, _engine_hand(row)) for row in viewable_hands(access).order_by("number")]


def _exported(access: Access) -> list[tuple[EngineHand, HandMeta, dict[int, str]]]:
    """Every hand this viewer may see, for a whole game's export: each with its names."""
    return [(hand, meta_of(row, access.table), names_of(row)) for row, hand in _all(access)]


@require_safe
def game_pokerstars(request: HttpRequest, code: str) -> HttpResponse:
    access = access_for(request, code)
    text = pokerstars_game(_exported(access), access.viewer)
    return _download(text, f"holdem-{access.table.code}.txt", "text/plain")


@require_safe
def game_phh(request: HttpRequest, code: str) -> HttpResponse:
    access = access_for(request, code)
    text = phh_game(_exported(access), access.viewer)
    return _download(text, f"holdem-{access.table.code}.phhs", "text/plain")


@require_safe
def results_csv(request: HttpRequest, code: str) -> HttpResponse:
    access = access_for(request, code)
    table = access.table
    if table.state is None:
        raise Http404
    game = Game.from_dict(table.state)
    names = {s.position: s.name for s in Seat.objects.filter(table=table)}
    hands = [hand for _row, hand in _all(access)]
    text = game_results_csv(game.standings(), names, hands)
    return _download(text, f"holdem-{access.table.code}-results.csv", "text/csv")
