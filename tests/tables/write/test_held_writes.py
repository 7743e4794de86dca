"""Changes of play made on the version this process holds (``apply_change(held=True)``): one
conditional UPDATE instead of begin / locked read / update / commit, and otherwise exactly
the locked path: same row, same refusals, and whenever the table moved on, or the change
writes more than the table's row, the change is made again from the start under the lock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import cache, clock
from tables.cache import versions
from tables.models import Hand, Seat, Table
from tables.write import path, play
from tests.tables.helpers import game_of, hold_only, pass_and_play

pytestmark = pytest.mark.django_db(transaction=True)


def at_a_persons_turn() -> tuple[Table, list[str], int]:
    """A pass-and-play table of persons only, at someone's turn, its newest version held
    here (the write path left it): the table, the phone's claims, the seat to act."""
    table, hashes = pass_and_play(["Asha", "Bikash", "Chandra"], 3)
    game = game_of(table)
    assert game.hand is not None and game.hand.seat_to_act is not None
    newest = cache.newest(table.id)
    assert newest is not None and newest.version == table.version
    return table, hashes, game.hand.seat_to_act


def call_or_check(table: Table) -> str:
    game = game_of(table)
    assert game.hand is not None
    legal = game.hand.legal_actions()
    assert legal is not None
    return "check" if legal.can_check else "call"


def act(table: Table, hashes: list[str], seat: int, action_id: str, **kw: Any) -> Any:
    return play.act(
        table.id, hashes, kind=kw.pop("kind", None) or call_or_check(table), amount=None,
        version=kw.pop("version", table.version), action_id=action_id, revealed=seat, **kw,
    )


ROW = ("state", "version", "recent_actions", "status", "deadline_kind", "host_position")


def row_of(table_id: int) -> dict[str, Any]:
    return dict(Table.objects.filter(pk=table_id).values(*ROW).get())


def test_an_action_on_the_version_held_here_is_one_conditional_update() -> None:
    table, hashes, seat = at_a_persons_turn()
    with CaptureQueriesContext(connection) as queries:
        done = act(table, hashes, seat, "tap-1")
    assert done.applied and done.version == table.version + 1
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]
    sql = queries.captured_queries[0]["sql"]
    assert sql.startswith("UPDATE") and '"version" =' in sql.split("WHERE", 1)[1]
    saved = Table.objects.get(pk=table.id)
    assert saved.version == table.version + 1 and saved.recent_actions == ["tap-1"]
    assert game_of(saved).hand.actions[-1].seat == seat  # type: ignore[union-attr]
    # ...and the process holds the new version for the connections to draw.
    newest = cache.newest(table.id)
    assert newest is not None and newest.version == saved.version


def test_the_held_change_writes_the_row_the_locked_path_writes() -> None:
    """The same action made under the lock (then rolled back) and on the held version: the
    same row, apart from the times the clock reads (made a moment apart)."""
    table, hashes, seat = at_a_persons_turn()
    locked: dict[str, Any] = {}

    class Undo(Exception):
        pass

    newest = cache.newest
    with pytest.raises(Undo), transaction.atomic():
        cache.newest = lambda table_id: None  # nothing held
        try:
            act(table, hashes, seat, "tap-2")
        finally:
            cache.newest = newest
        locked.update(row_of(table.id))
        raise Undo
    assert row_of(table.id)["version"] == table.version  # rolled back
    # The rollback dropped nothing this process holds: it still holds the version before.
    held = cache.newest(table.id)
    assert held is not None and held.version == table.version
    with CaptureQueriesContext(connection) as queries:
        act(table, hashes, seat, "tap-2")
    assert len(queries.captured_queries) == 1
    assert row_of(table.id) == locked


def test_an_action_on_a_version_that_moved_on_is_refused_as_stale_under_the_lock() -> None:
    """Another process applied an action this process has not drawn yet: the held change is
    made on an old version, its update finds the version moved on and writes nothing, and the
    lock refuses it as stale."""
    table, hashes, seat = at_a_persons_turn()
    old = cache.newest(table.id)
    act(table, hashes, seat, "first")
    moved = Table.objects.get(pk=table.id)
    hold_only(old)  # as if the first action had been written elsewhere
    with pytest.raises(path.Refused) as refused:
        act(table, hashes, seat, "second", kind="fold")
    assert refused.value.code == "stale"
    assert row_of(table.id) == row_of(moved.id) and moved.recent_actions == ["first"]


def test_a_phone_ahead_of_the_version_held_here_is_served_under_the_lock() -> None:
    """A phone drew a version this process does not hold yet (written elsewhere): checked on
    the held version its action looks stale; under the lock it is what it is, applied."""
    table, hashes, seat = at_a_persons_turn()
    old = cache.newest(table.id)
    act(table, hashes, seat, "first")
    table.refresh_from_db()
    hold_only(old)
    next_seat = game_of(table).hand.seat_to_act  # type: ignore[union-attr]
    assert next_seat is not None
    done = act(table, hashes, next_seat, "second")
    assert done.applied and done.version == table.version + 1
    saved = Table.objects.get(pk=table.id)
    assert saved.recent_actions == ["first", "second"]
    assert [a.seat for a in game_of(saved).hand.actions[-2:]] == [seat, next_seat]  # type: ignore[union-attr]


