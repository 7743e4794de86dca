"""The versions of tables this process holds: what a table is at one version (``Snapshot``),
and the three ways a version comes to be held: written here (``remember``), worked out from the
version before and what another process told of the change (``derive``), or loaded
(``load_snapshot``). Keyed by table id, code, creation time and version (SQLite may give a
deleted table's id to a new one); a table keeps its two newest versions, the process 1,024 in
all. A version never changes, so nothing is ever invalidated: a newer one is simply kept beside
it and the oldest go. See ``tables.cache`` for the whole picture.

Also the seats as the last change made in this process left them (``kept_seats``), for the
write path's next change of that table.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import connection, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from engine.actions import Action, ActionError
from engine.game import Game
from tables.cache.queries import Prepared
from tables.models import Seat, Table


@dataclass(frozen=True)
class SeatInfo:
    position: int
    name: str
    is_computer: bool
    level: str
    away: bool
    claim_hash: str
    bank_used: int = 0  # P4: the seconds of the table's time bank used
    tell_next_game: bool = False  # out of chips: asked to be told when the next game starts


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
    paused_by: str | None = None  # the host who paused (None: a moderator, or not paused)
    # The table's row at this version (``ROW_FIELDS``' values), for the write path's
    # conditional update (tables.write.path.apply_change): never changed, copied before use.
    row: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)
    # And its seats' rows (``SEAT_FIELDS``' values), for the same.
    seat_rows: tuple[tuple[Any, ...], ...] | None = field(default=None, compare=False, repr=False)
    # Public things derived from this version once, for every connection (e.g. the log).
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def in_tournament(self) -> bool:
        """Whether the table is one of a tournament's, from its row."""
        return self.row is not None and self.row[_ROW_AT["tournament_id"]] is not None

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


# A seat's columns as the write path reads them (tables.write.path): all but the presence
# (``last_seen``, ``connections``), which changes without a new version.
PRESENCE = ("last_seen", "connections")
_SEAT_COLUMNS = [f for f in Seat._meta.concrete_fields if f.attname not in PRESENCE]
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
    "position", "name", "is_computer", "level", "away", "claim_hash", "bank_used",
    "tell_next_game",
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
    what another process told of the change (``tables.write.announce.Step``: the actions taken
    and the row's new values; as JSON text, as the group message carries it), without a query;
    kept like a loaded version. None when this process does not hold that version or the step does
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


def forget_all() -> None:
    """Forget every version held here (a test starts with none: its database is new)."""
    with _snapshot_lock:
        _snapshots.clear()
        _versions_kept.clear()


def newest(table_id: int) -> Snapshot | None:
    """The newest version of this table this process holds (it may be behind the database)."""
    with _snapshot_lock:
        kept = _versions_kept.get(table_id)
        return _snapshots.get(kept[-1]) if kept else None


def due_held(now: datetime) -> list[tuple[int, int, str]]:
    """The tables whose newest version held here has a deadline due at ``now`` (a playing
    table, not paused), as (id, version, code), soonest first, without a query. A held version
    may be behind the database (another process wrote since): the write path finds that out."""
    with _snapshot_lock:
        held = [_snapshots[kept[-1]] for kept in _versions_kept.values() if kept]
    due = [
        (s.next_deadline, s.id, s.version, s.code) for s in held
        if s.next_deadline is not None and s.next_deadline <= now and s.deadline_kind
        and s.status == Table.Status.PLAYING and not s.paused
    ]
    return [(table_id, version, code) for _, table_id, version, code in sorted(due)]


def holds_paused() -> bool:
    """Whether the newest version held here of a playing table is paused, without a query. An
    operator may resume such a table in the database by hand, without a new version: no
    process holds its deadline as due then, and only the clock's look in the database finds
    it (``tables.clock.Looks``)."""
    with _snapshot_lock:
        return any(
            held.paused and held.status == Table.Status.PLAYING
            for held in (_snapshots.get(kept[-1]) for kept in _versions_kept.values() if kept)
            if held is not None
        )


def table_at(table_id: int, version: int) -> Table | None:
    """The table's row at ``version``: from the version held here (no query), else read; None
    when the table is gone or is not at that version. A held row may be behind the database:
    for a change through the write path, which checks the version it writes on."""
    held = newest(table_id)
    if held is not None and held.version == version and held.row is not None:
        table = Table.from_db(router.db_for_write(Table), ROW_FIELDS, held.row)
        table.recent_actions = list(table.recent_actions)  # the snapshot's stays as it was
        return table
    rows = table_by_id(table_id)
    return rows[0] if rows and rows[0].version == version else None


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
        paused_left=table.seconds_left_on_resume() if table.paused else None,
        paused_by=table.paused_by() if table.paused else None,
        row=row,
        seat_rows=tuple(sorted(seat_rows, key=lambda row: row[_POSITION_AT])),
    )


