"""What one connection is shown: a snapshot of the table, whose eyes it looks through, and
the HTML fragment (htmx out-of-band swaps) that draws it.

Privacy lives here. Each frame is built from ``engine.views.game_view(game, viewer)`` for at
most one seat, so it can only hold that seat's hole cards; the deck and burnt cards never reach
a view. A phone holding several seats (pass and play) sees one seat at a time:

- when the turn comes to one of its seats it first gets a hand-off frame built for no seat
  at all ("Pass the phone to Bikash"), and only after that person confirms does it get their
  cards (``reveal``);
- as soon as the revealed person has acted, their cards are hidden again: while it is nobody
  on this phone's turn the table is drawn from the last person's place with no hole cards,
  and anyone may tap to see their own cards (which asks them to confirm who they are);
- a new hand hides everything again.

Drawing is the hot path (every connection, every change), so what is the same for everyone is
worked out once: the snapshot is loaded once per version and process, the log once per version
and language (``Snapshot.memo``), and the components (seats, board, cards, the bar above the
table) are rendered once per distinct content (``tables.fragments``, keyed by every value drawn,
so a cached part never shows a frame anything it did not hold). See benchmarks/bench_frames.py.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from django.db import connection, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from engine.actions import Action, ActionError
from engine.game import Game
from engine.views import game_view, view_for, visible_events
from tables import codes, commitments, screens  # hook(issue-18): commitments
from tables.describe import Log
from tables.langs import speaking
from tables.models import Seat, Table
from tables.prepared import Prepared
from tables.qr import qr_svg


@dataclass(frozen=True)
class SeatInfo:
    position: int
    name: str
    is_computer: bool
    level: str
    away: bool
    claim_hash: str


@dataclass(frozen=True)
class Snapshot:
    """A table at one version, read-only and shared by every connection in the process."""

    id: int
    code: str
    mode: str
    status: str
    version: int
    seat_count: int
    max_hands: int | None
    blind_every: int
    computer_level: str
    turn_seconds: int
    host_position: int | None
    next_deadline: datetime | None
    deadline_kind: str
    paused: bool
    closed_reason: str
    next_code: str | None
    seats: dict[int, SeatInfo]
    game: Game | None
    created_at: datetime | None = None  # with id and code: which table (ids may be reused)
    paused_left: float | None = None  # while paused: the seconds the deadline gets on resume
    # The table's row at this version (``ROW_FIELDS``' values), for the write path's
    # conditional update (tables.services.apply_change): never changed, copied before use.
    row: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)
    # And its seats' rows (``SEAT_FIELDS``' values), for the same.
    seat_rows: tuple[tuple[Any, ...], ...] | None = field(default=None, compare=False, repr=False)
    # Public things derived from this version once, for every connection (e.g. the log).
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def positions_of(self, hashes: list[str]) -> list[int]:
        wanted = set(hashes)
        return sorted(
            p for p, s in self.seats.items() if s.claim_hash and s.claim_hash in wanted
        )

    def name(self, position: int | None) -> str:
        seat = self.seats.get(position) if position is not None else None
        return seat.name if seat else "?"


# Keyed by id, code, creation time and version: SQLite may give a deleted table's id to a new one.
_snapshots: OrderedDict[tuple[int, str, datetime | None, int], Snapshot] = OrderedDict()
_snapshot_lock = threading.Lock()
_SNAPSHOTS_KEPT = 1024
_VERSIONS_PER_TABLE = 2
_versions_kept: dict[int, list[tuple[int, str, datetime | None, int]]] = {}


def cached_snapshot(
    table_id: int, code: str, created_at: datetime, version: int
) -> Snapshot | None:
    """This version of the table if a connection in this process already loaded it (no query)."""
    with _snapshot_lock:
        return _snapshots.get((table_id, code, created_at, version))


# Every connection of a process that did not write a version loads it once: compiled once.
table_by_id = Prepared(lambda pk: Table.objects.filter(pk=pk))
seats_of = Prepared(lambda pk: Seat.objects.filter(table_id=pk))


# The JSON functions that aggregate rows into an array, by database.
_JSON_FUNCTIONS = {
    "postgresql": ("json_agg", "json_build_array"),
    "sqlite": ("json_group_array", "json_array"),
}


def _seats_column(connection: BaseDatabaseWrapper) -> str | None:
    """The table's seats as one JSON column of the table's row (each an array of
    ``SEAT_FIELDS``), where the database can say it: a load is one query."""
    functions = _JSON_FUNCTIONS.get(connection.vendor)
    if functions is None:
        return None
    aggregate, array = functions
    quote = connection.ops.quote_name
    columns = ", ".join(f"s.{quote(str(f.column))}" for f in _SEAT_COLUMNS)
    return (
        f"(SELECT {aggregate}({array}({columns})) FROM {quote(Seat._meta.db_table)} s"
        f" WHERE s.{quote(_column(Seat, 'table'))}"
        f" = {quote(Table._meta.db_table)}.{quote(_column(Table, 'id'))})"
    )


def _column(model: type[models.Model], name: str) -> str:
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field) and found.column is not None
    return str(found.column)


# A seat's columns as the write path reads them (tables.services): all but the presence
# (``last_seen``), which changes without a new version.
_SEAT_COLUMNS = [f for f in Seat._meta.concrete_fields if f.attname != "last_seen"]
SEAT_FIELDS = tuple(f.attname for f in _SEAT_COLUMNS)
table_with_seats = Prepared(lambda pk: Table.objects.filter(pk=pk), also=_seats_column)


def _json_datetime(value: Any) -> datetime:
    """A date from JSON: ISO text with its offset (PostgreSQL) or without (SQLite: UTC)."""
    parsed = parse_datetime(str(value))
    if parsed is None:
        raise ValueError(f"not a date: {value!r}")
    if timezone.is_naive(parsed):
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _from_json(column: models.Field[Any, Any]) -> Callable[[Any], Any]:
    kind = column.get_internal_type()
    if kind == "BooleanField":
        return bool
    if kind in ("CharField", "TextField"):
        return str
    if kind == "DateTimeField":
        return _json_datetime
    return int  # ids, positions, counts


_SEAT_TYPES = tuple(_from_json(f) for f in _SEAT_COLUMNS)


def _seat_rows(value: Any) -> list[tuple[Any, ...]]:
    """The seats' rows (``SEAT_FIELDS``) from the JSON column (text on SQLite, decoded or not
    on PostgreSQL), each value of its field's type (booleans are 0/1 in SQLite's JSON)."""
    if isinstance(value, str | bytes):
        value = json.loads(value)
    return [
        tuple([kind(item) for kind, item in zip(_SEAT_TYPES, row, strict=True)])
        for row in value or ()
    ]


def seat_rows_of(seats: Iterable[Seat]) -> list[tuple[Any, ...]]:
    """Seats as rows of ``SEAT_FIELDS``' values (what ``Seat.from_db`` takes back)."""
    return [tuple([getattr(seat, name) for name in SEAT_FIELDS]) for seat in seats]


