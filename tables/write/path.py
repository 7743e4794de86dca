"""The one write path: ``apply_change`` and the ``Change`` it hands out.

``apply_change(table_id, mutate)`` is the only way a table changes. In one transaction it locks
the table row (``select_for_update`` on PostgreSQL; SQLite's IMMEDIATE transactions take the
database write lock at BEGIN, the same guarantee), gives ``mutate`` a ``Change`` to check and
modify, then saves the engine state, writes hand history rows, checks that no chip appeared or
vanished, sets the next deadline (``tables.write.deadlines``), bumps the version and, once the
transaction has committed, tells the table's group "table X changed, version N"
(``tables.write.announce``; never anything hidden; for a change of play also the public actions
taken and the row's new values, so that other server processes work the version out instead of
loading it: ``Step``), and a person whose turn it is may be sent a notification
(``tables.write.push``). ``mutate`` refuses by raising
``Refused``: the transaction rolls back and nothing changes. A change caught by a failover of
the database is made once more on a new connection, or refused (``tables.write.reconnect``).

The changes of play (an action, a deadline fired) are first tried on the version of the table
this process holds, saved by one UPDATE that applies only if the row is still at that version
(the update locks the row and checks the version in one statement): the same guarantee in one
statement instead of four. Anything else (a refusal, a hand dealt or ended, a seat written, a
version that moved on) is made again from the start under the lock. See ``apply_change``.

Every change goes through here; the changes themselves live beside this module, one module per
kind (``tables.write.lobby``, ``tables.write.play``, ``tables.write.moderation``...); the
clock fires deadlines through the same path (``tables.clock``). Moderation, e.g.::

    def close(change):
        change.game.cancel_hand()        # or finish it by the time-out rule
        change.game.end_now()
        change.table.status = Table.Status.CLOSED
        change.mark()
    apply_change(table.id, close)
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.game import Game
from engine.history import hand_record
from engine.seats import GameError
from tables import cache, commitments, metrics
from tables.models import FormerClaim, Hand, Seat, Table
from tables.write import push, reasons, reconnect, time_bank
from tables.write.announce import NotAnnounced as NotAnnounced
from tables.write.announce import Step, notify
from tables.write.announce import group_name as group_name
from tables.write.announce import write_then_notify as write_then_notify
from tables.write.deadlines import schedule, turn_key

# NotAnnounced, group_name and write_then_notify (imported above) are announcing's; named here
# too for the live consumer, which reaches them as ``path.<name>``.
T = TypeVar("T")
log = logging.getLogger(__name__)


class Refused(Exception):
    """A change the table will not make. ``code`` is for programs, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Busy(Exception):
    """Another process holds the table (the clock skips it; that process fires the deadline)."""


class _NeedsLock(Exception):
    """A change tried on the version held here that must be made again under the lock."""


class ChipsNotConserved(RuntimeError):
    """A change would create or destroy chips: an engine bug; the change is rolled back."""


def seeded(*parts: object) -> random.Random | None:
    """A repeatable generator when settings.TABLES_SEED is set (tests), else None."""
    if settings.TABLES_SEED is None:
        return None
    return random.Random(":".join(str(p) for p in (settings.TABLES_SEED, *parts)))


