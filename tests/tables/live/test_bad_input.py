"""Bad input over the websocket: each gets a clear error and the table does not change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tables.models import Table
from tables.write import lobby
from tests.tables.helpers.driver import build

pytestmark = pytest.mark.django_db(transaction=True)


def action(**fields: Any) -> dict[str, Any]:
    return {"type": "action", "kind": "call", "version": "VERSION", "action_id": "bad-1", **fields}


# (what is sent, the error code it must get)
CASES: list[tuple[str, object, str]] = [
    ("malformed JSON", '{"type": "action", "kind": ', "bad_json"),
    ("not JSON at all", "fold please", "bad_json"),
    ("deeply nested JSON", "[" * 2000 + "]" * 2000, "bad_json"),
    ("a list instead of an object", "[1, 2, 3]", "bad_message"),
    ("a bare number", "17", "bad_message"),
    ("no type", {"kind": "fold"}, "unknown_type"),
    ("unknown type", {"type": "steal_chips"}, "unknown_type"),
    ("type of the wrong type", {"type": ["action"]}, "unknown_type"),
    ("unknown action", action(kind="steal"), "unknown_action"),
    ("action kind of the wrong type", action(kind=3), "unknown_action"),
    ("missing action id", action(action_id=None), "bad_action_id"),
    ("action id too long", action(action_id="x" * 65), "bad_action_id"),
    ("action id with odd characters", action(action_id="<script>"), "bad_action_id"),
    ("missing version", action(version=None), "bad_version"),
    ("version as text", action(version="seventeen"), "bad_version"),
    ("version as a list", action(version=[1]), "bad_version"),
    ("negative version", action(version=-3), "bad_version"),
    ("huge amount", action(kind="raise", amount=10**30), "bad_amount"),
    ("huge float amount", action(kind="raise", amount=1e300), "bad_amount"),
    ("negative amount", action(kind="raise", amount=-50), "bad_amount"),
    ("fractional amount", action(kind="raise", amount=40.5), "bad_amount"),
    ("fractional amount as text", action(kind="raise", amount="40.5"), "bad_amount"),
    ("amount as a word", action(kind="raise", amount="lots"), "bad_amount"),
    ("amount as a boolean", action(kind="raise", amount=True), "bad_amount"),
    ("amount as an object", action(kind="raise", amount={"to": 40}), "bad_amount"),
    ("zero amount", action(kind="raise", amount=0), "bad_amount"),
    ("seat out of range", action(seat=9), "bad_seat"),
    ("seat as a word", action(seat="mine"), "bad_seat"),
    ("oversize frame", json.dumps(action(pad="x" * 5000)), "too_big"),
    ("reveal another phone's seat", {"type": "reveal", "seat": "OTHER"}, "not_your_seat"),
    ("someone else's seat", action(seat="OTHER"), "not_your_seat"),
    ("a raise below the minimum", action(kind="raise", amount=21), "below_minimum"),
    ("a raise above the stack", action(kind="raise", amount=5000), "above_stack"),
    ("a check facing a bet", action(kind="check"), "cannot_check"),
]


def _fill(message: object, version: int, other_seat: int) -> str:
    if isinstance(message, str):
        return message
    assert isinstance(message, dict)
    filled = {
        key: version if value == "VERSION" else other_seat if value == "OTHER" else value
        for key, value in message.items()
        if value is not None
    }
    return json.dumps(filled)


def _table_state(table_id: int) -> tuple[int, Any, str]:
    row = Table.objects.values_list("version", "state", "next_deadline").get(pk=table_id)
    return row[0], row[1], str(row[2])


async def table_state(table_id: int) -> tuple[int, Any, str]:
    state: tuple[int, Any, str] = await database_sync_to_async(_table_state)(table_id)
    return state


@pytest.mark.parametrize(("case", "message", "code"), CASES, ids=[c[0] for c in CASES])
async def test_bad_input_gets_an_error_and_changes_nothing(
    case: str, message: object, code: str
) -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2), calm=True)
    # Wait for a person's turn so that a valid action would have changed something.
    for _ in range(50):
        frames = [p.phone.frames[-1] for p in driver.persons]
        if any(f.data.get("legal") for f in frames):
            break
        await driver.step()
    person = next(p for p in driver.persons if p.phone.frames[-1].data.get("legal"))
    other_seat = next(s for p in driver.persons if p is not person for s in p.seats)
    frame = person.phone.frames[-1]
    before = await table_state(driver.table.id)
    await person.phone.send(_fill(message, frame.version, other_seat))
    reply = await person.phone.next()
    assert reply.is_notice_only, case
    assert reply.notice_code == code, (case, reply.text)
    assert 'data-kind="error"' in reply.text and 'role="alert"' in reply.text
    assert await table_state(driver.table.id) == before
    for phone in driver.phones:
        assert await phone.quiet()
    await driver.close()


async def test_a_binary_frame_gets_an_error_and_changes_nothing() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2))
    phone = driver.persons[0].phone
    before = await table_state(driver.table.id)
    await phone.comm.send_to(bytes_data=b"\x00\x01")
    reply = await phone.next()
    assert reply.notice_code == "binary"
    assert await table_state(driver.table.id) == before
    await driver.close()