_POSITION_AT = SEAT_FIELDS.index("position")
_INFO_AT = [SEAT_FIELDS.index(name) for name in (
    "position", "name", "is_computer", "level", "away", "claim_hash",
)]


def _infos(rows: Iterable[tuple[Any, ...]]) -> list[SeatInfo]:
    return [SeatInfo(*[row[at] for at in _INFO_AT]) for row in rows]


def load_snapshot(table_id: int, *, check_cache: bool = True) -> Snapshot | None:
    """The table as it is now. One small query when another connection already loaded this
    version in this process; the engine state is rebuilt once per version. ``check_cache=False``
    when the caller knows this process has not got the new version (one query fewer)."""
    if check_cache:
        row = Table.objects.filter(pk=table_id).values_list("code", "created_at", "version")
        found = row.first()
        if found is None:
            return None
        with _snapshot_lock:
            cached = _snapshots.get((table_id, *found))
        if cached is not None:
            return cached
    rows = table_with_seats.extra(table_id)
    if not rows:
        return None
    table, seats = rows[0]
    game = Game.from_dict(table.state, base=latest_game(table)) if table.state else None
    joined = connection.vendor in _JSON_FUNCTIONS
    seat_rows = _seat_rows(seats) if joined else seat_rows_of(seats_of(table_id))
    return _keep(_build(table, seat_rows, game))


