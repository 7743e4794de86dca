"""The clock's looks in the database, spaced out while every due deadline is held here
(``TABLES_CLOCK_POLL_MAX``), at a table two processes share: a deadline still fires within
about ``TABLES_CLOCK_POLL`` of coming due when no process's held tick fires it.

The loop runs on a time of the test's own, moved on only by the loop's sleeps: which tick
looks in the database, and when a deadline fires, is the same on any machine.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import LazySettings
from django.utils import timezone

from tables import cache, clock
from tables.models import Table
from tests.tables.helpers import computer_turn

pytestmark = pytest.mark.django_db

PAUSE, POLL, MOST = 0.25, 1.0, 8.0  # a tick, the looks' least and most gap (seconds)
SETTLE = 1.0  # a just-due deadline at a table held elsewhere is left to its holder this long


class Enough(Exception):
    """The test's time is up: ends the clock's loop."""


@dataclass
class Look:
    at: float  # seconds of the test's time
    held: bool  # only the versions held here, or the database too
    ticked: clock.Ticked


@dataclass
class LoopTime:
    """The clock loop's time (monotonic and wall), moved on only by its sleeps; ``then`` runs
    a change (in the database thread, the loop waiting) once the time reaches its second."""

    start: datetime
    end: float
    until_fired: bool = True
    running: bool = False  # the loop's ticks are recorded, not the test's own
    now: float = 0.0
    then: dict[float, Callable[[], None]] = field(default_factory=dict)
    looks: list[Look] = field(default_factory=list)

    def wall(self) -> datetime:
        return self.start + timedelta(seconds=self.now)

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        for second in sorted(s for s in self.then if s <= self.now):
            await database_sync_to_async(self.then.pop(second))()
        if self.now >= self.end or (self.until_fired and self.fired):
            raise Enough
        await asyncio.sleep(0)

    @property
    def fired(self) -> list[Look]:
        return [look for look in self.looks if look.ticked.fired]

    @property
    def in_database(self) -> list[float]:
        return [look.at for look in self.looks if not look.held]


@pytest.fixture
def loop_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopTime]:
    """The clock module's time is the test's; every tick is recorded."""
    time = LoopTime(start=timezone.now(), end=60.0)
    monkeypatch.setattr(clock, "time", SimpleNamespace(monotonic=lambda: time.now))
    monkeypatch.setattr(clock, "timezone", SimpleNamespace(now=time.wall))
    monkeypatch.setattr(clock, "asyncio", SimpleNamespace(sleep=time.sleep))
    monkeypatch.setattr(clock, "_written_elsewhere", False)
    monkeypatch.setattr(clock, "_behind", type(clock._behind)())
    tick = clock._tick

    def recorded(*args: Any, **kwargs: Any) -> clock.Ticked:
        ticked = tick(*args, **kwargs)
        if time.running:
            time.looks.append(Look(time.now, kwargs.get("held", False), ticked))
        return ticked

    monkeypatch.setattr(clock, "_tick", recorded)
    yield time


async def _run(time: LoopTime) -> None:
    """The clock's loop as a server process runs it, spaced looks on, until the first
    deadline fires (``until_fired``) or the test's time is up."""
    time.running = True
    with contextlib.suppress(Enough):
        await clock.run_forever(PAUSE, poll=POLL, most=MOST)
    await database_sync_to_async(lambda: None)()  # nothing of the loop's left in the thread





@pytest.fixture(autouse=True)
def computers_think_an_hour(settings: LazySettings) -> None:
    settings.TABLES_BOT_PAUSE = (3600.0, 3600.0)


