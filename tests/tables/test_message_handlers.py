"""One way to answer a phone: every message type the protocol lets through has exactly one
handler, in exactly one family's table, and the consumer has no other way in."""

from __future__ import annotations

import inspect

from tables.live import consumer, host, playing, talk
from tables.live.protocol import TYPES


def test_every_message_type_has_one_handler_in_one_family() -> None:
    families = [playing.HANDLERS, talk.HANDLERS, host.HANDLERS]
    claimed = [kind for family in families for kind in family]
    assert sorted(claimed) == sorted(TYPES)  # none missing, none in two families
    assert set(consumer.HANDLERS) == set(TYPES)
    for kind, handler in consumer.HANDLERS.items():
        assert inspect.iscoroutinefunction(handler), kind
        assert list(inspect.signature(handler).parameters) == ["consumer", "message"], kind


def test_the_consumer_answers_the_phone_through_its_table_alone() -> None:
    methods = [name for name, _ in inspect.getmembers(consumer.TableConsumer)]
    assert not [name for name in methods if name.startswith("on_")]
