"""The versions held (tables.cache.versions): what every connection is shown at a version
(its memo) is dropped once a newer version of the table is kept; the version itself stays."""

from __future__ import annotations

from datetime import UTC, datetime

from tables.cache import versions

CREATED = datetime(2026, 12, 5, tzinfo=UTC)


def snapshot(version: int, table_id: int = 9001) -> versions.Snapshot:
    return versions.Snapshot(
        id=table_id, code="MEMO", mode="play", status="playing", version=version,
        seat_count=6, max_hands=None, blind_every=10, computer_level="medium",
        turn_seconds=30, host_position=None, next_deadline=None, deadline_kind="",
        paused=False, closed_reason="", next_code=None, seats={}, game=None,
        created_at=CREATED,
    )


def test_the_memo_of_a_version_no_longer_the_newest_is_emptied() -> None:
    versions.forget_all()
    try:
        first = versions._keep(snapshot(1))
        first.memo["context"] = {"drawn": "once"}
        other = versions._keep(snapshot(7, table_id=9002))
        other.memo["context"] = {"drawn": "elsewhere"}
        second = versions._keep(snapshot(2))
        second.memo["context"] = {"drawn": "twice"}
        assert first.memo == {}  # drawn no more: a connection told of it draws the newest
        assert versions.cached_snapshot(9001, "MEMO", CREATED, 1) is first  # still held
        assert second.memo == {"context": {"drawn": "twice"}}
        assert other.memo == {"context": {"drawn": "elsewhere"}}  # another table's: kept
        # A version kept again behind the newest (a load that raced the write) keeps none.
        late = snapshot(1)
        late.memo["context"] = {"drawn": "late"}
        assert versions._keep(late) is late and late.memo == {}
        versions._keep(snapshot(3))
        assert second.memo == {}
        assert versions.cached_snapshot(9001, "MEMO", CREATED, 1) is None
        newest = versions.newest(9001)
        assert newest is not None and newest.version == 3
    finally:
        versions.forget_all()


def test_a_version_let_go_is_freed_without_waiting_for_a_garbage_collection() -> None:
    """The memo names its version (the shared context's table): a cycle. Emptied when the
    version is let go, the version is freed at once, not at the next full collection."""
    import gc
    import weakref

    versions.forget_all()
    gc.disable()
    try:
        first = versions._keep(snapshot(1))
        first.memo["context"] = {"table": first}
        gone = weakref.ref(first)
        del first
        for version in (2, 3):
            newer = versions._keep(snapshot(version))
            newer.memo["context"] = {"table": newer}
        del newer
        assert gone() is None
    finally:
        gc.enable()
        versions.forget_all()