@dataclass
class Change:
    """A locked table being changed. Call ``mark()`` after changing anything."""

    table: Table
    seats: dict[int, Seat]
    now: datetime
    changed: bool = False
    _game: Game | None = None
    _state_before: dict[str, Any] | None = None
    _turn_before: tuple[object, ...] | None = None
    _status_before: str = ""
    _hand_before: tuple[int, bool] = (0, False)  # hand number and whether it was running
    _fields_before: list[Any] = field(default_factory=list)  # the table row as it was read
    held: bool = False  # made on the version this process holds, without the lock (see below)
    written: bool = False  # (held) the row is saved

    def mark(self) -> None:
        self.changed = True

    def _writing(self) -> None:
        """Anything written besides the table's row is written under the lock."""
        if self.held:
            raise _NeedsLock

    @property
    def has_game(self) -> bool:
        return self._game is not None or self.table.state is not None

    @property
    def game(self) -> Game:
        """The engine state, rebuilt once per change (a copy of the version this process holds,
        else rebuilt from the saved state)."""
        if self._game is None:
            table = self.table
            if table.state is None:
                raise Refused("not_started", _("The game has not started yet."))
            # This process usually holds this very version already (the last change here
            # left it for the connections to draw): a copy of it needs no replay.
            kept = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
            if kept is not None and kept.game is not None:
                self._game = kept.game.copy()
            else:  # an older version held here is played on rather than replayed whole
                self._game = Game.from_dict(table.state, base=cache.latest_game(table))
            self._turn_before = turn_key(self._status_before, self._game)
            self._hand_before = (self._game.hand_number, self._game.hand_running)
        return self._game

    def set_game(self, game: Game) -> None:
        self._game = game
        self._turn_before = (self._status_before, "new")
        self.mark()

    def positions_of(self, hashes: Iterable[str]) -> list[int]:
        wanted = set(hashes)
        return sorted(p for p, s in self.seats.items() if s.claim_hash and s.claim_hash in wanted)

    def persons(self) -> list[Seat]:
        return [s for s in self.seats.values() if s.is_person]

    def add_seat(self, **fields: Any) -> Seat:
        self._writing()
        seat = Seat.objects.create(table=self.table, **fields)
        self.seats[seat.position] = seat
        self.mark()
        return seat

    def remove_seat(self, position: int) -> None:
        self._writing()
        self.seats.pop(position).delete()
        self.mark()

    def save_seat(self, seat: Seat, *fields: str) -> None:
        self._writing()
        seat.save(update_fields=list(fields) or None)
        self.mark()

    def make_computer(self, position: int) -> None:
        """A computer player of the table's level takes a person's seat and its chips. The
        person's claim is kept as a former claim: they may still review the hands they played."""
        self._writing()
        seat = self.seats[position]
        self.retire_claim(seat)
        seat.is_computer = True
        seat.level = self.table.computer_level
        seat.claim_hash = ""
        seat.away = False
        seat.timeouts_in_row = 0
        self.save_seat(seat, "is_computer", "level", "claim_hash", "away", "timeouts_in_row")
        if self.has_game:
            self.game.set_person(position, False)
        if self.table.host_position == position:
            self.pass_host(position)

    def retire_claim(self, seat: Seat) -> None:
        """The seat's claim stops holding it: kept as a former claim, whose holder may review
        the hands of its window (from the seat's ``first_hand`` to the hand running now)."""
        if seat.claim_hash:
            FormerClaim.objects.create(
                table=self.table, position=seat.position, claim_hash=seat.claim_hash,
                name=seat.name, first_hand=seat.first_hand, left_at=self.now,
                last_hand=self.game.hand_number if self.has_game else 0,
            )

    def hand_over(self, seat: Seat, claim_hash: str, *fields: str) -> None:
        """Every way a seat changes hands: the new claim's window opens at the hand running
        now (its cards go with the seat) or else the next; never a hand before."""
        self.retire_claim(seat)
        game = self.game if self.has_game else None
        seat.claim_hash = claim_hash
        seat.first_hand = game.hand_number + (not game.hand_running) if game else 0
        self.save_seat(seat, "claim_hash", "first_hand", *fields)

    def pass_host(self, leaving: int) -> None:
        """The host role goes to the next person to the left of ``leaving`` (none: no host)."""
        persons = sorted(s.position for s in self.seats.values() if s.is_person)
        after = [p for p in persons if p > leaving] + [p for p in persons if p < leaving]
        self.table.host_position = after[0] if after else None
        self.mark()

    def stop_clock(self) -> float | None:
        """Pause the table's clock (no time-out, computer move or new deal fires); the seconds
        left of the pending deadline (None: there is none), for the pause's log row, from which
        ``start_clock`` gives them back."""
        table = self.table
        remaining = None
        if table.next_deadline is not None:
            remaining = max(0.0, (table.next_deadline - self.now).total_seconds())
        table.paused = True
        self.mark()
        return remaining

    def start_clock(self, *, at_once: bool = False) -> None:
        """Start the clock again: the pending deadline of a playing table gets back the time
        it had left at the last pause (``at_once``: it fires at the clock's next tick). Called
        before the resume's own log row is written."""
        table = self.table
        if at_once:
            table.next_deadline = self.now
        elif table.status == Table.Status.PLAYING and table.next_deadline is not None:
            table.next_deadline = self.now + timedelta(seconds=table.seconds_left_on_resume())
        table.paused = False
        self.mark()

    def name_of(self, position: int | None) -> str:
        seat = self.seats.get(position) if position is not None else None
        return seat.name if seat else "?"


