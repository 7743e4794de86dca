"""What one connection is shown: the HTML (htmx out-of-band swaps) that draws a table at one
version through one perspective (``tables.live.perspective``).

Each frame is built from ``engine.views.game_view(game, viewer)`` for at most one seat, so it
can only hold that seat's hole cards; the deck and burnt cards never reach a view.

Drawing is the hot path (every connection, every change), so what is the same for everyone is worked
out once: the version is held once per process (``tables.cache``), what every connection is shown
alike (the public view, the log, the bars, the table's data) once per version and language
(``Snapshot.memo``, ``tables.live.shared``), and the components (seats, board, cards, the bar above
the table) are rendered once per distinct content (kept drawings, keyed by every value drawn, so a
kept part never shows a frame anything it did not hold). See benchmarks/bench_frames.py.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from engine.rest_of_board import rest_of_hand
from tables.cache import ROW_FIELDS, SeatInfo, Snapshot
from tables.draw.qr import qr_svg
from tables.live import reasons, screens, shared
from tables.live.kept import KeptParts
from tables.live.langs import speaking
from tables.live.perspective import Perspective
from tables.models import Table

# The table row's time bank (P4) and "what would have come" (P5) columns, read from a snapshot.
_TIME_BANK_AT = ROW_FIELDS.index("time_bank")
_REST_ALLOWED_AT = ROW_FIELDS.index("rest_of_board")
_REST_HAND_AT = ROW_FIELDS.index("rest_of_board_hand")


@dataclass
class Notice:
    code: str
    message: str
    kind: str = "error"  # "error" (refused) or "info"
    url: str = ""  # a page the phone goes on to by itself (a tournament's move)


@dataclass
class FrameOptions:
    join_url: str = ""
    language: str | None = None  # None: the active language
    notice: Notice | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def screen(snapshot: Snapshot, persp: Perspective) -> str:
    if snapshot.status == Table.Status.CLOSED:
        return "closed"
    if snapshot.status == Table.Status.WAITING:
        return "lobby"
    if snapshot.status == Table.Status.FINISHED:
        return "over"
    if persp.handoff is not None:
        return "handoff"
    return "play" if persp.mine else "watch"


def frame_context(snapshot: Snapshot, persp: Perspective, options: FrameOptions) -> dict[str, Any]:
    """Everything the templates draw, for this connection only. Hole cards appear only for
    ``persp.viewer`` (and for hands shown at showdown). Put together from a few parts: what every
    connection at this version on this screen and in this language is shown alike
    (``tables.live.shared.shared_context``: the bar above the table, the middle of it, the log;
    worked out once per version), the clock (``_seconds_left``), the seats in this connection's
    order (``_seats_for``), who holds the phone (``_names``), the standings, the host's rights
    (``_host_rights``) and the frame's data for scripts (``_data``)."""
    mode = screen(snapshot, persp)
    view = shared.view_of(snapshot, persp.viewer)
    hand = view["hand"] if view else None
    legal = hand["legal"] if hand and mode == "play" else None
    players = {p["seat"]: p for p in hand["players"]} if hand else {}
    remaining = _seconds_left(snapshot)
    seats = _seats_for(snapshot, persp, players, remaining)
    language = options.language or get_language()
    you = you_seat = None
    for row in seats:
        if you is None and row["seat"] == persp.viewer:
            you = row
        if you_seat is None and row["you"]:
            you_seat = row  # drawn at the bottom
    context = {
        **shared.shared_context(snapshot, mode, language),
        "persp": persp,
        "seats": seats,
        "you": you,
        "you_seat": you_seat,
        "best": {
            "key": hand.get("your_best"), "name": hand.get("your_best_name"),
        } if hand else None,
        **_names(snapshot, persp),
        "view": view,
        "hand": hand,
        "legal": legal,
        # Unguessable (a known id could swallow an action); only the action bar sends one.
        "action_id": secrets.token_hex(16) if legal else "",
        "standings": _standings(snapshot, view, persp),
        **_host_rights(snapshot, persp),
        "join_url": options.join_url,
        # The join link as a QR code for friends sitting nearby (lobby only; one per link).
        "qr": mark_safe(qr_svg(options.join_url)) if mode == "lobby" and options.join_url else "",
        "notice": options.notice,
        "rest_of_board": _rest_of_board(snapshot, persp),
        "data": _data(snapshot, persp, mode, view, players, legal, remaining, language),
        "now_ms": int(time.time() * 1000),
    }
    if options.extra:
        context.update(options.extra)
    return context