def derive(
    table_id: int, code: str, created_at: datetime, version: int, step: Any
) -> Snapshot | None:
    """The table at ``version`` worked out from the version before, held in this process, and
    what another process told of the change (``tables.services.Step``: the actions taken and the
    row's new values; as JSON text, as the group message carries it), without a query; kept
    like a loaded version. None when this process does not hold that version or the step does
    not apply to it: the version is loaded then."""
    if isinstance(step, str):
        try:
            step = json.loads(step)
        except ValueError:
            return None
    if not isinstance(step, dict) or step.get("from") != version - 1:
        return None
    held = cached_snapshot(table_id, code, created_at, version - 1)
    if held is None or held.row is None or held.seat_rows is None or held.game is None:
        return None
    actions, changed = step.get("actions"), step.get("row")
    if not isinstance(actions, list) or not actions or not isinstance(changed, dict):
        return None
    if not _STEP_KEEPS.isdisjoint(changed):
        return None  # another table, or the state itself: never in a step
    game = held.game.copy()
    row = list(held.row)
    try:
        for data in actions:
            action = Action.from_dict(data)
            game.act(action.seat, action.kind, action.amount)
        for name, value in changed.items():
            row[_ROW_AT[name]] = _ROW_FROM_STEP[name](value)
    except (ActionError, KeyError, TypeError, ValueError):
        return None
    if game.hand is None or game.hand.finished or row[_ROW_AT["version"]] != version:
        return None  # a hand that ends is written under the lock: never told so
    row[_ROW_AT["state"]] = game.to_dict()
    table = Table.from_db(router.db_for_write(Table), ROW_FIELDS, row)
    if table.paused or table.next_table_id is not None:
        return None
    return _keep(_build(table, list(held.seat_rows), game))


def newest(table_id: int) -> Snapshot | None:
    """The newest version of this table this process holds (it may be behind the database)."""
    with _snapshot_lock:
        kept = _versions_kept.get(table_id)
        return _snapshots.get(kept[-1]) if kept else None


def latest_game(table: Table) -> Game | None:
    """The game of the newest version of this table this process holds: the new state is
    usually that hand a few actions on, which is then not replayed from its start."""
    held = newest(table.id)
    if held is None or (held.code, held.created_at) != (table.code, table.created_at):
        return None
    return held.game


def remember(table: Table, seats: Iterable[Seat], game: Game | None) -> None:
    """Keep the version the write path just committed, so this process's connections draw it
    without a query or a replay. ``game`` becomes the snapshot's: nobody may change it after.
    (A paused table or one pointing to a next game is simply loaded when it is drawn.)"""
    if table.paused or table.next_table_id is not None:
        return
    _keep(_build(table, seat_rows_of(seats), game))


def _build(table: Table, seat_rows: list[tuple[Any, ...]], game: Game | None) -> Snapshot:
    from tables.moderation import seconds_left_on_resume  # moderation uses the write path

    seats = {info.position: info for info in _infos(seat_rows)}
    row = tuple([getattr(table, name) for name in ROW_FIELDS])
    return Snapshot(
        id=table.id, code=table.code, created_at=table.created_at, mode=table.mode,
        status=table.status, version=table.version, seat_count=table.seat_count,
        max_hands=table.max_hands, blind_every=table.blind_every,
        computer_level=table.computer_level, turn_seconds=table.turn_seconds,
        host_position=table.host_position,
        next_deadline=table.next_deadline, deadline_kind=table.deadline_kind,
        paused=table.paused, closed_reason=table.closed_reason,
        next_code=table.next_table.code if table.next_table is not None else None,
        seats=seats,
        game=game,
        paused_left=seconds_left_on_resume(table) if table.paused else None,
        row=row,
        seat_rows=tuple(sorted(seat_rows, key=lambda row: row[_POSITION_AT])),
    )


