"""What one connection is shown: the HTML (htmx out-of-band swaps) that draws a table at one
version through one perspective (``tables.live.perspective``).

Each frame is built from ``engine.views.game_view(game, viewer)`` for at most one seat, so it
can only hold that seat's hole cards; the deck and burnt cards never reach a view.

Drawing is the hot path (every connection, every change), so what is the same for everyone is
worked out once: the version is held once per process (``tables.cache``), the log once per
version and language (``Snapshot.memo``), and the components (seats, board, cards, the bar
above the table) are rendered once per distinct content (kept drawings, keyed by every value
drawn, so a kept part never shows a frame anything it did not hold). See
benchmarks/bench_frames.py.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, override

from engine.rest_of_board import rest_of_hand
from engine.runout import runout_dict
from engine.views import game_view, view_for, visible_events
from tables import cache, codes, commitments
from tables.cache import ROW_FIELDS, SeatInfo, Snapshot
from tables.draw.describe import Log
from tables.draw.qr import qr_svg
from tables.live import reasons, screens
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
    ``persp.viewer`` (and for hands shown at showdown). Put together from a few parts: the
    clock (``_seconds_left``), the seats in this connection's order (``_seats_for``), the bar
    above the table (``_top``) and the middle of it (``_center``), who holds the phone
    (``_names``), the standings, the host's rights (``_host_rights``) and the frame's data for
    scripts (``_data``)."""
    mode = screen(snapshot, persp)
    view = _view(snapshot, persp.viewer)
    hand = view["hand"] if view else None
    legal = hand["legal"] if hand and mode == "play" else None
    players = {p["seat"]: p for p in hand["players"]} if hand else {}
    remaining = _seconds_left(snapshot)
    seats = _seats_for(snapshot, persp, players, remaining)
    language = options.language or get_language()
    log_lines = _log_lines(snapshot, language)
    return {
        "table": snapshot,
        "code": snapshot.code,
        "pretty_code": codes.pretty(snapshot.code),
        "version": snapshot.version,
        "screen": mode,
        "persp": persp,
        "seats": seats,
        "you": next((s for s in seats if s["seat"] == persp.viewer), None),
        "you_seat": next((s for s in seats if s["you"]), None),  # drawn at the bottom
        "best": {
            "key": hand.get("your_best"), "name": hand.get("your_best_name"),
        } if hand else None,
        # The parts drawn alike for everyone at the table (cached as such:
        # tables.cache.fragments).
        "top": _top(snapshot, view, mode),
        "center": _center(hand, log_lines),
        **_names(snapshot, persp),
        "view": view,
        "hand": hand,
        "legal": legal,
        # Unguessable (a known id could swallow an action); only the action bar sends one.
        "action_id": secrets.token_hex(16) if legal else "",
        "log": log_lines,
        "log_tail": log_lines[-12:],
        "last_line": log_lines[-1] if log_lines else "",
        "standings": _standings(snapshot, view, persp),
        "hands_played": _hands_played(view),
        "ended_early": _ended_early(snapshot, view, mode),
        **_host_rights(snapshot, persp),
        "join_url": options.join_url,
        # The join link as a QR code for friends sitting nearby (lobby only; one per link).
        "qr": mark_safe(qr_svg(options.join_url)) if mode == "lobby" and options.join_url else "",
        "notice": options.notice,
        "rest_of_board": _rest_of_board(snapshot, persp),
        "data": _data(snapshot, persp, mode, view, players, legal, remaining),
        "language": language,  # the active one while the frame is drawn
        "now_ms": int(time.time() * 1000),
        **options.extra,
    }


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
        "persons": [s for s in snapshot.seats.values() if not s.is_computer],
    }


def _top(snapshot: Snapshot, view: dict[str, Any] | None, mode: str) -> dict[str, Any]:
    """The bar above the table: the blinds, the hand, the deck's commitment."""
    return {
        "blinds": [view["small_blind"], view["big_blind"]] if view else None,
        "hand_number": view["hand_number"] if view else 0,
        "to_next_level": view["hands_to_next_level"] if view else None,
        "watching": mode == "watch",
        "paused": snapshot.paused,
        "paused_by": snapshot.paused_by,
        "deck": commitments.shown_root(snapshot),  # the deck commitment's root, short
    }


def _center(hand: dict[str, Any] | None, log_lines: list[str]) -> dict[str, Any]:
    """The middle of the table: the board (the winning cards marked), the pots, the log's
    last line."""
    return {
        "board": hand["board"] if hand else [],
        "finished": bool(hand and hand["finished"]),
        "win_cards": hand["awards"][-1]["cards"] if hand and hand["finished"] and hand["awards"]
        else [],
        "hand_number": hand["hand_number"] if hand else 0,
        "pots": hand["pots"] if hand else [],
        "last_line": log_lines[-1] if log_lines else "",
        "events": hand["event_count"] if hand else 0,
    }


def _hands_played(view: dict[str, Any] | None) -> int:
    """The hands played to their end, as the recap counts them: the number of the last hand
    dealt, less that hand when it was called off (the host ended the game in the middle of it:
    the game then holds no hand)."""
    number = int(view["hand_number"]) if view else 0
    return number - 1 if view and view["hand"] is None and number else number