def test_a_double_tap_and_a_refusal_are_told_as_under_the_lock() -> None:
    table, hashes, seat = at_a_persons_turn()
    first = act(table, hashes, seat, "tap-3")
    again = act(table, hashes, seat, "tap-3")  # the same frame, the same id
    assert first.applied and not again.applied and again.version == first.version
    table.refresh_from_db()
    with pytest.raises(path.Refused) as refused:
        act(table, hashes, seat, "tap-4", kind="raise")  # no amount: against the rules
    assert refused.value.code != "stale"
    assert row_of(table.id)["recent_actions"] == ["tap-3"]


def test_an_action_that_writes_a_seat_is_made_under_the_lock() -> None:
    """An away person who acts is back (P1): a seat is written, so not on the held version."""
    table, hashes, seat = at_a_persons_turn()

    def away(change: path.Change) -> None:
        person = change.seats[seat]
        person.away, person.timeouts_in_row = True, 2
        change.save_seat(person, "away", "timeouts_in_row")

    path.apply_change(table.id, away)
    table.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        done = act(table, hashes, seat, "back")
    assert done.applied
    assert len(queries.captured_queries) > 1  # the lock's begin, read, updates, commit
    person = Seat.objects.get(table=table, position=seat)
    assert not person.away and person.timeouts_in_row == 0


def test_dealing_and_ending_hands_write_their_rows_under_the_lock() -> None:
    """The clock's changes go the same way: a hand dealt or ended writes its Hand row, so it
    is made under the lock; the actions between are each one update."""
    table, hashes, _ = at_a_persons_turn()
    one_statement = 0
    for _ in range(200):
        table.refresh_from_db()
        game = game_of(table)
        if game.hand is not None and game.hand_number >= 3 and not game.hand_running:
            break
        with CaptureQueriesContext(connection) as queries:
            if game.hand_running:
                seat = game.hand.seat_to_act  # type: ignore[union-attr]
                assert seat is not None
                act(table, hashes, seat, play.random_action_id())
            else:
                later = timezone.now() + timedelta(hours=1)
                assert clock.fire(table.id, table.version, now=later)
        one_statement += len(queries.captured_queries) == 1
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    assert all(h.ended_at is not None and h.final_stacks for h in hands)
    assert one_statement >= 6


def test_an_action_on_a_version_loaded_here_finds_the_seats_with_it() -> None:
    """A version another process wrote, which this one loaded to draw: the change reads the
    seats from that load (one statement in all), seats exactly as the database has them."""
    table, hashes, seat = at_a_persons_turn()
    hold_only()
    versions._seats_kept.clear()
    loaded = cache.load_snapshot(table.id, check_cache=False)
    assert loaded is not None and loaded.seat_rows is not None
    assert loaded.seat_rows == tuple(cache.seat_rows_of(Seat.objects.filter(table=table)))
    with CaptureQueriesContext(connection) as queries:
        done = act(table, hashes, seat, "tap-5")
    assert done.applied
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]
    # The seats a change is given are the seats in the database, field by field.
    versions._seats_kept.clear()
    seen: list[dict[int, tuple[object, ...]]] = []
    path.apply_change(table.id, lambda change: seen.append({
        p: tuple(getattr(s, f) for f in cache.SEAT_FIELDS) for p, s in change.seats.items()
    }))
    assert seen == [{
        s.position: tuple(getattr(s, f) for f in cache.SEAT_FIELDS)
        for s in Seat.objects.filter(table=table)
    }]


def test_the_clock_deals_under_the_lock_without_trying_the_held_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal always writes the new hand's row: the clock goes straight to the lock (trying it
    on the held version first would only be undone); its other deadlines try it first."""
    table, _, _ = at_a_persons_turn()
    tried: list[int] = []
    held = path._apply_held

    def spy(table_id: int, mutate: Any) -> Any:
        tried.append(table_id)
        return held(table_id, mutate)

    monkeypatch.setattr(path, "_apply_held", spy)
    later = timezone.now() + timedelta(hours=1)
    for _ in range(40):  # the hand plays to its end (time-outs), then the next is dealt
        table.refresh_from_db()
        kind = table.deadline_kind
        before = len(tried)
        assert clock.fire(table.id, table.version, now=later)
        assert len(tried) == before + (kind != Table.Deadline.NEXT_HAND), kind
        if kind == Table.Deadline.NEXT_HAND:
            break
    else:
        raise AssertionError("no hand was dealt")
    assert game_of(Table.objects.get(pk=table.id)).hand_number == 2


def test_a_table_paused_by_hand_in_the_database_is_not_moved_on() -> None:
    """An operator may stop a table in the database by hand, without a new version: a change
    checked on the version held here (not paused) does not write over it; under the lock it
    sees the pause (here, like the clock, it then does nothing)."""
    table, _, seat = at_a_persons_turn()
    Table.objects.filter(pk=table.id).update(paused=True)
    seen: list[bool] = []

    def like_the_clock(change: path.Change) -> bool:
        seen.append(change.table.paused)
        if change.table.paused:
            return False
        change.game.act(seat, "fold")
        change.mark()
        return True

    assert path.apply_change(table.id, like_the_clock, held=True) is False
    assert seen == [False, True]  # tried on the held version, then told under the lock
    row = Table.objects.get(pk=table.id)
    assert row.version == table.version and row.paused and row.state == table.state