# Every column of the table's row, by attribute name (the primary key first).
ROW_FIELDS = tuple(f.attname for f in Table._meta.concrete_fields)
_ROW_AT = {name: at for at, name in enumerate(ROW_FIELDS)}


def _from_step(column: models.Field[Any, Any]) -> Callable[[Any], Any]:
    """A row value as a step carries it (``tables.services._step``: dates as ISO text)."""
    if column.get_internal_type() != "DateTimeField":
        return lambda value: value

    def when(value: Any) -> datetime | None:
        return None if value is None else _json_datetime(value)

    return when


_ROW_FROM_STEP = {f.attname: _from_step(f) for f in Table._meta.concrete_fields}
_STEP_KEEPS = frozenset({"id", "code", "created_at", "state"})


def _keep(snapshot: Snapshot) -> Snapshot:
    """Cache a version; a table keeps its two newest (a connection told of an older one loads
    the newest instead). Few snapshots stay alive, so full garbage collections stay short."""
    key = (snapshot.id, snapshot.code, snapshot.created_at, snapshot.version)
    with _snapshot_lock:
        _snapshots[key] = snapshot
        kept = _versions_kept.setdefault(snapshot.id, [])
        # A version kept again (a load that raced the write that kept it, say) replaces the
        # copy it had; named twice in the list, the first would push it out of the cache
        # while the list still named it, and this process would hold nothing of the table.
        if key not in kept:
            kept.append(key)
            kept.sort(key=lambda k: k[3])
        while len(kept) > _VERSIONS_PER_TABLE:
            _snapshots.pop(kept.pop(0), None)
        while len(_snapshots) > _SNAPSHOTS_KEPT:
            old = _snapshots.popitem(last=False)[0]
            rest = [k for k in _versions_kept.get(old[0], []) if k != old]
            if rest:
                _versions_kept[old[0]] = rest
            else:
                _versions_kept.pop(old[0], None)
    return snapshot


# ------------------------------------------------------------------------------ perspective
@dataclass
class PassState:
    """Pass and play memory of one connection (or of one session, for pages without JS)."""

    revealed: int | None = None  # the seat whose owner confirmed they hold the phone
    revealed_acts: int = 0  # how many actions that seat had taken in the hand at that moment
    hand_number: int = 0
    home: int | None = None  # the seat drawn at the bottom while nobody here is to act

    def to_dict(self) -> dict[str, Any]:
        return {
            "revealed": self.revealed, "revealed_acts": self.revealed_acts,
            "hand_number": self.hand_number, "home": self.home,
        }

    @classmethod
    def from_dict(cls, data: Any) -> PassState:
        if not isinstance(data, dict):
            return cls()
        try:
            return cls(
                revealed=_int_or_none(data.get("revealed")),
                revealed_acts=int(data.get("revealed_acts", 0)),
                hand_number=int(data.get("hand_number", 0)),
                home=_int_or_none(data.get("home")),
            )
        except (TypeError, ValueError):
            return cls()


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _acts_of(game: Game | None, seat: int) -> int:
    if game is None or game.hand is None:
        return 0
    return sum(1 for a in game.hand.actions if a.seat == seat)


@dataclass(frozen=True)
class Perspective:
    mine: tuple[int, ...]  # every seat this connection holds at the table
    viewer: int | None  # the one seat whose hidden cards this frame may show
    home: int | None  # the seat drawn at the bottom of the table
    handoff: int | None  # "pass the phone to ..." (no cards at all in this frame)

    @property
    def pass_and_play(self) -> bool:
        return len(self.mine) > 1