def apply_change(
    table_id: int, mutate: Callable[[Change], T], *, skip_locked: bool = False,
    held: bool = False,
) -> T:
    """Lock the table, let ``mutate`` check and change it, save, bump the version, notify.

    Runs in one transaction with the table row locked, so two changes never interleave: any
    number of server processes and clocks may call this at once. ``mutate`` raises ``Refused``
    to change nothing. With ``skip_locked`` a table locked elsewhere raises ``Busy`` instead
    of waiting (PostgreSQL; SQLite serialises writers at BEGIN).

    ``held``: for the changes of play (an action, a deadline). The change is first made on the
    version this process holds, saved by one UPDATE that applies only if the row is still at
    that version (the update locks the row and checks the version together: the guarantee of
    the lock in one statement instead of four). Only a change that writes nothing but the row
    and succeeds is made so; anything else is made again from the start under the lock.
    ``mutate`` must write only through ``Change`` then.
    """
    if held:
        try:
            return _apply_held(table_id, mutate)
        except _NeedsLock:
            metrics.write_retried()
    return reconnect.once_more(table_id, lambda: _apply_locked(table_id, mutate, skip_locked))


def _apply_locked(table_id: int, mutate: Callable[[Change], T], skip_locked: bool) -> T:
    """``apply_change`` under the lock, in one transaction."""
    committing = False
    try:
        with transaction.atomic():
            if skip_locked and connection.features.has_select_for_update_skip_locked:
                rows = _table_locked_or_skipped(table_id)
            else:
                rows = _table_locked(table_id)
            if not rows:
                if skip_locked and Table.objects.filter(pk=table_id).exists():
                    raise Busy(table_id)
                raise Refused("unknown_table", _("There is no table with that code."))
            table = rows[0]
            seats = {s.position: s for s in cache.kept_seats(table)}
            change = Change(
                table=table, seats=seats, now=timezone.now(),
                _state_before=table.state, _status_before=table.status,
                _fields_before=_field_values(table),
            )
            result = mutate(change)
            if change.changed:
                _commit(change)
            committing = True  # what fails from here on is the COMMIT
    except Exception as exc:
        if committing and reconnect.lost_connection(exc):
            raise reconnect.commit_unknown() from exc
        raise
    return result


def _apply_held(table_id: int, mutate: Callable[[Change], T]) -> T:
    """``apply_change(held=True)`` on the newest version this process holds; ``_NeedsLock``
    when it cannot be made so (nothing is written then)."""
    kept = cache.newest(table_id)
    if kept is None or kept.row is None:
        raise _NeedsLock
    table = Table.from_db(router.db_for_write(Table), cache.ROW_FIELDS, kept.row)
    table.recent_actions = list(table.recent_actions)  # the snapshot's stays as it was
    change = Change(
        table=table, seats={s.position: s for s in cache.kept_seats(table)}, now=timezone.now(),
        _state_before=table.state, _status_before=table.status,
        _fields_before=_field_values(table), held=True,
    )
    try:
        result = mutate(change)
        if not change.changed:
            raise _NeedsLock
        _commit(change)
    except Exception:
        if change.written:
            raise  # the change is saved: what failed after it is not made again
        # Nothing was written: refused or raised again under the lock, against the table as is.
        raise _NeedsLock from None
    return result


# The reads at the start of every change, compiled once (see tables.cache.queries).
_table_locked = cache.Prepared(lambda pk: Table.objects.filter(pk=pk).select_for_update())
_table_locked_or_skipped = cache.Prepared(
    lambda pk: Table.objects.filter(pk=pk).select_for_update(skip_locked=True)
)

_TABLE_FIELDS = [f.attname for f in Table._meta.concrete_fields if not f.primary_key]
_PAUSED_AT = _TABLE_FIELDS.index("paused")
# Saved with every change (the state: a dict that could have been changed in place).
_ALWAYS_SAVED = {"state", "version", "next_deadline", "deadline_kind", "updated_at"}


def _field_values(table: Table) -> list[Any]:
    return [getattr(table, name) for name in _TABLE_FIELDS]


def _changed_fields(table: Table, before: list[Any]) -> list[str]:
    """The table's fields to save: those always saved and any other that changed."""
    return [
        name for name, old in zip(_TABLE_FIELDS, before, strict=True)
        if name in _ALWAYS_SAVED or getattr(table, name) != old
    ]