def _seconds_left(snapshot: Snapshot) -> float | None:
    """The seconds left on the turn's clock, to a tenth (None: no turn is timed)."""
    if snapshot.next_deadline is None or snapshot.deadline_kind != Table.Deadline.TURN:
        return None
    if snapshot.paused and snapshot.paused_left is not None:
        remaining = snapshot.paused_left  # the clock stands still until it is resumed
    else:
        remaining = max(0.0, (snapshot.next_deadline - timezone.now()).total_seconds())
    # Tenths are all a phone shows; frames drawn within the same tenth share their HTML.
    return round(remaining, 1)


def _seats_for(
    snapshot: Snapshot, persp: Perspective, players: dict[int, dict[str, Any]],
    remaining: float | None,
) -> list[dict[str, Any]]:
    """The seats as everyone sees them, once per version (and tenth of a second on the clock);
    this connection's own seats are copied and marked, its own cards put in. Drawn from this
    connection's seat: it first, then the others to its left. ``players``: the hand's, by
    seat."""
    seats = []
    own = players.get(persp.viewer) if persp.viewer is not None else None
    for row in _public_seats(snapshot, remaining):
        position = row["seat"]
        you = position == persp.viewer or (persp.viewer is None and position == persp.home)
        mine = position in persp.mine
        if you or mine:
            row = {**row, "you": you, "mine": mine}
            if own is not None and position == persp.viewer:
                row["cards"] = own["cards"]
        seats.append(row)
    home = persp.viewer if persp.viewer is not None else persp.home
    if home is not None and any(s["seat"] == home for s in seats):
        at = next(i for i, s in enumerate(seats) if s["seat"] == home)
        seats = seats[at:] + seats[:at]
    return seats


def _names(snapshot: Snapshot, persp: Perspective) -> dict[str, Any]:
    """Who holds this phone: its seats' names, who it is handed to, whose place is drawn."""
    return {
        "mine_names": [snapshot.name(p) for p in persp.mine],
        "handoff_name": snapshot.name(persp.handoff) if persp.handoff is not None else "",
        "home_name": snapshot.name(persp.home) if persp.home is not None else "",
    }


def _host_rights(snapshot: Snapshot, persp: Perspective) -> dict[str, Any]:
    """Whether this phone is the host's, what it may change in the lobby, and the people
    seated (the host's list)."""
    is_host = snapshot.host_position is not None and snapshot.host_position in persp.mine
    return {
        "is_host": is_host,
        "can_add_computer": is_host and snapshot.seat_count < 6,
        "can_remove_computer": is_host and snapshot.seat_count > max(2, len(snapshot.seats)),
        "persons": shared.persons(snapshot),
    }


def _standings(
    snapshot: Snapshot, view: dict[str, Any] | None, persp: Perspective
) -> list[dict[str, Any]] | None:
    """The game's standings with names, this connection's seats marked (None: none yet)."""
    if not (view and view["standings"]):
        return None
    return [
        {**s, "name": snapshot.name(s["seat"]), "you": s["seat"] in persp.mine}
        for s in view["standings"]
    ]


def _data(
    snapshot: Snapshot, persp: Perspective, mode: str, view: dict[str, Any] | None,
    players: dict[int, dict[str, Any]], legal: dict[str, Any] | None, remaining: float | None,
    language: str,
) -> dict[str, Any]:
    """The frame's data for the phone's scripts (``#table-data``): the table's values written
    once per version, tenth of a second and language (``tables.live.shared.table_values``),
    this connection's own put in their places."""
    data = dict(shared.table_values(snapshot, view, remaining, language))
    data["screen"] = mode
    data["you"] = persp.viewer
    data["mine"] = list(persp.mine)
    data["handoff"] = persp.handoff
    data["legal"] = legal
    data["your_bet"] = players[persp.viewer]["bet"] if persp.viewer in players else 0
    return data


def _public_seats(snapshot: Snapshot, remaining: float | None) -> list[dict[str, Any]]:
    """Every seat as a spectator sees it at this version (nobody's own seat, no hidden cards),
    in seat order; shared by the frames of every connection: read-only."""
    key = ("seats", remaining)
    rows: list[dict[str, Any]] | None = snapshot.memo.get(key)
    if rows is not None:
        return rows
    # Worked out once per version; the clock (new at almost every frame) is put in after.
    base: list[dict[str, Any]] | None = snapshot.memo.get("seats")
    if base is None:
        base = snapshot.memo["seats"] = _seats_at_version(snapshot)
    if remaining is None:
        rows = base
    else:
        total = snapshot.turn_seconds
        rows = [
            {**row, "remaining": remaining, "total": total} if row["turn"] else row
            for row in base
        ]
    snapshot.memo[key] = rows
    return rows


