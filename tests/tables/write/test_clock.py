"""The clock: computer players' pauses, time-outs, away players, the next deal, exactly once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import LazySettings
from django.utils import timezone

from engine.game import Game
from tables import claims, clock
from tables.models import Seat, Table
from tables.write import lobby, play
from tests.tables.helpers import NewPhone, first_person_turn, game_of
from tests.tables.helpers.driver import seat_people, seat_people_now

pytestmark = pytest.mark.django_db


def started(names: list[list[str]], seats: int = 3) -> tuple[Table, list[Any]]:
    return seat_people_now(names, lobby.TableSettings(seat_count=seats))


def state(table_id: int) -> tuple[Table, Game]:
    table = Table.objects.get(pk=table_id)
    return table, game_of(table)


def _tick_until_deadline(table: Table, kind: str, later: datetime, tries: int) -> Table:
    """Fire what is due at ``later`` until the table's next deadline is of ``kind`` (at most
    ``tries`` times): the table's row then."""
    for _ in range(tries):
        row = Table.objects.get(pk=table.id)
        if row.deadline_kind == kind:
            break
        clock.tick(later)
    return row


def test_p2_computer_players_act_only_after_their_pause(
    settings: LazySettings, new_phone: NewPhone,
) -> None:
    settings.TABLES_BOT_PAUSE = (1.5, 1.5)
    table = lobby.create_table(
        new_phone(), ["Asha"], lobby.TableSettings(seat_count=4), Table.Mode.COMPUTER
    )
    table.refresh_from_db()
    if table.deadline_kind != Table.Deadline.BOT:
        first_person_turn(table.id)
        return  # the person acts first this deal; covered by the other tests
    due = table.next_deadline
    assert due is not None
    assert clock.tick(due - timedelta(seconds=0.5)) == 0
    assert Table.objects.get(pk=table.id).version == table.version
    assert clock.tick(due) == 1
    assert Table.objects.get(pk=table.id).version == table.version + 1


def test_p1_a_person_out_of_time_checks_when_possible_else_folds() -> None:
    table, _sessions = started([["Asha"], ["Bikash"]], seats=2)
    _version, seat = first_person_turn(table.id)
    row, game = state(table.id)
    assert row.deadline_kind == Table.Deadline.TURN
    assert row.next_deadline is not None
    legal = game.hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    # Not yet: the person still has time.
    assert clock.tick(row.next_deadline - timedelta(seconds=1)) == 0
    assert clock.tick(row.next_deadline + timedelta(seconds=1)) == 1
    _row, game = state(table.id)
    last = game.hand.actions[-1]  # type: ignore[union-attr]
    assert last.seat == seat
    assert last.kind == ("check" if legal.can_check else "fold")
    assert Seat.objects.get(table=table, position=seat).timeouts_in_row == 1


def test_p1_two_time_outs_in_a_row_mark_a_person_away_until_any_tap() -> None:
    table, sessions = started([["Asha"], ["Bikash"]], seats=2)
    later = timezone.now() + timedelta(minutes=5)
    seat = None
    for _ in range(100):
        row = Table.objects.get(pk=table.id)
        away = list(Seat.objects.filter(table=table, away=True))
        if away:
            seat = away[0]
            break
        clock.tick(later)
    assert seat is not None and seat.timeouts_in_row == 2
    # While away, their turns are played at once (after the short away pause).
    for _ in range(100):
        row = Table.objects.get(pk=table.id)
        game = game_of(row)
        if game.hand_running and game.hand.seat_to_act == seat.position:  # type: ignore[union-attr]
            break
        clock.tick(later)
    assert row.deadline_kind == Table.Deadline.AWAY
    assert row.next_deadline is not None and row.next_deadline <= timezone.now()
    # Any tap brings them back: their turn gets the full time again.
    session = sessions[seat.position]
    assert play.come_back(table.id, [seat.position])
    row = Table.objects.get(pk=table.id)
    assert row.deadline_kind == Table.Deadline.TURN
    assert row.next_deadline is not None
    assert row.next_deadline > timezone.now() + timedelta(seconds=20)
    seat.refresh_from_db()
    assert (seat.away, seat.timeouts_in_row) == (False, 0)
    assert claims.session_hashes(session)  # (the session still owns the seat)