def _ended_early(snapshot: Snapshot, view: dict[str, Any] | None, mode: str) -> dict[str, str]:
    """Game over while a person and someone else still had chips: someone ended it (the host,
    or a moderator closing the table), and every phone is told so, and by whom when the table
    has a host ("by": their name). Empty: the game ended by itself (one player won every chip,
    or no person had chips left: R33)."""
    if mode != "over" or not view or not view["standings"]:
        return {}
    holding = [s["seat"] for s in view["standings"] if s.get("chips")]
    people = [p for p in holding if p in snapshot.seats and not snapshot.seats[p].is_computer]
    if len(holding) < 2 or not people:
        return {}
    host = snapshot.host_position
    return {"by": snapshot.name(host) if host is not None and host in snapshot.seats else ""}


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
) -> dict[str, Any]:
    """The frame's data for the phone's scripts (``#table-data``)."""
    game = snapshot.game
    hand = view["hand"] if view else None
    data = {
        "version": snapshot.version,
        "screen": mode,
        "status": snapshot.status,
        "you": persp.viewer,
        "mine": list(persp.mine),
        "handoff": persp.handoff,
        "to_act": hand["to_act"] if hand and not hand["finished"] else None,
        "legal": legal,
        "remaining": remaining,
        "paused": snapshot.paused,
        "turn_seconds": snapshot.turn_seconds,
        "hand_number": game.hand_number if game else 0,
        "hand_over": bool(hand and hand["finished"]),
        # For the bet sheet's presets (pot-sized bets and the like).
        "pot_total": hand["pot_total"] if hand else 0,
        "current_bet": hand["current_bet"] if hand else 0,
        "big_blind": view["big_blind"] if view else 0,
        "your_bet": players[persp.viewer]["bet"] if persp.viewer in players else 0,
        "next_url": f"/t/{snapshot.next_code}/" if snapshot.next_code else None,
        # A tournament's table ends, the tournament goes on (or ended) in its lobby.
        "in_tournament": snapshot.in_tournament,
    }
    if hand and hand["finished"]:
        odds = runout_of(snapshot)  # every hand face up, the odds by street
        if odds is not None:
            # The words odds.js writes, in this phone's language: sent only with a run-out,
            # so the page everyone loads stays as small as before (test_page_weight).
            data["runout"] = {**odds, "words": {
                "win": gettext("Win"), "split": gettext("Split"),
                "exact": gettext("Chance to win: every card to come counted"),
                "simulated": gettext("Chance to win: close estimate, from many deals"),
            }}
    return data


def runout_of(snapshot: Snapshot) -> dict[str, Any] | None:
    """The odds of a finished hand's run-out (``engine.runout.runout_dict``), once per
    version: only hands that were turned face up and the board, which every phone sees."""
    game = snapshot.game
    if game is None or game.hand is None or not game.hand.finished:
        return None
    if "runout" not in snapshot.memo:
        odds = runout_dict(game.hand)
        if odds is not None:
            # How long each street shows (tables.write.deadlines.deadline_for waits as long).
            odds["step"] = round(
                1000 * settings.TABLES_NEXT_HAND_PAUSE * settings.TABLES_RUNOUT_STEP
            )
        snapshot.memo["runout"] = odds
    found: dict[str, Any] | None = snapshot.memo["runout"]
    return found


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
    view = _view(snapshot, None)
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


def _view(snapshot: Snapshot, viewer: int | None) -> dict[str, Any] | None:
    """``game_view(game, viewer)`` without the event list, from the spectator's view worked
    out once per version (engine.views.view_for adds the one seat's own cards)."""
    game = snapshot.game
    if game is None:
        return None
    public: dict[str, Any] | None = snapshot.memo.get("public_view")
    if public is None:
        public = game_view(game, None, events=False)
        snapshot.memo["public_view"] = public
    return view_for(public, game, viewer)


def _namer(names: dict[int, str]) -> Callable[[int | None], str]:
    """``Snapshot.name`` for these names, without holding on to a snapshot."""

    def name(position: int | None) -> str:
        return names.get(position, "?") if position is not None else "?"

    return name


def _log_lines(snapshot: Snapshot, language: str | None = None) -> list[str]:
    """The hand's action log in the active language (``language``, when the caller knows it
    already), once per version and language. Built from the spectator's events: the log
    names no hidden card, so it is the same for all."""
    game = snapshot.game
    if game is None or game.hand is None:
        return []
    language = language or get_language()
    lines: list[str] | None = snapshot.memo.get(("log", language))
    if lines is not None:
        return lines
    hand = game.hand
    names = tuple((p, s.name) for p, s in sorted(snapshot.seats.items()))
    # The deck tells this hand from any other (it never leaves the process).
    deal = bytes([card.id for card in hand.deck])
    key = (snapshot.id, snapshot.created_at, game.hand_number, deal, language, names)

    def read(log: Log) -> list[str]:
        log.add(visible_events(hand, None, log.count))
        return list(log.lines)

    lines = cache.read_log(key, len(hand.events), lambda: Log(_namer(dict(names))), read)
    snapshot.memo[("log", language)] = lines
    return lines


def render_frame(snapshot: Snapshot, persp: Perspective, options: FrameOptions) -> str:
    """The websocket message: HTML elements swapped in by id (hx-swap-oob)."""
    if options.language is None:
        options = replace(options, language=get_language())
    assert options.language is not None
    with speaking(options.language):
        context = frame_context(snapshot, persp, options)
        context["oob"] = True  # every element of a message replaces the one with its id
        if context["screen"] in ("play", "watch"):
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
