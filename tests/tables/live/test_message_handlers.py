"""One way to answer a phone: every message type the protocol lets through has exactly one
handler, in exactly one family's table, and the consumer has no other way in."""

from __future__ import annotations

import inspect

import pytest

from tables.live import consumer, host, out, playing, sight, talk
from tables.live.protocol import TYPES
from tables.write.lobby import TableSettings
from tables.write.path import Refused
from tests.tables.helpers import Phone
from tests.tables.helpers.driver import seat_people


def test_every_message_type_has_one_handler_in_one_family() -> None:
    families = [playing.HANDLERS, talk.HANDLERS, host.HANDLERS, sight.HANDLERS, out.HANDLERS]
    claimed = [kind for family in families for kind in family]
    assert sorted(claimed) == sorted(TYPES)  # none missing, none in two families
    assert set(consumer.HANDLERS) == set(TYPES)
    for kind, handler in consumer.HANDLERS.items():
        assert inspect.iscoroutinefunction(handler), kind
        assert list(inspect.signature(handler).parameters) == ["consumer", "message"], kind


def test_the_consumer_answers_the_phone_through_its_table_alone() -> None:
    methods = [name for name, _ in inspect.getmembers(consumer.TableConsumer)]
    assert not [name for name in methods if name.startswith("on_")]


@pytest.mark.django_db(transaction=True)
async def test_a_refusal_from_any_handler_is_told_to_the_phone_and_the_socket_stays_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A handler refuses by raising Refused; the consumer tells that phone, whichever family
    the handler is in, and goes on answering it."""
    table, sessions = await seat_people([["Asha"], ["Bikash"]], TableSettings(seat_count=3))
    phone = Phone(table.code, str(sessions[0].session_key))
    await phone.connect()

    async def refuse(connection: object, message: object) -> None:
        raise Refused("not_now", "Not now.")

    monkeypatch.setitem(consumer.HANDLERS, "hide", refuse)
    await phone.send({"type": "hide"})
    frame = await phone.until_notice("not_now")
    assert frame.is_notice_only and "Not now." in frame.text
    assert await phone.quiet()  # still answered
    await phone.close()
