"""Stored bytes per finished hand on PostgreSQL, with thousands of hands, and what retention frees.

    .venv/bin/python -m benchmarks.stored_bytes [--tables 100] [--hands 3000]
        [--postgres postgres://postgres@127.0.0.1:5432/holdem_scale_bench]

The unit-cost benchmark (benchmarks/unit_costs.py) plays too few hands in its window for the
size of a relation on disk to mean much (every index starts with a page or two), and its
players call nearly everything (about 24 actions a hand). Here the database (flushed first)
fills with games of one person and five computer players of medium level, played through the
real write path by the clock as fast as it goes (the person times out: checks or folds, then
is away): hands closer to real ones, folded early or played out. Measured when ``--hands``
hands have ended: per table (heap with TOAST, indexes) the rows, their bytes
(``pg_column_size``) and the relation sizes, per finished hand; then every game is marked as
ended 100 days ago and ``delete_old_games`` runs: the relations' size before, after the
command, after VACUUM (the space free inside the files, for new rows) and after VACUUM FULL
(the files rewritten: the space given back).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

RELATIONS = (
    "tables_table", "tables_seat", "tables_hand", "tables_chatmessage", "tables_formerclaim",
    "tables_moderationaction",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--postgres",
                        default="postgres://postgres@127.0.0.1:5432/holdem_scale_bench")
    args = parser.parse_args()
    if urlparse(args.postgres).hostname not in {"127.0.0.1", "localhost"}:
        raise SystemExit("--postgres: a loopback database please")
    if not 1 <= args.tables <= 500 or not 1 <= args.hands <= 50_000:
        raise SystemExit("--tables 1 to 500, --hands 1 to 50,000")
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": args.postgres,
        "REDIS_URL": "", "DEBUG": "true", "LOG_LEVEL": "WARNING",
    })
    os.environ.pop("TABLES_SEED", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from tables import clock
    from tables.models import Hand, Table

    def sql(query: str) -> list[tuple[Any, ...]]:
        with connection.cursor() as cursor:
            cursor.execute(query)
            return list(cursor.fetchall()) if cursor.description else []

    call_command("migrate", "--noinput", verbosity=0)
    call_command("flush", "--noinput", verbosity=0)
    out = Path(tempfile.mkdtemp()) / "tables.json"

    def more_tables(count: int) -> None:
        call_command(
            "loadtest_tables", tables=count, persons=1, seats=6, turn_seconds=15,
            level="medium", output=str(out),
        )

    more_tables(args.tables)
    started = time.monotonic()
    finished = 0
    while finished < args.hands:
        fired = clock.tick(timezone.now() + timedelta(days=1))
        playing = Table.objects.filter(status=Table.Status.PLAYING).count()
        if playing < args.tables // 2 or not fired:
            more_tables(args.tables - playing)
        finished = Hand.objects.filter(ended_at__isnull=False).count()
    played = time.monotonic() - started
    sql("VACUUM ANALYZE")
    games = Table.objects.count()
    actions = sql(
        "SELECT AVG(jsonb_array_length(record->'actions')) FROM tables_hand "
        "WHERE ended_at IS NOT NULL"
    )[0][0]
    print(
        f"{finished} hands ended at {games} games in {played:.0f} s "
        f"({float(actions or 0):.1f} actions a hand in its record)"
    )
    print(f"{'relation':<24} {'rows':>8} {'row bytes':>12} {'heap+TOAST':>12} {'indexes':>12} "
          f"{'B/hand rows':>12} {'B/hand disk':>12}")
    totals = [0, 0, 0]
    for name in RELATIONS:
        rows, row_bytes, heap, indexes = sql(
            f"SELECT count(*), COALESCE(SUM(pg_column_size(r.*)), 0), "
            f"pg_table_size('{name}'), pg_indexes_size('{name}') FROM {name} r"
        )[0]
        totals = [totals[0] + int(row_bytes), totals[1] + int(heap), totals[2] + int(indexes)]
        print(
            f"{name:<24} {rows:>8,} {row_bytes:>12,} {heap:>12,} {indexes:>12,} "
            f"{int(row_bytes) / finished:>12,.0f} {(int(heap) + int(indexes)) / finished:>12,.0f}"
        )
    print(
        f"{'all':<24} {'':>8} {totals[0]:>12,} {totals[1]:>12,} {totals[2]:>12,} "
        f"{totals[0] / finished:>12,.0f} {(totals[1] + totals[2]) / finished:>12,.0f}"
    )

    def disk() -> int:
        return sum(
            int(sql(f"SELECT pg_total_relation_size('{name}')")[0][0]) for name in RELATIONS
        )

    Table.objects.update(
        status=Table.Status.FINISHED, finished_at=timezone.now() - timedelta(days=100),
        updated_at=timezone.now() - timedelta(days=100),
    )
    sql("VACUUM")
    before = disk()
    begun = time.monotonic()
    call_command("delete_old_games")
    seconds = time.monotonic() - begun
    after = disk()
    sql("VACUUM")
    vacuumed = disk()
    sql("VACUUM FULL")
    full = disk()
    print(
        f"retention: {seconds:.1f} s; on disk {before:,} B before, {after:,} after the "
        f"command, {vacuumed:,} after VACUUM, {full:,} after VACUUM FULL (given back "
        f"{before - full:,} B = {(before - full) / finished:,.0f} B per hand)"
    )


if __name__ == "__main__":
    main()