def _seats_at_version(snapshot: Snapshot) -> list[dict[str, Any]]:
    """``_public_seats`` without the clock."""
    game = snapshot.game
    view = shared.view_of(snapshot, None)
    hand = view["hand"] if view else None
    players = {p["seat"]: p for p in hand["players"]} if hand else {}
    stacks = {s["seat"]: s for s in view["seats"]} if view else {}
    winners: dict[int, dict[str, Any]] = {}
    for award in hand["awards"] if hand else []:
        prize = winners.setdefault(
            award["seat"], {"amount": 0, "hand": "", "hand_key": None, "cards": []}
        )
        prize["amount"] += award["amount"]
        if award["hand"]:
            prize["hand"], prize["cards"] = award["hand"], award["cards"]
            prize["hand_key"] = award.get("hand_key")
    to_act = hand["to_act"] if hand and not hand["finished"] else None
    why = reasons.badges(snapshot)  # a learning table's computer players
    rows = []
    positions = range(snapshot.seat_count) if game is None else sorted(stacks)
    for position in positions:
        info = snapshot.seats.get(position)
        player = players.get(position)
        won: dict[str, Any] | None = winners.get(position)
        stack = player["stack"] if player else stacks.get(position, {}).get("stack")
        rows.append({
            "seat": position,
            "name": info.name if info else "",
            "open": info is None,
            "computer": info.is_computer if info else True,
            "level": info.level if info else snapshot.computer_level,
            "away": info.away if info else False,
            "host": position == snapshot.host_position,
            "you": False,
            "mine": False,
            "stack": stack if stack is not None else "",
            "bet": player["bet"] if player else 0,
            "in_pot": player["in_pot"] if player else 0,
            "cards": player["cards"] if player else None,
            "in_hand": player is not None,
            "folded": player["folded"] if player else False,
            "all_in": player["all_in"] if player else False,
            "out": stacks.get(position, {}).get("out", False),
            "button": hand is not None and hand["button"] == position,
            "small_blind": hand is not None and hand["small_blind_seat"] == position,
            "big_blind": hand is not None and hand["big_blind_seat"] == position,
            "turn": position == to_act,
            "remaining": None,
            "total": None,
            "paused": snapshot.paused,
            "won": won["amount"] if won else 0,
            "hand_name": won["hand"] if won else "",
            "hand_key": won["hand_key"] if won else None,
            "winning_cards": won["cards"] if won else [],
            "why": why.get(position, ""),
            "bank": _bank_left(snapshot, info),
        })
    return rows


def _bank_left(snapshot: Snapshot, info: SeatInfo | None) -> int | None:
    """The seconds of time bank (P4) a person's seat has left (None: a computer player's seat,
    or a table without a bank)."""
    start = snapshot.row[_TIME_BANK_AT] if snapshot.row is not None else 0
    if info is None or info.is_computer or not start:
        return None
    return max(0, start - info.bank_used)


def _rest_of_board(snapshot: Snapshot, persp: Perspective) -> dict[str, Any] | None:
    """What would have come (P5) after the last hand: its cards once someone dealt in asked
    (shown to everyone until the next deal), else whether this connection may ask; None when
    there is nothing to show or ask."""
    game, row = snapshot.game, snapshot.row
    hand = game.hand if game is not None else None
    if hand is None or row is None or not row[_REST_ALLOWED_AT]:
        return None
    rest = snapshot.memo.get("rest_of_board")
    if rest is None:
        rest = snapshot.memo["rest_of_board"] = [str(c) for c in rest_of_hand(hand)]
    if not rest:
        return None
    if row[_REST_HAND_AT] == game.hand_number:  # type: ignore[union-attr]
        return {"cards": rest, "can_ask": False}
    dealt = any(p in hand.settings.seats for p in persp.mine)
    return {"cards": [], "can_ask": dealt} if dealt else None


def render_frame(
    snapshot: Snapshot, persp: Perspective, options: FrameOptions, kept: KeptParts | None = None,
) -> str:
    """The websocket message: HTML elements swapped in by id (hx-swap-oob). ``kept``: what the
    socket's page holds of the frames before (``tables.live.kept``), when it keeps parts."""
    if options.language is None:
        options = replace(options, language=get_language())
    assert options.language is not None
    with speaking(options.language):
        context = frame_context(snapshot, persp, options)
        context["oob"] = True  # every element of a message replaces the one with its id
        if context["screen"] in ("play", "watch"):
            if kept is not None:
                return kept.encode(screens.play_frame_parts(context))
            return screens.play_frame(context)  # what the template would call, without it
        return render_to_string("table/_frame.html", context)


def render_notice(notice: Notice, language: str = "en", version: int | None = None) -> str:
    with override(language):
        return render_to_string(
            "table/_notice.html", {"notice": notice, "version": version, "oob": True}
        )


def error_notice(code: str, message: str) -> Notice:
    return Notice(code, message, "error")


def info_notice(code: str, message: str) -> Notice:
    return Notice(code, message, "info")