# Every column of the table's row, by attribute name (the primary key first).
ROW_FIELDS = tuple(f.attname for f in Table._meta.concrete_fields)
_ROW_AT = {name: at for at, name in enumerate(ROW_FIELDS)}


def _from_step(column: models.Field[Any, Any]) -> Callable[[Any], Any]:
    """A row value as a step carries it (``tables.write.path._step``: dates as ISO text)."""
    if column.get_internal_type() != "DateTimeField":
        return lambda value: value

    def when(value: Any) -> datetime | None:
        return None if value is None else _json_datetime(value)

    return when


_ROW_FROM_STEP = {f.attname: _from_step(f) for f in Table._meta.concrete_fields}
_STEP_KEEPS = frozenset({"id", "code", "created_at", "state"})


def _drop(snapshot: Snapshot | None) -> None:
    """Empty a version's memo. It holds the version itself (the shared context names its
    table): a cycle, which only a full garbage collection would free; a version let go with
    its memo emptied is freed at once. Dead versions piling up between collections, and the
    memory they leave free but scattered, cost more than what is held (socket_memory --play:
    360 against 188 KiB per socket after two minutes)."""
    if snapshot is not None and snapshot.memo:
        snapshot.memo.clear()


def _keep(snapshot: Snapshot) -> Snapshot:
    """Cache a version; a table keeps its two newest (a connection told of an older one loads
    the newest instead). Few snapshots stay alive, so full garbage collections stay short."""
    key = (snapshot.id, snapshot.code, snapshot.created_at, snapshot.version)
    with _snapshot_lock:
        replaced = _snapshots.get(key)
        if replaced is not snapshot:
            _drop(replaced)
        _snapshots[key] = snapshot
        kept = _versions_kept.setdefault(snapshot.id, [])
        # An id given out again (SQLite reuses the highest after a delete; tests roll back):
        # the versions of the table that had it before go, else they would push this one out.
        for stale in [k for k in kept if k[1:3] != key[1:3]]:
            kept.remove(stale)
            _drop(_snapshots.pop(stale, None))
        # A version kept again (a load that raced the write that kept it, say) replaces the
        # copy it had; named twice in the list, the first would push it out of the cache
        # while the list still named it, and this process would hold nothing of the table.
        if key not in kept:
            kept.append(key)
            kept.sort(key=lambda k: k[3])
        while len(kept) > _VERSIONS_PER_TABLE:
            _drop(_snapshots.pop(kept.pop(0), None))
        # What every connection was shown at the versions before the newest is drawn no more
        # (a connection told of one draws the newest): their memo goes now, not a version
        # later. A connection still drawing one (it loaded it just before) works its parts
        # out again, alike.
        for older in kept[:-1]:
            _drop(_snapshots.get(older))
        while len(_snapshots) > _SNAPSHOTS_KEPT:
            old, dropped = _snapshots.popitem(last=False)
            _drop(dropped)
            rest = [k for k in _versions_kept.get(old[0], []) if k != old]
            if rest:
                _versions_kept[old[0]] = rest
            else:
                _versions_kept.pop(old[0], None)
    return snapshot


# The seats as the last change made in this process left them, by table: the next change
# of that table here (the usual case: a table's phones are served by one process) finds them
# without a query when the version it locked is the one that change committed. Every change
# to a seat goes through apply_change and bumps the version, except presence (``last_seen``),
# which is left out and loaded if anything reads it.
_seats_kept: OrderedDict[int, tuple[tuple[str, datetime], int, list[tuple[Any, ...]]]] = (
    OrderedDict()
)
_seats_kept_lock = threading.Lock()
SEAT_ROWS_KEPT = 4096  # tables; the oldest written are forgotten first


def kept_seats(table: Table) -> list[Seat]:
    """The seats of ``table`` at its version: as the last change here left them, else as a
    version loaded here to draw holds them, else queried."""
    kept = _seats_kept.get(table.id)
    rows: Iterable[tuple[Any, ...]]
    if kept is not None and kept[0] == (table.code, table.created_at) and kept[1] == table.version:
        rows = kept[2]
    else:
        # A version another process wrote, which this one loaded to draw: its seats with it.
        drawn = cached_snapshot(table.id, table.code, table.created_at, table.version)
        if drawn is None or drawn.seat_rows is None:
            return seats_of(table.id)
        rows = drawn.seat_rows
    using = table._state.db or "default"
    return [Seat.from_db(using, SEAT_FIELDS, row) for row in rows]


def keep_seats(table: Table, seats: list[Seat]) -> None:
    """Keep the seats a change just committed, for the next change of the table here."""
    rows = seat_rows_of(seats)
    with _seats_kept_lock:
        _seats_kept[table.id] = ((table.code, table.created_at), table.version, rows)
        _seats_kept.move_to_end(table.id)
        while len(_seats_kept) > SEAT_ROWS_KEPT:
            _seats_kept.popitem(last=False)
