"""The checker and a tap sent as play ended: the record stops before its answer, but its action
is in the history. Found by the soak with a failover of PostgreSQL (seed 3): the last tap of a
run, sent 0.08 s before the end, was taken for an action that no tap explains."""

from __future__ import annotations

from benchmarks.chaos.checker import check
from tests.chaos.records import build


def test_a_tap_whose_answer_the_record_ended_before_explains_its_action() -> None:
    events, db = build()
    last = [e for e in events if e["e"] == "sent" and e["hand"] == 2][-1]
    events = [e for e in events if not (e["e"] == "fate" and e["id"] == last["id"])]
    assert check(events, db).breaches == []


def test_an_unanswered_tap_of_another_kind_explains_nothing() -> None:
    events, db = build()
    last = [e for e in events if e["e"] == "sent" and e["hand"] == 2][-1]
    events = [e for e in events if not (e["e"] == "fate" and e["id"] == last["id"])]
    events[events.index(last)] = {**last, "kind": "raise", "amount": 500}
    found = [b for b in check(events, db).breaches if b.invariant == "twice"]
    assert (found[0].table, found[0].hand, found[0].version) == (7, 2, last["version"])
