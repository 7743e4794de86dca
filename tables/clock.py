"""The clock: stored deadlines (computer players, time-outs, the next deal) fired exactly once.

Every table that waits for something has ``next_deadline`` and ``deadline_kind``. ``tick()``
finds the due tables and fires each through the one write path, which re-checks, under the
table lock, that the deadline is still the one it saw (same version, still due). Every change
bumps the version, so however many clocks run (one per server process by default, or
``manage.py runclock``), each deadline fires once; with PostgreSQL a table locked by another
process is skipped (``skip_locked``) rather than waited for. Deadlines that passed while no
server ran are simply due and fire at the first tick after start-up. The loop fires the
deadlines of the tables its process holds without a query, and asks the database (a
transaction: a commit of its own) for the others once a second while it finds some, less often
(at most every ``TABLES_CLOCK_POLL_MAX`` seconds) while every due deadline it finds there is one
held here or just due at a table another process holds, and no table held here is paused
(``run_forever``, ``Looks``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from engine.actions import Action
from tables import cache, computer, metrics
from tables.models import Table
from tables.write import reasons, timeouts
from tables.write.announce import write_then_notify
from tables.write.deadlines import is_due
from tables.write.path import Busy
from tables.write.tournament_between_hands import between_hands

log = logging.getLogger(__name__)
BATCH = 200


def tick(now: datetime | None = None, *, held: bool = False) -> int:
    """Fire every due deadline once; returns how many fired. Tests call this directly.
    ``held``: only those of the tables whose newest version this process holds, found without
    a query (``run_forever`` looks in the database only now and then)."""
    return _tick(now, held=held).fired


@dataclass(frozen=True)
class Ticked:
    """What a tick did: deadlines fired, due ones found, and of those the ones not among the
    due versions held here (so only the database's answer would have fired them)."""

    fired: int
    found: int = 0
    elsewhere: int = 0
    # Seconds until the soonest due deadline the look left to the process holding its table
    # is no longer left out (None: it left none): the next look comes by then, in case that
    # process did not fire it.
    left: float | None = None


def _tick(now: datetime | None = None, *, held: bool = False, settle: float = 0.0) -> Ticked:
    """``settle``: the database's answer leaves out the deadlines that came due less than this
    many seconds ago and that this process does not hold: the process holding the table fires
    those at its next tick (taking them from it would cost a read, and often a wait on its
    lock); ``Ticked.left`` says when the soonest of them is no longer left out. It leaves out
    none at a table this process holds at that version or a later one though not as due
    (resumed in the database by hand, without a new version: every process holding it holds it
    paused; or a version held here found behind that is not): no held tick fires those."""
    now = now or timezone.now()
    codes: dict[int, str] = {}
    if held:
        mine = _held_due(now, codes)
        return _fire_all(mine, now, held, codes, found=len(mine), elsewhere=0)
    held_due = set(_held_due(now))
    rows = Table.objects.due(now).values_list("id", "version", "code", "next_deadline")
    due: list[tuple[int, int]] = []
    waits: list[float] = []
    for table_id, version, code, at in rows[:BATCH]:
        wait = 0.0 if at is None else settle - (now - at).total_seconds()
        if (table_id, version) in held_due or wait <= 0 or _held_not_due(table_id, version, code):
            due.append((table_id, version))
        else:
            waits.append(wait)
    return _fire_all(
        due, now, held, codes, found=len(due) + len(waits), elsewhere=len(set(due) - held_due),
        left=min(waits, default=None),
    )


def _held_not_due(table_id: int, version: int, code: str) -> bool:
    """Whether this process holds the table at ``version`` or later, though not as due then:
    its held copy is paused while the database's row was resumed by hand (the same version),
    or its held version was found behind and is not, or the database lost a version (a
    failover). No held tick fires that deadline, in this process or, most likely, any other."""
    held = cache.newest(table_id)
    return held is not None and held.code == code and held.version >= version


def _fire_all(
    due: list[tuple[int, int]], now: datetime, held: bool, codes: dict[int, str], *,
    found: int, elsewhere: int, left: float | None = None,
) -> Ticked:
    fired = 0
    for table_id, version in due:
        try:
            if fire(table_id, version, now, held=held):
                fired += 1
            elif held:
                _moved_on(table_id, version, codes[table_id])
        except Busy:
            continue  # another process is on it
        except Exception:
            # One broken table must not stop the clock for the others: log, retry later (from
            # the database: a version held here is not tried again; the table may be gone).
            log.exception("the deadline of table %s failed", table_id)
            if held:
                _moved_on(table_id, version, codes[table_id])
            Table.objects.filter(pk=table_id, version=version).update(
                next_deadline=timezone.now() + timedelta(seconds=5)
            )
    return Ticked(fired, found, elsewhere, left)


def next_look(gap: float, ticked: Ticked, poll: float, most: float) -> float:
    """Seconds until the clock asks the database again, after a look that gave ``ticked`` and
    came ``gap`` seconds after the one before: at once while catching up (a full batch), every
    ``poll`` seconds while it finds due deadlines this process does not hold (written
    elsewhere, before a restart, by a process that stopped), else twice the gap, up to
    ``most``: then every table that waits is held here or by another process's clock, and
    each look would be a commit for nothing."""
    if ticked.found >= BATCH:
        return 0.0
    if ticked.elsewhere:
        return poll
    return min(most, max(poll, 2 * gap))


@dataclass
class Looks:
    """When the clock's loop asks the database next (``run_forever``): ``gap`` seconds after
    its last look (``next_look``), sooner when that look left a due deadline to the process
    holding its table (by the time it is no longer left out: nobody may have fired it), and
    within ``poll`` of the last look while this process holds a paused table (resumed in the
    database by hand, without a new version, its deadline is held as due by no process).
    Times are ``time.monotonic()``'s."""

    poll: float
    most: float
    pause: float
    gap: float = 0.0
    looked: float = -math.inf
    soon: float = math.inf

    def due(self, at: float) -> bool:
        """Whether the loop's tick at ``at`` asks the database."""
        if at >= min(self.looked + self.gap, self.soon):
            return True
        return at - self.looked >= self.poll and cache.holds_paused()

    def done(self, at: float, ticked: Ticked) -> None:
        """The tick at ``at`` asked the database and got ``ticked``."""
        self.gap, self.looked = next_look(self.gap, ticked, self.poll, self.most), at
        self.soon = math.inf if ticked.left is None else at + max(self.pause, ticked.left)

    def written_elsewhere(self) -> None:
        """A held version was found behind the database: the next look comes within ``poll``
        of the last."""
        self.gap = min(self.gap, self.poll)


# The held versions (table id, version, code) found behind the database when their deadline
# was fired (another process wrote the table since, or paused it): not fired again from what
# this process holds.
_behind: OrderedDict[tuple[int, int, str], None] = OrderedDict()


# Set when a held version is found behind the database: another process writes that table,
# so the clock's next look in the database comes soon (``run_forever``).
_written_elsewhere = False


def _moved_on(table_id: int, version: int, code: str) -> None:
    global _written_elsewhere
    _written_elsewhere = True
    _behind[(table_id, version, code)] = None
    while len(_behind) > 4096:
        _behind.popitem(last=False)


def _held_due(now: datetime, codes: dict[int, str] | None = None) -> list[tuple[int, int]]:
    """The held tables due at ``now`` and not known to be behind (``codes``: filled with
    their codes)."""
    due = [key for key in cache.due_held(now) if key not in _behind]
    if codes is not None:
        codes.update((table_id, code) for table_id, _version, code in due)
    return [(table_id, version) for table_id, version, _code in due]


def fire(
    table_id: int, version: int, now: datetime | None = None, *, held: bool = False
) -> bool:
    """Fire the deadline table ``table_id`` had at ``version``, if it still has it. ``held``:
    found among the versions this process holds, whose row is used as it is (no query; the
    write path checks it is still the table's); else the row is read (an operator may have
    paused or resumed the table by hand, without a new version)."""
    if held:
        table = cache.table_at(table_id, version)
    else:
        rows = cache.table_by_id(table_id)  # compiled once: the clock fires often
        table = rows[0] if rows and rows[0].version == version else None
    if table is None or not is_due(table, now or timezone.now()):
        return False
    if table.tournament_id is not None and table.deadline_kind == Table.Deadline.NEXT_HAND:
        # A tournament's table deals after the tournament's business: busts,
        # places, moves between its tables, the shared level
        # (tables.write.tournament_between_hands).
        done = between_hands(table.tournament_id, table_id, version)
        if done:
            metrics.deadline_fired(table.deadline_kind)
        return done
    bot_action, bot_reason = _computer_decides(table) if (
        table.deadline_kind == Table.Deadline.BOT
    ) else (None, None)
    # Dealing writes the new hand's row, which is done under the lock: no use trying it on the
    # version held here first.
    held = table.deadline_kind != Table.Deadline.NEXT_HAND
    done = timeouts.fire(table_id, version, now, bot_action, bot_reason, held=held)
    if done:
        metrics.deadline_fired(table.deadline_kind)
    return done


def _computer_decides(table: Table) -> tuple[Action | None, dict[str, Any] | None]:
    """A computer player's action (and, at a learning table, the public part of its reason),
    decided outside the lock: a hard computer player may think a little. One that fails checks
    or folds like a person out of time (``(None, None)``): the table never stalls."""
    try:
        return computer.explained_for(table, explain=reasons.learning_on(table))
    except Exception:
        log.exception("the computer player at table %s could not decide", table.id)
        return None, None


async def run_forever(
    interval: float | None = None, poll: float | None = None, most: float | None = None
) -> None:
    """The clock loop: tick, then sleep (not at all while there is catching up to do). Every
    tick looks at the tables this process holds (their deadlines fire on time without a query)
    and uses the database thread only when one is due. The database is asked for due
    deadlines (a read, a transaction of its own) every ``TABLES_CLOCK_POLL`` seconds while it
    answers with some not held here; while it answers with none, the looks grow apart, up to
    ``TABLES_CLOCK_POLL_MAX`` (``next_look``). The database's answer covers what no process
    here holds (written elsewhere, or before a restart): such a deadline fires at most that
    late, and the table's next ones on time (it is held here once fired). A deadline that came
    due less than a second ago at a table this process does not hold is left out of the
    answer: the process holding the table fires it at its own next tick (``_tick``'s
    ``settle``), and the next look comes by the time it is no longer left out, in case that
    process did not. While this process holds a paused table, the looks stay ``poll`` apart:
    resumed in the database by hand, its deadline is held as due by no process (``Looks``).
    ``poll``, ``most``: ask the database that often instead (a clock of its own, which holds
    few tables, asks at every tick and takes every due deadline at once)."""
    global _written_elsewhere
    pause = interval if interval is not None else settings.TABLES_CLOCK_INTERVAL
    poll = max(pause, poll if poll is not None else settings.TABLES_CLOCK_POLL)
    most = max(poll, most if most is not None else settings.TABLES_CLOCK_POLL_MAX)
    log.info("clock running (every %.2f s, the database every %.2f to %.2f s)",
             pause, poll, most)
    # A deadline due at a table another process holds is left to that process for a moment.
    settle = 0.0 if most <= poll else max(1.0, 4 * pause)
    looks = Looks(poll, most, pause)
    while True:
        started = time.monotonic()
        if _written_elsewhere:
            _written_elsewhere = False
            looks.written_elsewhere()
        held = not looks.due(started)
        try:
            if held and not _held_due(timezone.now()):
                fired = 0
            else:
                ticked = await write_then_notify(_tick, held=held, settle=settle)
                fired = ticked.fired
                if not held:
                    looks.done(started, ticked)
        except Exception:
            log.exception("clock tick failed")
            fired = 0
        await asyncio.sleep(0 if fired else pause)


_task: asyncio.Task[None] | None = None


def start_in_process() -> None:
    """Start the clock in this process's running event loop, once."""
    global _task
    if not settings.TABLES_CLOCK_IN_SERVER:
        return
    if _task is not None and not _task.done():
        return
    _task = asyncio.get_running_loop().create_task(run_forever())
