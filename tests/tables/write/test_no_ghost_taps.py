"""No ghost taps (issue 24): every tap that cannot count says so, and nothing else changes.

A double tap, a tap on a stale frame, a tap that loses the race with the seat's own time-out,
and a phone coming back after a drop asking what became of its last tap: each gets a readable
notice; the table's version moves on at most once per action.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tables import clock
from tables.models import Table
from tables.write import lobby as lobby_flows
from tests.tables.helpers import Frame, Phone
from tests.tables.helpers.driver import Driver, Person, build

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _safe(frame: Frame) -> str:
    return "check" if frame.data["legal"]["check"] else "fold"


async def _version(table_id: int) -> int:
    version = await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table_id)
    )()
    return int(version)


async def _time_out(table_id: int, version: int) -> None:
    """P1: the seat's time runs out (the clock fires the deadline as if it were long past)."""
    fired = await database_sync_to_async(clock.fire)(
        table_id, version, timezone.now() + timedelta(hours=1)
    )
    assert fired


async def _seated_again(driver: Driver, person: Person) -> Phone:
    """The same phone (session) on a new socket: a phone back after its connection dropped."""
    phone = Phone(driver.table.code, person.session.session_key)
    await phone.connect()
    return phone


async def test_a_double_tap_counts_once_and_the_second_tap_is_told_so() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    tap = {"type": "action", "kind": _safe(frame), "version": frame.version, "action_id": "t-1"}
    await person.phone.send(tap)
    await person.phone.send(tap)
    notice = await person.phone.until_notice("already_counted")
    assert "already counted once" in notice.text
    assert await _version(driver.table.id) == frame.version + 1
    await driver.close()


async def test_a_tap_on_a_stale_frame_is_refused_with_the_table_as_it_is_now() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    # The frame the phone still shows after the table moved on (here: one version back).
    await person.phone.send(
        {"type": "action", "kind": "fold", "version": frame.version - 1, "action_id": "t-2"}
    )
    reply = await person.phone.until_notice("stale")
    assert "The table moved on" in reply.text and reply.version == frame.version
    assert await _version(driver.table.id) == frame.version
    await driver.close()


async def test_p1_a_tap_that_races_the_time_out_is_told_the_time_ran_out() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    kind = _safe(frame)
    await _time_out(driver.table.id, frame.version)
    after = await _version(driver.table.id)
    assert after == frame.version + 1
    await person.phone.send(
        {"type": "action", "kind": "call", "version": frame.version, "action_id": "t-3"}
    )
    reply = await person.phone.until_notice("too_late")
    word = "checked for you" if kind == "check" else "folded your hand"
    assert "Too late: your time ran out" in reply.text and word in reply.text
    assert await _version(driver.table.id) == after  # the late tap changed nothing
    await driver.close()


async def test_a_phone_back_after_a_drop_learns_its_last_tap_counted() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    await person.phone.send(
        {"type": "action", "kind": _safe(frame), "version": frame.version, "action_id": "t-4"}
    )
    await person.phone.until_version(frame.version + 1)
    back = await _seated_again(driver, person)
    seat = frame.data["legal"]["seat"]
    await back.send(
        {"type": "sync", "action_id": "t-4", "version": frame.version, "seat": seat}
    )
    reply = await back.until_notice("pending_applied")
    assert "reached the table and counted" in reply.text
    await back.close()
    await driver.close()


async def test_a_phone_back_after_a_drop_learns_its_last_tap_never_arrived() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    back = await _seated_again(driver, person)
    seat = frame.data["legal"]["seat"]
    # The tap went into a socket that was already dead: the server never saw it.
    await back.send({"type": "sync", "action_id": "t-5", "version": frame.version, "seat": seat})
    reply = await back.until_notice("pending_lost")
    assert "did not reach the table" in reply.text
    assert await _version(driver.table.id) == frame.version  # and it is still their turn
    await back.close()
    await driver.close()


async def test_p1_a_phone_back_after_a_drop_learns_its_time_ran_out_meanwhile() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    seat = frame.data["legal"]["seat"]
    await _time_out(driver.table.id, frame.version)
    back = await _seated_again(driver, person)
    await back.send({"type": "sync", "action_id": "t-6", "version": frame.version, "seat": seat})
    reply = await back.until_notice("too_late")
    assert "your time ran out" in reply.text
    await back.close()
    await driver.close()


async def test_a_ping_is_answered_with_pong_and_changes_nothing() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, frame = await driver.until_a_person_acts()
    await person.phone.send({"type": "ping"})
    assert (await person.phone.next()).text == "pong"
    assert await _version(driver.table.id) == frame.version
    await driver.close()


async def test_a_sync_with_a_malformed_action_id_is_refused_readably() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    person, _frame = await driver.until_a_person_acts()
    await person.phone.send({"type": "sync", "action_id": "<script>", "version": 1})
    reply = await person.phone.until_notice("bad_action_id")
    assert reply.is_notice_only
    await driver.close()
