"""The write path leaves the version it committed in this process's snapshot cache, exactly as
a load from the database would build it, so connections draw it without a query or a replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from engine.game import Game
from tables import cache, clock
from tables.cache import versions as kept_versions
from tables.models import Table
from tables.write import path, play
from tests.tables.helpers import hold_only, pass_and_play
from tests.tables.helpers.frames import fields

pytestmark = pytest.mark.django_db(transaction=True)


def table_at_a_turn() -> tuple[Table, list[str]]:
    return pass_and_play(["Asha", "Bikash", "Chandra"], 4)


def play_one(table: Table, hashes: list[str], now: cache.Snapshot) -> None:
    """The next change at a table at version ``now``: the clock fires (a computer player's turn,
    or between hands), or the person to act checks or calls."""
    assert now.game is not None
    hand = now.game.hand
    legal = hand.legal_actions() if hand is not None else None
    if legal is None or now.seats[legal.seat].is_computer:
        assert clock.fire(table.id, table.version, now=table.next_deadline)
        return
    play.act(
        table.id, hashes, kind="check" if legal.can_check else "call", amount=None,
        version=table.version, action_id=play.random_action_id(), revealed=legal.seat,
    )


def in_play(table: Table, steps: int) -> Iterator[cache.Snapshot]:
    """Up to ``steps`` versions of the hand being played, each as loaded here (the table row
    refreshed first), until the hand ends."""
    for _ in range(steps):
        table.refresh_from_db()
        now = cache.load_snapshot(table.id)
        assert now is not None and now.game is not None
        hand = now.game.hand
        if hand is None or hand.finished or hand.seat_to_act is None:
            return
        yield now


def test_the_committed_version_is_cached_as_loading_it_would_build_it() -> None:
    table, hashes = table_at_a_turn()
    for now in in_play(table, 12):  # persons and a computer player, across streets
        play_one(table, hashes, now)
        table.refresh_from_db()
        cached = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
        assert cached is not None, "the write path did not keep what it committed"
        kept_versions._snapshots.clear()
        loaded = cache.load_snapshot(table.id)
        assert loaded is not None and loaded is not cached
        assert fields(cached) == fields(loaded)


def test_a_refused_change_leaves_nothing_in_the_cache() -> None:
    table, hashes = table_at_a_turn()
    kept_versions._snapshots.clear()
    with pytest.raises(path.Refused):
        play.act(
            table.id, hashes, kind="check", amount=None, version=table.version - 1,
            action_id=play.random_action_id(),
        )
    assert not kept_versions._snapshots


def test_a_table_keeps_only_its_two_newest_versions_in_the_cache() -> None:
    table, hashes = table_at_a_turn()
    for _ in range(6):
        table.refresh_from_db()
        now = cache.load_snapshot(table.id)
        assert now is not None and now.game is not None and now.game.hand is not None
        play_one(table, hashes, now)
    table.refresh_from_db()
    versions = sorted(k[3] for k in kept_versions._snapshots if k[0] == table.id)
    assert versions == [table.version - 1, table.version]


def test_a_version_kept_again_stays_held_after_the_next_change() -> None:
    """A load that races the write of the same version (a connection told of an older one
    loads the newest, just written here) keeps it again: each copy replaces the one before,
    and the next change still finds the version it follows held here (to be made on it
    without the lock).
    (Named again in the list of a table's versions each time, the version fell out of the cache
    while the list still named it: this process then held nothing of the table, and every
    change took the lock.)"""
    table, hashes = table_at_a_turn()
    for _ in range(4):
        table.refresh_from_db()
        written = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
        assert written is not None
        cache.load_snapshot(table.id, check_cache=False)
        again = cache.load_snapshot(table.id, check_cache=False)  # kept a third time
        assert again is not None and again is not written
        assert cache.newest(table.id) is again
        assert again.game is not None and again.game.hand is not None
        assert not again.game.hand.finished
        play_one(table, hashes, again)
        table.refresh_from_db()
        assert cache.newest(table.id) is not None
        assert cache.newest(table.id).version == table.version  # type: ignore[union-attr]


def test_a_change_starts_from_a_copy_of_the_kept_version_and_leaves_that_version_alone() -> None:
    table, _ = table_at_a_turn()
    copied = 0
    for _ in range(12):
        table.refresh_from_db()
        kept = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
        if kept is None or kept.game is None:
            cache.load_snapshot(table.id)  # the next change will find this version
            continue
        hand = kept.game.hand
        if hand is None or hand.finished or hand.seat_to_act is None:
            break
        before = kept.game.to_dict()
        started: list[dict[str, object]] = []

        def look(
            change: path.Change, started: list[dict[str, object]] = started,
            drawn: Game = kept.game, seat: int = hand.seat_to_act,
        ) -> None:
            started.append(change.game.to_dict())
            assert change.game is not drawn
            change.game.act(seat, "fold")  # changes the copy, not the version being drawn
            change.mark()

        path.apply_change(table.id, look)
        assert started == [before]  # the same state the saved JSON holds...
        assert table.state is not None
        assert started[0] == Game.from_dict(table.state).to_dict()
        assert kept.game.to_dict() == before  # ...and the version drawn did not move
        copied += 1
    assert copied >= 3


def test_a_version_written_elsewhere_is_built_on_the_version_held_here() -> None:
    """Another process wrote the new version: this one loads it on the game it holds (the
    hand is not replayed from its start), and gets what loading it from scratch gives."""
    table, hashes = table_at_a_turn()
    built_on = 0
    for held in in_play(table, 10):
        assert held.game is not None
        held_state = held.game.to_dict()
        play_one(table, hashes, held)
        table.refresh_from_db()
        # As if another process had written it: this process holds only the older version.
        hold_only(held)
        assert cache.latest_game(table) is held.game
        loaded = cache.load_snapshot(table.id, check_cache=False)
        assert loaded is not None and loaded.version == table.version
        assert loaded.game is not None and loaded.game is not held.game
        assert held.game.to_dict() == held_state  # the held version never moves
        assert table.state is not None
        assert loaded.game.to_dict() == Game.from_dict(table.state).to_dict()
        built_on += 1
    assert built_on >= 3


def test_a_load_reads_the_seats_in_the_same_query_as_they_are() -> None:
    """The seats come as one JSON column of the table's row: the same seats, with the same
    types, as reading them row by row (names with quotes and any alphabet included)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.models import Seat

    table, _ = table_at_a_turn()
    Seat.objects.filter(table=table, position=1).update(name='Bi"kash\\ <नेपाली> 🂡', away=True)
    with CaptureQueriesContext(connection) as queries:
        loaded = cache.load_snapshot(table.id, check_cache=False)
    assert loaded is not None
    assert len(queries.captured_queries) == 1
    rows = Seat.objects.filter(table=table)
    assert loaded.seats == {s.position: s for s in kept_versions._infos(cache.seat_rows_of(rows))}
    assert loaded.seat_rows == tuple(cache.seat_rows_of(rows.order_by("position")))
    for info in loaded.seats.values():
        assert type(info.is_computer) is bool and type(info.away) is bool
        assert type(info.position) is int
    assert loaded.seats[1].name == 'Bi"kash\\ <नेपाली> 🂡' and loaded.seats[1].away


def test_a_table_id_given_out_again_does_not_push_the_new_table_out_of_the_cache() -> None:
    """SQLite can give a table's id out again (a rolled-back insert, a deleted newest row): the
    versions cached for the table that had it before, far ahead, must not push out the new
    table's versions."""
    table, _hashes = table_at_a_turn()
    table.refresh_from_db()
    loaded = cache.load_snapshot(table.id)
    assert loaded is not None
    kept_versions._snapshots.clear()
    kept_versions._versions_kept.clear()
    for version in (80, 81):  # the old table with this id
        kept_versions._keep(dataclasses.replace(loaded, code="OLDONE", version=version))
    kept_versions._keep(loaded)
    assert cache.cached_snapshot(table.id, table.code, table.created_at, table.version) is loaded
    assert not cache.cached_snapshot(table.id, "OLDONE", table.created_at, 81)
