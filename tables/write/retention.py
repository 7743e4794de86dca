"""Retention: games that ended more than ``TABLES_KEEP_DAYS`` days ago (90 by default) are
deleted with everything stored for them: hands (with their records, which hold the deck
proofs' salts and the actions), table talk and the table's log, seats, former claims, moved
seats, late friends' requests. Staff's moderation log is kept (who did what, when and why; its
rows lose their table); what hosts did (``host_...``) goes with the game.

Run daily by ``manage.py delete_old_games`` (deploy/systemd/holdem-retention.timer).

A game that ended no longer changes, but its row is still the one lock every write to that
table takes (``tables.write.path``), so the big rows go first in small statements of their own
that lock no table row: hands and talk, ``rows`` at a time, each its own transaction. Then one
short transaction per batch of tables locks the batch's rows that nobody else holds
(``SKIP LOCKED``: a table someone is writing to waits for the next run), checks again that
each is still a game that ended before the cut-off, and deletes the few rows left with it.
The longest of those transactions is reported. Nothing here touches a game that is waiting,
playing or ended after the cut-off.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import DateTimeField, F, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from tables.models import ChatMessage, Hand, ModerationAction, Table

ENDED = (Table.Status.FINISHED, Table.Status.CLOSED)


@dataclass
class Deleted:
    """What one run deleted (or, dry, would delete)."""

    tables: int = 0
    rows: Counter[str] = field(default_factory=Counter)  # model label -> rows
    stored_bytes: int | None = None  # the rows' size in PostgreSQL (None elsewhere)
    batches: int = 0
    longest_lock: float = 0.0  # seconds: the longest transaction that held tables' rows

    def summary(self) -> str:
        parts = [f"{self.tables} games"] + [
            f"{count} {label}" for label, count in sorted(self.rows.items()) if count
        ]
        text = ", ".join(parts)
        if self.stored_bytes is not None:
            text += f"; {self.stored_bytes / 1e6:.2f} MB of rows"
        return (
            f"{text}; {self.batches} batches, tables' rows held at most "
            f"{self.longest_lock * 1000:.1f} ms"
        )


def ended_before(cutoff: datetime) -> QuerySet[Table]:
    """Games that ended (finished or closed) before ``cutoff``. A lobby closed because everyone
    left never got an end time: its last change counts."""
    ended_at = Coalesce(F("finished_at"), F("updated_at"), output_field=DateTimeField())
    return Table.objects.filter(status__in=ENDED).alias(ended=ended_at).filter(ended__lt=cutoff)


def delete_old_games(
    days: int, *, tables: int = 100, rows: int = 2000, pause: float = 0.0,
    now: datetime | None = None, dry_run: bool = False,
) -> Deleted:
    """Delete the games that ended more than ``days`` days before ``now``, ``tables`` games and
    ``rows`` hands or lines at a time, sleeping ``pause`` seconds between batches."""
    if days < 1 or tables < 1 or rows < 1:
        raise ValueError("days, tables and rows must be at least 1")
    cutoff = (now or timezone.now()) - timedelta(days=days)
    done = Deleted(stored_bytes=0 if connection.vendor == "postgresql" else None)
    after = 0
    while True:
        ids = list(
            ended_before(cutoff).filter(id__gt=after).order_by("id")
            .values_list("id", flat=True)[:tables]
        )
        if not ids:
            return done
        after = ids[-1]
        done.batches += 1
        if done.stored_bytes is not None:
            done.stored_bytes += stored_bytes(ids)
        if dry_run:
            done.tables += len(ids)
            for model in (Hand, ChatMessage):
                done.rows[model._meta.label] += model.objects.filter(table_id__in=ids).count()
        else:
            _delete_batch(ids, cutoff, rows, done)
        if pause:
            time.sleep(pause)


def _delete_batch(ids: list[int], cutoff: datetime, rows: int, done: Deleted) -> None:
    still_old = ended_before(cutoff).filter(id__in=ids)
    # The big rows, a chunk per statement and transaction: no table's row is locked.
    for model in (Hand, ChatMessage):
        while True:
            chunk = list(
                model.objects.filter(table__in=still_old).order_by("id")
                .values_list("id", flat=True)[:rows]
            )
            if not chunk:
                break
            count, _ = model.objects.filter(id__in=chunk).delete()
            done.rows[model._meta.label] += count
    # The tables themselves with what is left of them: one short transaction per batch.
    with transaction.atomic():
        started = time.monotonic()
        locked = list(
            still_old.select_for_update(skip_locked=True).values_list("id", flat=True)
        )
        ModerationAction.objects.filter(
            table_id__in=locked, moderator=None, action__startswith="host_"
        ).delete()
        _count, by_model = Table.objects.filter(id__in=locked).delete()
        done.longest_lock = max(done.longest_lock, time.monotonic() - started)
    for label, count in by_model.items():
        if label != Table._meta.label:
            done.rows[label] += count
    done.tables += len(locked)


# Every table that holds a game's rows, and the column naming the game (PostgreSQL sizes).
_GAME_ROWS = (
    ("tables_table", "id"), ("tables_seat", "table_id"), ("tables_formerclaim", "table_id"),
    ("tables_hand", "table_id"), ("tables_seatmove", "table_id"),
    ("tables_chatmessage", "table_id"), ("tables_tabletalk", "table_id"),
    ("tables_chatmute", "table_id"), ("tables_seatrequest", "table_id"),
    ("tables_lateseats", "table_id"),
)


def stored_bytes(ids: Iterable[int]) -> int:
    """The bytes the rows of these games take in PostgreSQL (``pg_column_size`` of each row:
    compressed and out-of-line values at their stored size; indexes and free space apart)."""
    wanted = list(ids)
    total = 0
    with connection.cursor() as cursor:
        for name, column in _GAME_ROWS:
            cursor.execute(
                f"SELECT COALESCE(SUM(pg_column_size(r.*)), 0) FROM {name} r "
                f"WHERE r.{column} = ANY(%s)", [wanted],
            )
            total += int(cursor.fetchone()[0])
    return total
