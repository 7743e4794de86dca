"""Compiled queries (``tables.cache.queries``) against the plain ORM doing the same, per query.

The write path runs a few small queries at every action: the locked read of the table, its
seats (when this process does not hold them), the update of the row; a process that did not
write a version loads the table with its seats. ``tables.cache.queries`` builds each query's SQL
once per connection; the reference is the ORM building it at every call, as plain code would
(the same rows, the same model instances). Each pair is run in alternating blocks in the same
process, on a started six-seat table; prints microseconds per call (median of the blocks) and
the ratio plain / compiled.

    .venv/bin/python benchmarks/bench_queries.py [--calls 2000] [--block 200]
        [--database sqlite | postgres://postgres@127.0.0.1:5432/holdem_bench_queries]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.scratch_db import use_database

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
parser.add_argument("--calls", type=int, default=2000, help="calls measured per way")
parser.add_argument("--block", type=int, default=200, help="calls per block (ways alternate)")
parser.add_argument("--database", default="sqlite", help="'sqlite' or a loopback postgres:// URL")
ARGS = parser.parse_args()

use_database(ARGS.database, "queries.sqlite3")
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from tables import cache, claims  # noqa: E402
from tables.cache.versions import seats_of, table_with_seats  # noqa: E402
from tables.models import Seat, Table  # noqa: E402
from tables.write import lobby  # noqa: E402
from tables.write.path import _table_locked  # noqa: E402


def started_table() -> Table:
    session: dict[str, object] = {}
    table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=6))
    lobby.start_game(table.id, claims.session_hashes(session))
    table.refresh_from_db()
    return table


def measure(ways: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Microseconds per call of each way: the median of its blocks, blocks alternating."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for way in ways.values():  # warm up (compile, connect)
        for _ in range(20):
            way()
    for _ in range(max(1, ARGS.calls // ARGS.block)):
        for name, way in ways.items():
            start = time.perf_counter()
            for _ in range(ARGS.block):
                way()
            times[name].append((time.perf_counter() - start) / ARGS.block * 1e6)
    return {name: statistics.median(block) for name, block in times.items()}


def main() -> None:
    call_command("migrate", verbosity=0)
    table = started_table()
    pk = table.pk
    fields = ["state", "version", "next_deadline", "deadline_kind", "updated_at"]

    def in_transaction(way: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            with transaction.atomic():
                return way()
        return run

    pairs: dict[str, dict[str, Callable[[], object]]] = {
        "locked read of the table (every change under the lock)": {
            "compiled": in_transaction(lambda: _table_locked(pk)),
            "plain ORM": in_transaction(
                lambda: list(Table.objects.filter(pk=pk).select_for_update())
            ),
        },
        "the table's seats": {
            "compiled": lambda: seats_of(pk),
            "plain ORM": lambda: list(Seat.objects.filter(table_id=pk)),
        },
        "update of the row (every change)": {
            "compiled": in_transaction(lambda: cache.update_fields(table, fields)),
            "plain ORM save(update_fields=...)": in_transaction(
                lambda: table.save(update_fields=fields)
            ),
        },
        "load of the table with its seats (a version another process wrote)": {
            "compiled, one query": lambda: table_with_seats.extra(pk),
            "plain ORM, prefetch_related": lambda: [
                (t, list(t.seats.all()))
                for t in Table.objects.filter(pk=pk).prefetch_related("seats")
            ],
        },
    }
    print(f"database: {django.db.connection.vendor}; {ARGS.calls} calls per way, "
          f"blocks of {ARGS.block}")
    for title, ways in pairs.items():
        result = measure(ways)
        reference = result[next(iter(ways))]
        print(f"\n{title}")
        for name, micro in result.items():
            print(f"  {name:40s} {micro:8.1f} us  {micro / reference:5.2f}x")


if __name__ == "__main__":
    main()