def _commit(change: Change) -> None:
    table = change.table
    game = change._game
    if game is None and table.state is not None and table.status == Table.Status.PLAYING:
        game = change.game  # unchanged, but the next deadline depends on whose turn it is
    if game is not None:
        state = game.to_dict()
        if state != change._state_before:
            _check_chips(game)
            _sync_hands(change, game)
            table.state = state
        if game.finished and table.status == Table.Status.PLAYING:
            table.status = Table.Status.FINISHED
            table.finished_at = change.now
    _charge_time_bank(change, game)
    schedule(table, change.seats, change.now, change._turn_before, game)
    table.version += 1
    fields = _changed_fields(table, change._fields_before)
    if change.held:
        # The row only if it is still this table at the version the change was made on, and
        # not stopped or restarted meanwhile (an operator may pause a table in the database by
        # hand, without a new version: the clock must then stand still).
        same = [
            ("version", table.version - 1), ("code", table.code),
            ("created_at", table.created_at),
            ("paused", change._fields_before[_PAUSED_AT]),
        ]
        if not cache.update_fields(table, fields, where=same):
            raise _NeedsLock
        change.written = True
    else:
        cache.update_fields(table, fields)
    seats = list(change.seats.values())
    step = _step(change, game, fields) if change.held else None

    def committed() -> None:
        # This process's connections draw the new version from what was just written (no
        # query, no replay); the game object is the snapshot's from here on.
        cache.remember(table, seats, game)
        cache.keep_seats(table, seats)
        notify(table.id, table.version, step)
        push.after_change(table, seats, game)  # "your turn" to a locked phone (never raises)

    transaction.on_commit(committed)


def _charge_time_bank(change: Change, game: Game | None) -> None:
    """A person's turn ended with this change: their time bank (P4) is charged for the time
    it ran past the limit (a seat written: under the lock, so only when any was used)."""
    table, before = change.table, change._turn_before
    if table.deadline_kind != Table.Deadline.TURN or before is None or len(before) != 5:
        return
    if game is not None and game.hand is not None and (
        before[1] == game.hand_number and before[2] == len(game.hand.actions)
    ):
        return  # the same turn goes on
    seat = change.seats.get(before[3]) if isinstance(before[3], int) else None
    if seat is not None and time_bank.charge(table, seat, change.now):
        change.save_seat(seat, "bank_used")


def _step(change: Change, game: Game | None, fields: list[str]) -> Step | None:
    """How a change made on the version this process held (actions in a running hand, the row
    alone written) got from that version to the new one, for the other processes (``Step``);
    None when it cannot be told so."""
    before = change._turn_before
    if game is None or game.hand is None or before is None or len(before) != 5:
        return None
    hand_number, actions_before = before[1], before[2]
    if hand_number != game.hand_number or not isinstance(actions_before, int):
        return None
    table = change.table
    row: dict[str, Any] = {}
    for name in fields:
        if name == "state":
            continue  # rebuilt from the actions
        value = getattr(table, name)
        if isinstance(value, datetime):
            value = value.isoformat()
        elif not isinstance(value, str | int | list | type(None)):
            return None  # (bool is an int) not sent as it is: the process loads the version
        row[name] = value
    return {
        "from": table.version - 1,
        "actions": [action.to_dict() for action in game.hand.actions[actions_before:]],
        "row": row,
    }


def _check_chips(game: Game) -> None:
    """The chips in play (T7): starting + arrived - departed (one table: 1,000 a seat, R3)."""
    expected = game.chips_expected()
    if game.total_chips() != expected:
        raise ChipsNotConserved(f"{game.total_chips()} chips at the table, expected {expected}")


def _sync_hands(change: Change, game: Game) -> None:
    """A Hand row when a hand is dealt, completed when it ends (or marked cancelled)."""
    number_before, running_before = change._hand_before
    hand = game.hand
    table = change.table
    dealt = hand is not None and game.hand_number > number_before
    if change.held and (dealt or (running_before and (hand is None or hand.finished))):
        raise _NeedsLock  # a hand's row is written under the lock
    if hand is not None and game.hand_number > number_before:
        if running_before:
            raise GameError("a new hand was dealt before the last one was saved")
        Hand.objects.create(
            table=table,
            number=game.hand_number,
            started_at=change.now,
            record=hand_record(hand),
            players=[
                {
                    "seat": s,
                    "name": change.name_of(s),
                    "stack": stack,
                    "is_computer": not game.seats[s].is_person,
                }
                for s, stack in zip(hand.settings.seats, hand.settings.stacks, strict=True)
            ],
            ended_at=change.now if hand.finished else None,
            final_stacks=hand.final_stacks if hand.finished else None,
            deck_root=commitments.root_hex(hand),  # the deck commitment (engine.proof)
        )
    elif hand is not None and hand.finished and running_before:
        Hand.objects.filter(table=table, number=game.hand_number).update(
            record=hand_record(hand), ended_at=change.now, final_stacks=hand.final_stacks,
            reasons=reasons.of_hand(table, game.hand_number),
        )
    elif hand is None and running_before:
        Hand.objects.filter(table=table, number=number_before).update(
            cancelled=True, ended_at=change.now
        )
