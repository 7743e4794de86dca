"""The app (config.asgi) with every SQL statement counted, for benchmarks/unit_costs.py.

PostgreSQL's own statement counter (pg_stat_statements) needs a library loaded at the server's
start, which the machine's shared PostgreSQL does not have; so the server processes count what
Django sends instead (a database execute wrapper on every connection: each statement, by its
first word), and write the counts to ``$BENCH_COUNTS_DIR/<pid>.json`` whenever they receive
SIGUSR1. Transactions (BEGIN/COMMIT are not statements Django sends through cursors) are
counted by PostgreSQL (pg_stat_database.xact_commit)."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db.backends.signals import connection_created

from config.asgi import application  # noqa: F401  (what daphne serves)

_counts: Counter[str] = Counter()
_lock = threading.Lock()
_written = 0


def _count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    kind = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    with _lock:
        _counts[kind] += len(params) if many and params is not None else 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _dump(signum: int, frame: Any) -> None:
    global _written
    _written += 1
    with _lock:
        data = {"seq": _written, "counts": dict(_counts)}
    target = Path(os.environ["BENCH_COUNTS_DIR"]) / f"{os.getpid()}.json"
    scratch = target.with_suffix(".tmp")
    scratch.write_text(json.dumps(data))
    scratch.replace(target)


connection_created.connect(_on_connection)
signal.signal(signal.SIGUSR1, _dump)
