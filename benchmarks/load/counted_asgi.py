"""The app (config.asgi) with every SQL statement counted, for benchmarks/unit_costs.py.

PostgreSQL's own statement counter (pg_stat_statements) needs a library loaded at the server's
start, which the machine's shared PostgreSQL does not have; so the server processes count what
Django sends instead (a database execute wrapper on every connection: each statement, by its
first word), and write the counts to ``$BENCH_COUNTS_DIR/<pid>.json`` whenever they receive
SIGUSR1. Transactions (BEGIN/COMMIT are not statements Django sends through cursors) are
counted by PostgreSQL (pg_stat_database.xact_commit), and here too, by where they come from:
a statement sent outside ``transaction.atomic`` is a transaction of its own (autocommit), an
outermost atomic block is one (its COMMIT or ROLLBACK counted). Each statement's shape (its
text with the values taken out, cut short) and the product function that sent it are counted
too (with ``BENCH_DETAIL`` set), so a report can say which statements and transactions an
action costs, and why.
"""

from __future__ import annotations

import gc
import json
import os
import re
import signal
import sys
import threading
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

from config.asgi import application  # noqa: F401  (what daphne serves)

_counts: Counter[str] = Counter()
_shapes: Counter[str] = Counter()
_transactions: Counter[str] = Counter()
_lock = threading.Lock()
_written = 0
_ROOT = str(Path(__file__).resolve().parents[2])
_OWN = (f"{_ROOT}/tables/", f"{_ROOT}/config/")
_VALUES = re.compile(r"'[^']*'|\b\d+\b|%s")
_COLUMNS = re.compile(r'"[a-z_]+"\."([a-z_]+)"')
# Shapes and senders cost a walk up the stack and two regular expressions per statement: only
# when asked (``unit_costs --detail``).
_DETAIL = bool(os.environ.get("BENCH_DETAIL"))


def _caller() -> str:
    """The innermost function of the product (tables/, config/) that sent the statement."""
    frame = sys._getframe(3)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_OWN) and "/cache/queries.py" not in name:
            return f"{name[len(_ROOT) + 1:]}:{frame.f_code.co_name}"
        frame = frame.f_back  # type: ignore[assignment]
    return "?"


def _shape(sql: str) -> str:
    text = _COLUMNS.sub(r"\1", _VALUES.sub("?", " ".join(sql.split())))
    if text.startswith("SELECT") and " FROM " in text:
        tail = text.split(" FROM ", 1)[1]
        text = "SELECT … FROM " + tail
    return text[:110]


def _count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    kind = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    connection = context["connection"]
    alone = not connection.in_atomic_block
    where = _caller() if _DETAIL else "-"
    with _lock:
        _counts[kind] += len(params) if many and params is not None else 1
        if _DETAIL:
            _shapes[f"{'autocommit' if alone else 'in atomic'} | {where} | {_shape(sql)}"] += 1
        if alone:
            _transactions[f"autocommit {kind} | {where}"] += 1
    return execute(sql, params, many, context)


def _counting(method: Callable[..., Any], what: str) -> Callable[..., Any]:
    def counted(self: BaseDatabaseWrapper) -> Any:
        if not self.get_autocommit():  # an outermost block ending (savepoints are not this)
            where = _caller() if _DETAIL else "-"
            with _lock:
                _transactions[f"atomic {what} | {where}"] += 1
        return method(self)

    return counted


BaseDatabaseWrapper.commit = _counting(BaseDatabaseWrapper.commit, "COMMIT")  # type: ignore[method-assign]
BaseDatabaseWrapper.rollback = _counting(BaseDatabaseWrapper.rollback, "ROLLBACK")  # type: ignore[method-assign]


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def _dump(signum: int, frame: Any) -> None:
    global _written
    _written += 1
    with _lock:
        data = {
            "seq": _written, "counts": dict(_counts), "shapes": dict(_shapes),
            "transactions": dict(_transactions),
        }
    target = Path(os.environ["BENCH_COUNTS_DIR"]) / f"{os.getpid()}.json"
    scratch = target.with_suffix(".tmp")
    scratch.write_text(json.dumps(data))
    scratch.replace(target)


def _trace(signum: int, frame: Any) -> None:
    """SIGUSR2 (with ``BENCH_TRACEMALLOC`` set): the allocations alive now, to
    ``$BENCH_COUNTS_DIR/<pid>-<n>.tracemalloc`` (benchmarks/socket_memory.py)."""
    global _written
    _written += 1
    gc.collect()
    target = Path(os.environ["BENCH_COUNTS_DIR"]) / f"{os.getpid()}-{_written}.tracemalloc"
    scratch = target.with_suffix(".tmp")
    tracemalloc.take_snapshot().dump(str(scratch))
    scratch.replace(target)


connection_created.connect(_on_connection)
signal.signal(signal.SIGUSR1, _dump)
if os.environ.get("BENCH_TRACEMALLOC"):
    tracemalloc.start(int(os.environ["BENCH_TRACEMALLOC"]))
    signal.signal(signal.SIGUSR2, _trace)
