"""What PostgreSQL counted while a benchmark ran (``benchmarks.unit_costs``): its commits and
rows from pg_stat_database, the WAL written for one database (pg_waldump), and the rows and
bytes the game's tables hold."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

WALDUMP = Path("/usr/lib/postgresql/15/bin/pg_waldump")
PG_WAL = Path("/var/lib/postgresql/15/main/pg_wal")
ROW_TABLES = {
    "tables": ("tables_table", "tables_tabletalk", "tables_lateseats"),
    "seats": ("tables_seat", "tables_formerclaim"),
    "hands": ("tables_hand",),
    "talk and log": ("tables_chatmessage",),
}


def sql(url: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def pg_counters(url: str) -> dict[str, Any]:
    name = urlparse(url).path.lstrip("/")
    admin = urlparse(url)._replace(path="/postgres").geturl()
    rows = sql(
        admin,
        "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, "
        "pg_current_wal_lsn()::text, oid FROM pg_stat_database d JOIN pg_database p "
        "ON p.datname = d.datname WHERE d.datname = %s", (name,),
    )
    commit, rollback, inserted, updated, deleted, lsn, oid = rows[0]
    return {
        "commits": commit, "rollbacks": rollback, "inserted": inserted, "updated": updated,
        "deleted": deleted, "lsn": lsn, "oid": oid,
    }


def lsn_bytes(lsn: str) -> int:
    high, low = lsn.split("/")
    return (int(high, 16) << 32) + int(low, 16)


WAL_RECORD = re.compile(r"len \(rec/tot\):\s*\d+/\s*(\d+), tx:\s*(\d+),")


def own_wal_bytes(start: str, end: str, oid: int) -> int | None:
    """The WAL bytes between two positions that belong to database ``oid``: records that name
    a relation of it (``rel <tablespace>/<oid>/...``, ``db <oid>``) and every record of the
    transactions those belong to (their commits). None when pg_waldump cannot read the WAL."""
    if not WALDUMP.exists() or not PG_WAL.is_dir():
        return None
    done = subprocess.run(
        [str(WALDUMP), "-p", str(PG_WAL), "-s", start, "-e", end], capture_output=True,
        text=True,
    )
    if done.returncode and not done.stdout:
        return None
    ours = (f"/{oid}/", f" db {oid} ", f" db {oid};", f"db {oid}\n")
    by_tx: Counter[int] = Counter()
    tx_ours: set[int] = set()
    loose = 0
    for line in done.stdout.splitlines():
        match = WAL_RECORD.search(line)
        if match is None:
            continue
        size, tx = int(match.group(1)), int(match.group(2))
        mine = any(mark in line + "\n" for mark in ours)
        if tx:
            by_tx[tx] += size
            if mine:
                tx_ours.add(tx)
        elif mine:
            loose += size
    return loose + sum(by_tx[tx] for tx in tx_ours)


def stored_sizes(url: str) -> dict[str, dict[str, int]]:
    """Per group of ROW_TABLES: rows, their bytes (pg_column_size) and the relations' size on
    disk (heap, TOAST and indexes)."""
    sizes: dict[str, dict[str, int]] = {}
    for group, names in ROW_TABLES.items():
        rows = row_bytes = disk = 0
        for name in names:
            count, size, total = sql(
                url,
                f"SELECT count(*), COALESCE(SUM(pg_column_size(r.*)), 0), "
                f"pg_total_relation_size('{name}') FROM {name} r",
            )[0]
            rows, row_bytes, disk = rows + count, row_bytes + size, disk + total
        sizes[group] = {"rows": rows, "bytes": row_bytes, "disk": disk}
    return sizes