def _version(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


@pytest.mark.django_db(transaction=True)
async def test_a_paused_shared_table_resumed_by_hand_fires_within_a_look_of_its_deadline(
    loop_time: LoopTime,
) -> None:
    """The two-process test's start: both processes hold the table paused (their phones
    loaded it), then an operator resumes it in the database by hand, the same version, with a
    deadline half a second on. No process holds that deadline as due: only a look in the
    database fires it, and the looks had spaced out (nothing else was due)."""
    row = await database_sync_to_async(computer_turn)()

    def paused_and_held() -> None:
        Table.objects.filter(pk=row.id).update(paused=True)
        held = cache.load_snapshot(row.id, check_cache=False)  # a phone here draws it
        assert held is not None and held.paused and held.version == row.version

    await database_sync_to_async(paused_and_held)()
    resumed, due = 20.0, 20.5

    def resume() -> None:
        Table.objects.filter(pk=row.id).update(
            paused=False, next_deadline=loop_time.wall() + timedelta(seconds=due - resumed)
        )

    loop_time.then[resumed] = resume
    await _run(loop_time)

    assert loop_time.fired, "the resumed table's deadline never fired"
    fired = loop_time.fired[0]
    assert not fired.held  # from the database's row: the held copy is paused
    assert fired.at - due <= POLL + PAUSE, f"fired {fired.at - due:.2f} s late"
    assert await database_sync_to_async(_version)(row.id) == row.version + 1


@pytest.mark.django_db(transaction=True)
async def test_a_deadline_left_to_the_process_that_wrote_it_is_fired_here_if_it_did_not(
    loop_time: LoopTime,
) -> None:
    """Another process wrote a new version (this one holds the one before: behind), and the
    look here finds its deadline just due: left to that process, whose held tick should fire
    it. It did not (stopped, or its hold is stale): the next look here, a second on at most,
    fires it, not the next spaced one."""
    row = await database_sync_to_async(computer_turn)()
    written, due = 14.75, 14.75  # due just before the look at 15 s (looks: 0, 1, 3, 7, 15)

    def written_elsewhere() -> None:
        Table.objects.filter(pk=row.id).update(
            version=row.version + 1, next_deadline=loop_time.wall()
        )

    loop_time.then[written] = written_elsewhere
    await _run(loop_time)

    assert loop_time.in_database[:5] == [0.0, 1.0, 3.0, 7.0, 15.0]  # spaced out
    left = loop_time.looks[[look.at for look in loop_time.looks].index(15.0)].ticked
    assert (left.fired, left.found) == (0, 1)  # left to the process that holds it
    assert loop_time.fired, "the deadline left to the other process never fired"
    fired = loop_time.fired[0]
    assert fired.at - due <= SETTLE + PAUSE, f"fired {fired.at - due:.2f} s late"
    assert await database_sync_to_async(_version)(row.id) == row.version + 2


@pytest.mark.django_db(transaction=True)
async def test_the_looks_still_space_out_while_the_due_deadlines_are_held_here(
    loop_time: LoopTime,
) -> None:
    """The saving kept: a table held here, not paused, nothing due elsewhere; its deadline
    fires from the held version at its tick, and the database is asked 1, 2, 4, then 8 s
    apart."""
    row = await database_sync_to_async(computer_turn)()
    due = 10.0

    def moved_by_this_process() -> None:
        # As a change written here would: the new deadline held here (no by-hand change).
        Table.objects.filter(pk=row.id).update(next_deadline=loop_time.start)
        held = cache.load_snapshot(row.id, check_cache=False)
        assert held is not None and held.next_deadline == loop_time.start

    await database_sync_to_async(moved_by_this_process)()
    loop_time.start -= timedelta(seconds=due)  # that deadline comes due 10 s into the run
    loop_time.end, loop_time.until_fired = 40.0, False
    await _run(loop_time)

    assert loop_time.fired and loop_time.fired[0].held  # fired from what is held
    assert loop_time.fired[0].at == due
    assert loop_time.in_database == [0.0, 1.0, 3.0, 7.0, 15.0, 23.0, 31.0, 39.0]


def test_a_look_fires_at_once_a_deadline_held_here_paused_and_resumed_by_hand(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Not left a second to another process: every process holding that version holds it
    paused, so no held tick fires it."""
    row = computer_turn()
    Table.objects.filter(pk=row.id).update(paused=True)
    assert cache.load_snapshot(row.id, check_cache=False) is not None  # held here paused
    assert cache.holds_paused()
    now = timezone.now()
    Table.objects.filter(pk=row.id).update(paused=False, next_deadline=now)  # by hand
    with django_capture_on_commit_callbacks(execute=True):
        ticked = clock._tick(now + timedelta(seconds=0.3), settle=SETTLE)
    assert (ticked.fired, ticked.found, ticked.elsewhere, ticked.left) == (1, 1, 1, None)
    assert Table.objects.get(pk=row.id).version == row.version + 1
    assert not cache.holds_paused()  # the new version, written here, is held as it is


def test_a_look_leaves_a_just_due_deadline_to_the_process_that_wrote_it_and_says_for_how_long(
) -> None:
    row = computer_turn()
    now = timezone.now()
    # Another process wrote a new version (this one holds the one before).
    Table.objects.filter(pk=row.id).update(version=row.version + 1, next_deadline=now)
    ticked = clock._tick(now + timedelta(seconds=0.25), settle=SETTLE)
    assert (ticked.fired, ticked.found, ticked.elsewhere, ticked.left) == (0, 1, 0, 0.75)
    looks = clock.Looks(POLL, MOST, PAUSE, gap=4.0, looked=100.0)
    looks.done(100.0, ticked)
    assert looks.gap == MOST  # still spaced out
    assert not looks.due(100.5) and looks.due(100.75)  # but back for that deadline
