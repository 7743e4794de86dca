"""Queries compiled once (tables.cache.queries) load and save exactly what the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tables.cache import queries, versions
from tables.models import Seat, Table
from tables.write import path, play
from tests.tables.helpers import pass_and_play

pytestmark = pytest.mark.django_db(transaction=True)


def row_values(instance: object) -> dict[str, object]:
    meta = type(instance)._meta  # type: ignore[attr-defined]
    return {f.attname: getattr(instance, f.attname) for f in meta.concrete_fields}


def started_table() -> Table:
    return pass_and_play(["Asha", "Bikash"], 3)[0]


def test_prepared_queries_load_what_the_orm_loads() -> None:
    table = started_table()
    other = started_table()
    tables = queries.Prepared(lambda pk: Table.objects.filter(pk=pk))
    seats = queries.Prepared(lambda pk: Seat.objects.filter(table_id=pk).order_by("position"))
    for _ in range(2):  # compiled on the first call, reused on the second
        for which in (table, other):
            [loaded] = tables(which.pk)
            assert row_values(loaded) == row_values(Table.objects.get(pk=which.pk))
            assert isinstance(loaded.state, dict) and loaded.state["seats"]  # JSON decoded
            assert loaded.created_at.tzinfo is not None  # dates converted
            assert loaded._state.adding is False and loaded._state.db == "default"
            assert [row_values(s) for s in seats(which.pk)] == [
                row_values(s) for s in Seat.objects.filter(table_id=which.pk).order_by("position")
            ]
    assert tables(10**9) == []


def test_prepared_locked_read_runs_inside_a_transaction() -> None:
    table = started_table()
    locked = queries.Prepared(lambda pk: Table.objects.filter(pk=pk).select_for_update())
    with transaction.atomic():
        [loaded] = locked(table.pk)
    assert loaded.version == table.version


def test_prepared_refuses_queries_it_cannot_run_again() -> None:
    table = started_table()
    twice = queries.Prepared(lambda pk: Table.objects.filter(pk=pk).exclude(next_table_id=pk))
    with pytest.raises(ValueError, match="exactly once"):
        twice(table.pk)
    joined = queries.Prepared(lambda pk: Seat.objects.select_related("table").filter(pk=pk))
    with pytest.raises(ValueError, match="one model"):
        joined(1)
    partial = queries.Prepared(lambda pk: Table.objects.only("code").filter(pk=pk))
    with pytest.raises(ValueError, match="every field"):
        partial(table.pk)


def test_update_fields_saves_the_listed_fields_only() -> None:
    table = started_table()
    before = Table.objects.get(pk=table.pk)
    table.version += 5
    assert table.state is not None
    table.state = {**table.state, "marker": [1, "two"]}
    table.closed_reason = "not saved: not listed"
    later = timezone.now() + timedelta(minutes=3)
    table.next_deadline = later
    queries.update_fields(table, ["version", "state", "next_deadline", "updated_at"])
    after = Table.objects.get(pk=table.pk)
    assert after.version == before.version + 5
    assert after.state is not None and after.state["marker"] == [1, "two"]
    assert after.next_deadline == later
    assert after.closed_reason == before.closed_reason == ""
    assert after.updated_at > before.updated_at  # auto_now, as save() would set it
    assert after.code == before.code and after.status == before.status


def test_update_fields_of_a_deleted_row_raises() -> None:
    table = started_table()
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(LookupError):
        queries.update_fields(table, ["version"])


def test_the_write_path_saves_every_field_a_change_sets() -> None:
    """Fields other than the state are saved when (and only when) a change sets them."""
    table = started_table()

    def rename_reason(change: path.Change) -> None:
        change.table.closed_reason = "kept"
        change.mark()

    path.apply_change(table.pk, rename_reason)
    after = Table.objects.get(pk=table.pk)
    assert after.closed_reason == "kept"
    assert after.version == table.version + 1
    # A field the change did not set is not written back from the copy it read (here the
    # row changes under it within the same transaction; a full save would undo that).

    def change_elsewhere(change: path.Change) -> None:
        Table.objects.filter(pk=table.pk).update(turn_seconds=90)
        change.mark()

    path.apply_change(table.pk, change_elsewhere)
    assert Table.objects.get(pk=table.pk).turn_seconds == 90
    assert Table.objects.get(pk=table.pk).closed_reason == "kept"


def test_a_change_reuses_the_seats_this_process_committed_only_at_that_version() -> None:
    table = started_table()
    seen: list[dict[int, dict[str, object]]] = []

    def look(change: path.Change) -> None:
        seen.append({p: row_values(s) for p, s in change.seats.items()})
        change.mark()

    def from_db() -> dict[int, dict[str, object]]:
        return {s.position: row_values(s) for s in Seat.objects.filter(table_id=table.pk)}

    path.apply_change(table.pk, look)  # leaves its seats in this process
    play.touch_seats(table.pk, [0, 1], timezone.now() + timedelta(minutes=5))
    path.apply_change(table.pk, look)  # from what the last change kept...
    assert seen[-1] == from_db()  # ...equal to the rows, presence (loaded on use) included
    # Another process renames a seat (and, like every change, bumps the version): the next
    # change here must read the seats again.
    Seat.objects.filter(table_id=table.pk, position=1).update(name="Renamed")
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    path.apply_change(table.pk, look)
    assert seen[-1][1]["name"] == "Renamed" and seen[-1] == from_db()


def test_the_seats_kept_per_table_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions, "SEAT_ROWS_KEPT", 2)
    tables = [started_table() for _ in range(3)]  # each start is a change that keeps seats
    for table in tables:
        path.apply_change(table.pk, lambda change: change.mark())
    assert list(versions._seats_kept) == [tables[1].pk, tables[2].pk]


def test_a_prepared_query_can_select_one_more_column() -> None:
    table = started_table()
    plain = queries.Prepared(lambda pk: Table.objects.filter(pk=pk))
    counted = queries.Prepared(
        lambda pk: Table.objects.filter(pk=pk),
        also=lambda connection: (
            "(SELECT COUNT(*) FROM tables_seat WHERE tables_seat.table_id = tables_table.id)"
        ),
    )
    for _ in range(2):
        [(loaded, seats)] = counted.extra(table.pk)
        assert seats == Seat.objects.filter(table=table).count() == 3
        assert row_values(loaded) == row_values(Table.objects.get(pk=table.pk))
        assert [row_values(t) for t in counted(table.pk)] == [row_values(loaded)]
        assert plain.extra(table.pk) == [(loaded, None)]