def test_the_next_hand_waits_long_enough_to_see_the_result(settings: LazySettings) -> None:
    settings.TABLES_NEXT_HAND_PAUSE = 5.0
    table, _sessions = started([["Asha"], ["Bikash"]], seats=2)
    later = timezone.now() + timedelta(minutes=5)
    row = _tick_until_deadline(table, Table.Deadline.NEXT_HAND, later, 100)
    assert row.next_deadline is not None
    wait = (row.next_deadline - row.updated_at).total_seconds()
    assert 4.5 <= wait <= 5.5
    assert clock.tick(row.next_deadline - timedelta(seconds=1)) == 0
    assert clock.tick(row.next_deadline) == 1
    assert game_of(Table.objects.get(pk=table.id)).hand_number == 2


def test_a_deadline_fires_once_however_often_it_is_fired() -> None:
    table, _sessions = started([["Asha"]], seats=3)
    row = Table.objects.get(pk=table.id)
    later = timezone.now() + timedelta(minutes=5)
    assert clock.fire(row.id, row.version, later)
    assert not clock.fire(row.id, row.version, later)  # a second clock saw the same deadline
    assert Table.objects.get(pk=table.id).version == row.version + 1


def test_a_deadline_that_passed_while_the_server_was_down_fires_at_the_first_tick() -> None:
    table, _sessions = started([["Asha"]], seats=3)
    Table.objects.filter(pk=table.id).update(next_deadline=timezone.now() - timedelta(hours=2))
    row = Table.objects.get(pk=table.id)
    assert clock.tick() == 1
    assert Table.objects.get(pk=table.id).version == row.version + 1


def test_a_paused_table_waits() -> None:
    table, _sessions = started([["Asha"]], seats=3)
    Table.objects.filter(pk=table.id).update(paused=True)
    assert clock.tick(timezone.now() + timedelta(hours=1)) == 0


def test_a_person_acting_in_time_moves_the_deadline_on() -> None:
    table, sessions = started([["Asha"], ["Bikash"]], seats=2)
    version, seat = first_person_turn(table.id)
    _row, game = state(table.id)
    legal = game.hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    kind = "check" if legal.can_check else "call"
    outcome = play.act(
        table.id, claims.session_hashes(sessions[seat]), kind=kind, amount=None,
        version=version, action_id="in-time",
    )
    assert outcome.applied
    # The old deadline (at the old version) no longer fires.
    assert not clock.fire(table.id, version, timezone.now() + timedelta(minutes=5))


@pytest.mark.django_db(transaction=True)
async def test_the_clock_loop_fires_deadlines_on_its_own() -> None:
    table, _sessions = await seat_people([["Asha"]], lobby.TableSettings(seat_count=3))

    def overdue() -> int:
        past = timezone.now() - timedelta(seconds=1)
        Table.objects.filter(pk=table.id).update(next_deadline=past)
        return Table.objects.get(pk=table.id).version

    version = await database_sync_to_async(overdue)()
    task = asyncio.ensure_future(clock.run_forever(0.01))
    try:
        bound = time.monotonic() + 60  # a bound for a loaded machine, not a pace
        current = version
        while current <= version and time.monotonic() < bound:
            await asyncio.sleep(0.01)
            current = await database_sync_to_async(
                lambda: Table.objects.get(pk=table.id).version
            )()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        # A tick the cancel caught mid-write runs on to its end (write_then_notify shields it),
        # on the one database thread: wait for it there before the database is torn down (it
        # met the teardown once: "database table is locked").
        await database_sync_to_async(lambda: None)()
    assert current > version


def test_a_computer_player_that_fails_checks_or_folds_instead(
    monkeypatch: pytest.MonkeyPatch, new_phone: NewPhone,
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("bug in a computer player")

    monkeypatch.setattr("tables.computer.decide", broken)
    table = lobby.create_table(
        new_phone(), ["Asha"], lobby.TableSettings(seat_count=4), Table.Mode.COMPUTER
    )
    later = timezone.now() + timedelta(minutes=5)
    row = _tick_until_deadline(table, Table.Deadline.BOT, later, 20)
    assert row.deadline_kind == Table.Deadline.BOT
    assert clock.tick(later) == 1
    hand = game_of(Table.objects.get(pk=table.id)).hand
    assert hand is not None and hand.actions[-1].kind in ("check", "fold")


def test_the_runclock_command_fires_what_is_due() -> None:
    from io import StringIO

    from django.core.management import call_command

    table, _sessions = started([["Asha"]], seats=3)
    Table.objects.filter(pk=table.id).update(next_deadline=timezone.now() - timedelta(seconds=1))
    out = StringIO()
    call_command("runclock", "--once", stdout=out)
    assert "fired 1 deadline(s)" in out.getvalue()