def perspective(snapshot: Snapshot, mine: list[int], state: PassState) -> Perspective:
    """Whose eyes this frame looks through. Updates ``state`` (see the module docstring)."""
    if len(mine) <= 1:
        seat = mine[0] if mine else None
        return Perspective(tuple(mine), seat, seat, None)
    game = snapshot.game
    hand = game.hand if game else None
    number = game.hand_number if game else 0
    if number != state.hand_number:
        state.revealed, state.hand_number = None, number
    if state.revealed is not None and (
        state.revealed not in mine or _acts_of(game, state.revealed) > state.revealed_acts
    ):
        state.home, state.revealed = state.revealed, None  # they acted: hide their cards
    to_act = hand.seat_to_act if hand is not None and not hand.finished else None
    if to_act in mine and state.revealed != to_act:
        state.revealed = None
        return Perspective(tuple(mine), None, to_act, to_act)
    if state.revealed is not None:
        state.home = state.revealed
    home = state.home if state.home in mine else mine[0]
    return Perspective(tuple(mine), state.revealed, home, None)


def reveal(snapshot: Snapshot, mine: list[int], state: PassState, seat: int | None) -> bool:
    """The person at ``seat`` confirms they hold the phone. Refused (False) for a seat that is
    not this phone's, or while another of this phone's seats is to act."""
    if seat is None or seat not in mine:
        return False
    game = snapshot.game
    hand = game.hand if game else None
    to_act = hand.seat_to_act if hand is not None and not hand.finished else None
    if to_act in mine and to_act != seat:
        return False
    state.revealed = seat
    state.revealed_acts = _acts_of(game, seat)
    state.hand_number = game.hand_number if game else 0
    state.home = seat
    return True


def hide(state: PassState) -> None:
    if state.revealed is not None:
        state.home = state.revealed
    state.revealed = None


