"""The clock between its looks in the database: the deadlines of the tables this process holds
fire without a query; a held version the database moved past is fired at most once from here."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import LazySettings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import cache, clock
from tables.models import Table
from tests.tables.helpers import computer_turn

pytestmark = pytest.mark.django_db





async def _version_after_loop(row: Table, **looks: float) -> int:
    """Run the clock's loop (a tick every 10 ms, the database looked at as ``looks`` say)
    until the table's version moves on from ``row``'s (or a minute: a bound for a loaded
    machine, not a pace); the version then."""
    task = asyncio.ensure_future(clock.run_forever(0.01, **looks))
    try:
        bound = time.monotonic() + 60
        current = row.version
        while current <= row.version and time.monotonic() < bound:
            await asyncio.sleep(0.02)
            current = await database_sync_to_async(
                lambda: Table.objects.get(pk=row.id).version
            )()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await database_sync_to_async(lambda: None)()  # a write the cancel caught runs on
    return current


def test_p2_a_held_tables_computer_player_acts_without_the_table_being_read() -> None:
    row = computer_turn()
    assert row.next_deadline is not None
    assert clock.tick(row.next_deadline - timedelta(seconds=0.5), held=True) == 0
    with CaptureQueriesContext(connection) as queries:
        assert clock.tick(row.next_deadline + timedelta(seconds=0.1), held=True) == 1
    sent = [q["sql"].split(None, 1)[0].upper() for q in queries]
    assert sent == ["UPDATE"]  # found, decided and written from the version held: one statement
    assert Table.objects.get(pk=row.id).version == row.version + 1


def test_a_held_version_behind_the_database_is_not_fired_and_not_tried_again() -> None:
    row = computer_turn()
    assert row.next_deadline is not None
    # Another process wrote the table since (here by hand: a new version this process does
    # not hold, its deadline still due).
    Table.objects.filter(pk=row.id).update(version=row.version + 1)
    later = row.next_deadline + timedelta(seconds=0.1)
    assert clock.tick(later, held=True) == 0
    assert Table.objects.get(pk=row.id).version == row.version + 1
    with CaptureQueriesContext(connection) as queries:
        assert clock.tick(later, held=True) == 0
    assert len(queries) == 0  # known to be behind: not tried again from what is held
    # The database's answer fires it.
    assert clock.tick(later) == 1
    assert Table.objects.get(pk=row.id).version == row.version + 2


@pytest.mark.django_db(transaction=True)
async def test_the_clock_loop_fires_a_held_deadline_between_its_looks_in_the_database(
    settings: LazySettings,
) -> None:
    settings.TABLES_BOT_PAUSE = (3.0, 3.0)  # due after the loop's first look in the database
    row = await database_sync_to_async(computer_turn)()
    # One look in the database when the loop starts (nothing due yet), none for an hour after.
    assert await _version_after_loop(row, poll=3600) > row.version


def test_a_table_resumed_by_hand_fires_from_the_databases_row_not_the_held_one() -> None:
    """An operator may pause or resume a table in the database by hand, without a new version:
    the clock's look in the database fires from the row as it is there."""
    row = computer_turn()
    assert row.next_deadline is not None
    Table.objects.filter(pk=row.id).update(paused=True)
    held = cache.load_snapshot(row.id, check_cache=False)  # this process holds it paused
    assert held is not None and held.paused and held.version == row.version
    Table.objects.filter(pk=row.id).update(paused=False)  # resumed by hand, same version
    later = row.next_deadline + timedelta(seconds=0.1)
    assert clock.tick(later, held=True) == 0  # the held version is paused: nothing fires
    assert clock.tick(later) == 1
    assert Table.objects.get(pk=row.id).version == row.version + 1


def test_a_held_table_that_is_gone_is_logged_once_and_not_tried_again_from_memory(
    caplog: pytest.LogCaptureFixture,
) -> None:
    row = computer_turn()
    assert row.next_deadline is not None
    Table.objects.filter(pk=row.id).delete()  # deleted by staff while this process held it
    later = row.next_deadline + timedelta(seconds=0.1)
    with caplog.at_level("ERROR", logger="tables.clock"):
        assert clock.tick(later, held=True) == 0
        assert clock.tick(later, held=True) == 0
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failed) == 1  # the second look found nothing to fire in memory


def test_the_looks_in_the_database_grow_apart_while_they_find_only_held_deadlines() -> None:
    poll, most = 1.0, 8.0
    nothing = clock.Ticked(0)
    gaps = [0.0]
    for _ in range(6):
        gaps.append(clock.next_look(gaps[-1], nothing, poll, most))
    assert gaps[1:] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    # Due deadlines all held here (fired by the looks at what is held anyway): still apart.
    assert clock.next_look(4.0, clock.Ticked(2, found=2), poll, most) == 8.0
    # One due deadline this process does not hold: back to a look a second.
    assert clock.next_look(8.0, clock.Ticked(1, found=2, elsewhere=1), poll, most) == 1.0
    # A full batch: catching up, ask again at once.
    assert clock.next_look(8.0, clock.Ticked(0, found=clock.BATCH), poll, most) == 0.0


def test_a_look_in_the_database_counts_the_due_deadlines_not_held_here() -> None:
    row = computer_turn()
    assert row.next_deadline is not None
    later = row.next_deadline + timedelta(seconds=0.1)
    ticked = clock._tick(later)
    assert (ticked.fired, ticked.found, ticked.elsewhere) == (1, 1, 0)  # held here
    row = Table.objects.get(pk=row.id)
    assert row.next_deadline is not None and row.deadline_kind
    cache.forget_all()  # as a process that never held the table (or a new one after a restart)
    ticked = clock._tick(row.next_deadline + timedelta(seconds=0.1))
    assert (ticked.fired, ticked.found, ticked.elsewhere) == (1, 1, 1)


@pytest.mark.django_db(transaction=True)
async def test_the_loop_fires_a_deadline_no_process_holds_between_spaced_looks(
    settings: LazySettings,
) -> None:
    """The looks in the database have grown apart (nothing due but what is held); a table
    nobody holds comes due: a later look fires it."""
    settings.TABLES_BOT_PAUSE = (0.6, 0.6)
    row = await database_sync_to_async(computer_turn)()
    await database_sync_to_async(cache.forget_all)()  # held by no process
    assert await _version_after_loop(row, poll=0.05, most=0.4) > row.version


def test_a_look_in_the_database_leaves_a_just_due_deadline_to_the_process_holding_it() -> None:
    row = computer_turn()
    assert row.next_deadline is not None
    cache.forget_all()  # held by another process, not this one
    just = row.next_deadline + timedelta(seconds=0.3)
    ticked = clock._tick(just, settle=1.0)
    assert (ticked.fired, ticked.found, ticked.elsewhere) == (0, 1, 0)  # left to its holder
    assert Table.objects.get(pk=row.id).version == row.version
    ticked = clock._tick(row.next_deadline + timedelta(seconds=1.5), settle=1.0)
    assert (ticked.fired, ticked.elsewhere) == (1, 1)  # nobody fired it: this clock does
    assert Table.objects.get(pk=row.id).version == row.version + 1


def test_a_look_in_the_database_fires_at_once_what_this_process_holds() -> None:
    row = computer_turn()  # held here
    assert row.next_deadline is not None
    ticked = clock._tick(row.next_deadline + timedelta(seconds=0.3), settle=1.0)
    assert (ticked.fired, ticked.found, ticked.elsewhere) == (1, 1, 0)
