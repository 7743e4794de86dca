"""A change caught by a failover of the database (tables/write/reconnect.py): when the
connection is lost before COMMIT the whole change is made once more on a new connection; a
second loss refuses it as "the database is away" (the phone's "saving slowly"); a COMMIT that
failed is never made again blindly; nothing is ever half made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import InternalError, OperationalError, connection, transaction

from tables.models import ModerationAction, Table
from tables.write import path, reconnect
from tables.write.reconnect import DATABASE_AWAY
from tests.tables.helpers import pass_and_play

pytestmark = pytest.mark.django_db(transaction=True)


def failing(times: int, error: Callable[[], Exception]) -> tuple[Callable[[path.Change], int],
                                                                 list[int]]:
    """A change that writes a row and the table, and fails the first ``times`` tries after
    writing the row (a half-made change if anything of it were kept)."""
    tries: list[int] = []

    def mutate(change: path.Change) -> int:
        tries.append(1)
        ModerationAction.objects.create(table=change.table, action="test", detail={})
        change.table.turn_seconds = 100 + len(tries)
        change.mark()
        if len(tries) <= times:
            raise error()
        return len(tries)

    return mutate, tries


def cut() -> Exception:
    return OperationalError("server closed the connection unexpectedly")


def read_only() -> Exception:
    error = InternalError("cannot execute INSERT in a read-only transaction")
    error.__cause__ = psycopg.errors.ReadOnlySqlTransaction()
    return error


def table_state(table_id: int) -> tuple[int, int, int]:
    table = Table.objects.get(pk=table_id)
    return table.version, table.turn_seconds, ModerationAction.objects.filter(table=table).count()


@pytest.mark.parametrize("error", [cut, read_only])
def test_a_change_that_lost_its_connection_before_commit_is_made_once_more_whole(
    error: Callable[[], Exception],
) -> None:
    table, _hashes = pass_and_play(["Asha", "Bikash"], 2)
    mutate, tries = failing(1, error)
    assert path.apply_change(table.id, mutate) == 2
    assert len(tries) == 2
    assert table_state(table.id) == (table.version + 1, 102, 1)  # one change, whole


@pytest.mark.parametrize("error", [cut, read_only])
def test_a_second_loss_refuses_the_change_as_the_database_away_and_keeps_nothing(
    error: Callable[[], Exception],
) -> None:
    table, _hashes = pass_and_play(["Asha", "Bikash"], 2)
    before = table_state(table.id)
    mutate, tries = failing(2, error)
    with pytest.raises(DATABASE_AWAY):  # told to the phone as "saving slowly"
        path.apply_change(table.id, mutate)
    assert len(tries) == 2  # once more, not forever
    assert table_state(table.id) == before


def test_a_refusal_or_a_bug_is_not_retried() -> None:
    table, _hashes = pass_and_play(["Asha", "Bikash"], 2)
    before = table_state(table.id)
    refused, tries = failing(1, lambda: path.Refused("no", "No."))
    with pytest.raises(path.Refused):
        path.apply_change(table.id, refused)
    broken, more = failing(1, lambda: InternalError("a bug, not an outage"))
    with pytest.raises(InternalError):
        path.apply_change(table.id, broken)
    assert len(tries) == len(more) == 1
    assert table_state(table.id) == before


def test_a_commit_that_failed_is_not_made_again_blindly(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _hashes = pass_and_play(["Asha", "Bikash"], 2)
    mutate, tries = failing(0, cut)
    real_commit = connection.commit

    def commit_then_cut(*args: Any) -> None:
        real_commit(*args)  # saved, and then the answer never came
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(connection, "commit", commit_then_cut)
    with pytest.raises(reconnect.CommitUnknown) as caught:
        path.apply_change(table.id, mutate)
    monkeypatch.undo()
    assert isinstance(caught.value, DATABASE_AWAY)  # the phone is told "saving slowly"
    assert len(tries) == 1
    assert table_state(table.id) == (table.version + 1, 101, 1)  # saved once, not twice


def test_inside_a_callers_transaction_the_caller_decides() -> None:
    table, _hashes = pass_and_play(["Asha", "Bikash"], 2)
    before = table_state(table.id)
    mutate, tries = failing(1, read_only)
    with pytest.raises(OperationalError), transaction.atomic():
        path.apply_change(table.id, mutate)
    assert len(tries) == 1
    assert table_state(table.id) == before
