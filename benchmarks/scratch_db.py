"""The database of a benchmark that runs Django in its own process (bench_queries,
bench_write_path, season): ``use_database`` points ``DATABASE_URL`` at it before Django starts.
No Django here."""

from __future__ import annotations

import os
import tempfile
from urllib.parse import urlparse


def use_database(choice: str, file_name: str, fresh: bool = False) -> None:
    """``choice`` is "sqlite" (a scratch file ``file_name`` in a new temporary folder) or a
    loopback postgres:// URL, its database created if missing (dropped first if ``fresh``)."""
    if choice == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/{file_name}"
        return
    url = urlparse(choice)
    loopback = url.hostname in {"127.0.0.1", "localhost"}
    if url.scheme not in {"postgres", "postgresql"} or not loopback:
        raise SystemExit("--database: a loopback postgres:// URL, or sqlite")
    import psycopg

    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = choice