# ------------------------------------------------------------------------------ the frame
@dataclass
class Notice:
    code: str
    message: str
    kind: str = "error"  # "error" (refused) or "info"


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
    ``persp.viewer`` (and for hands shown at showdown)."""
    now = timezone.now()
    mode = screen(snapshot, persp)
    game = snapshot.game
    view = _view(snapshot, persp.viewer)
    hand = view["hand"] if view else None
    legal = hand["legal"] if hand and mode == "play" else None
    players = {p["seat"]: p for p in hand["players"]} if hand else {}
    remaining = None
    if snapshot.next_deadline is not None and snapshot.deadline_kind == Table.Deadline.TURN:
        if snapshot.paused and snapshot.paused_left is not None:
            remaining = snapshot.paused_left  # the clock stands still until it is resumed
        else:
            remaining = max(0.0, (snapshot.next_deadline - now).total_seconds())
        # Tenths are all a phone shows; frames drawn within the same tenth share their HTML.
        remaining = round(remaining, 1)
    to_act = hand["to_act"] if hand and not hand["finished"] else None

    # The seats as everyone sees them, once per version (and tenth of a second on the clock);
    # this connection's own seats are copied and marked, its own cards put in.
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
    # Drawn from this connection's seat: it first, then the others to its left.
    home = persp.viewer if persp.viewer is not None else persp.home
    if home is not None and any(s["seat"] == home for s in seats):
        at = next(i for i, s in enumerate(seats) if s["seat"] == home)
        seats = seats[at:] + seats[:at]
    you = next((s for s in seats if s["seat"] == persp.viewer), None)
    language = options.language or get_language()
    log_lines = _log_lines(snapshot, language)
    # The parts drawn alike for everyone at the table (cached as such: tables.fragments).
    top = {
        "blinds": [view["small_blind"], view["big_blind"]] if view else None,
        "hand_number": view["hand_number"] if view else 0,
        "to_next_level": view["hands_to_next_level"] if view else None,
        "watching": mode == "watch",
        "paused": snapshot.paused,
        "deck": commitments.shown_root(snapshot),  # hook(issue-18): the deck commitment's root
    }
    center = {
        "board": hand["board"] if hand else [],
        "finished": bool(hand and hand["finished"]),
        "win_cards": hand["awards"][-1]["cards"] if hand and hand["finished"] and hand["awards"]
        else [],
        "hand_number": hand["hand_number"] if hand else 0,
        "pots": hand["pots"] if hand else [],
        "last_line": log_lines[-1] if log_lines else "",
        "events": hand["event_count"] if hand else 0,
    }
    standings = None
    if view and view["standings"]:
        standings = [
            {**s, "name": snapshot.name(s["seat"]), "you": s["seat"] in persp.mine}
            for s in view["standings"]
        ]
    is_host = snapshot.host_position is not None and snapshot.host_position in persp.mine
    persons = [s for s in snapshot.seats.values() if not s.is_computer]
    data = {
        "version": snapshot.version,
        "screen": mode,
        "status": snapshot.status,
        "you": persp.viewer,
        "mine": list(persp.mine),
        "handoff": persp.handoff,
        "to_act": to_act,
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
    }
    return {
        "table": snapshot,
        "code": snapshot.code,
        "pretty_code": codes.pretty(snapshot.code),
        "version": snapshot.version,
        "screen": mode,
        "persp": persp,
        "seats": seats,
        "you": you,
        "you_seat": next((s for s in seats if s["you"]), None),  # drawn at the bottom
        "best": {
            "key": hand.get("your_best"), "name": hand.get("your_best_name"),
        } if hand else None,
        "top": top,
        "center": center,
        "mine_names": [snapshot.name(p) for p in persp.mine],
        "handoff_name": snapshot.name(persp.handoff) if persp.handoff is not None else "",
        "home_name": snapshot.name(persp.home) if persp.home is not None else "",
        "view": view,
        "hand": hand,
        "legal": legal,
        # Unguessable (a known id could swallow an action); only the action bar sends one.
        "action_id": secrets.token_hex(16) if legal else "",
        "log": log_lines,
        "log_tail": log_lines[-12:],
        "last_line": log_lines[-1] if log_lines else "",
        "standings": standings,
        "is_host": is_host,
        "can_add_computer": is_host and snapshot.seat_count < 6,
        "can_remove_computer": is_host and snapshot.seat_count > max(2, len(snapshot.seats)),
        "persons": persons,
        "join_url": options.join_url,
        # The join link as a QR code for friends sitting nearby (lobby only; one per link).
        "qr": mark_safe(qr_svg(options.join_url)) if mode == "lobby" and options.join_url else "",
        "notice": options.notice,
        "data": data,
        "language": language,  # the active one while the frame is drawn
        "now_ms": int(time.time() * 1000),
        **options.extra,
    }


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
        })
    return rows


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


# The log of every hand being drawn, by table, hand, language and names: each version only
# describes the events added since the last (a hand's events are only ever appended).
_logs: OrderedDict[tuple[Any, ...], Log] = OrderedDict()
_logs_lock = threading.Lock()
LOGS_KEPT = 1024


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
    with _logs_lock:
        log = _logs.get(key)
        if log is None or log.count > len(hand.events):
            log = _logs[key] = Log(_namer(dict(names)))
            while len(_logs) > LOGS_KEPT:
                _logs.popitem(last=False)
        else:
            _logs.move_to_end(key)
        log.add(visible_events(hand, None, log.count))
        lines = snapshot.memo[("log", language)] = list(log.lines)
    return lines


def render_frame(snapshot: Snapshot, persp: Perspective, options: FrameOptions) -> str:
    """The websocket message: HTML elements swapped in by id (hx-swap-oob)."""
    if options.language is None:
        options = replace(options, language=get_language())
    assert options.language is not None
    with speaking(options.language):
        context = frame_context(snapshot, persp, options)
        if context["screen"] in ("play", "watch"):
            return screens.play_frame(context)  # what the template would call, without it
        return render_to_string("tables/_frame.html", context)


def render_notice(notice: Notice, language: str = "en", version: int | None = None) -> str:
    with override(language):
        return render_to_string(
            "tables/_notice.html", {"notice": notice, "version": version, "oob": True}
        )


def error_notice(code: str, message: str) -> Notice:
    return Notice(code, message, "error")


def info_notice(code: str, message: str) -> Notice:
    return Notice(code, message, "info")

