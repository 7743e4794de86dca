"""What one player action costs the write path: on the version the process holds (one
conditional UPDATE) against the locked transaction (begin, locked read, update, commit) as the
reference, measured in the same run, in alternating blocks.

Plays a six-person pass-and-play table (checking or calling; the clock deals each next hand)
and, for the actions only, measures the server's CPU (this process), the database's CPU (its
backend process, PostgreSQL on this machine only), the wall time and the queries sent (begin
and commit not counted; an action that ends a hand is made under the lock either way).

    .venv/bin/python benchmarks/bench_write_path.py [--actions 3000] [--block 100]
        [--database postgres://postgres@127.0.0.1:5432/holdem_bench_write | sqlite]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.scratch_db import use_database

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
parser.add_argument("--actions", type=int, default=3000, help="actions measured per way")
parser.add_argument("--block", type=int, default=100, help="actions per block (ways alternate)")
parser.add_argument(
    "--database", default="postgres://postgres@127.0.0.1:5432/holdem_bench_write",
    help="a loopback postgres:// URL (created if missing), or 'sqlite' for a scratch file",
)
ARGS = parser.parse_args()

use_database(ARGS.database, "write.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from tables import (  # noqa: E402
    cache,
    claims,
    clock,
)
from tables.models import Table  # noqa: E402
from tables.write import announce, lobby, play  # noqa: E402

_TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu(pid: int | None) -> float:
    """CPU seconds the database backend serving this connection has used (0 if not local)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


@contextmanager
def nothing_held() -> Iterator[None]:
    """The reference: the process holds no version, so every change takes the lock."""
    newest = cache.newest
    cache.newest = lambda table_id: None
    try:
        yield
    finally:
        cache.newest = newest


class Totals:
    def __init__(self) -> None:
        self.actions = 0
        self.cpu = self.db = self.wall = 0.0
        self.statements = 0

    def row(self, name: str) -> str:
        n = max(self.actions, 1)
        return (
            f"{name:<34} {self.actions:>7} {self.cpu / n * 1e6:>9.0f} {self.db / n * 1e6:>9.0f} "
            f"{self.wall / n * 1e6:>9.0f} {self.statements / n:>10.2f}"
        )


def main() -> None:
    call_command("migrate", verbosity=0)
    at: dict[str, Any] = {}

    def new_table() -> None:
        """A started table (another when a game ends: checking and calling, someone wins)."""
        session: dict[str, Any] = {}
        names = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]
        made = lobby.create_table(
            session, names, lobby.TableSettings(), mode=Table.Mode.LOCAL
        )
        at["id"], at["hashes"] = made.id, claims.session_hashes(session)
        lobby.start_game(made.id, at["hashes"])

    new_table()
    pid = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = int(cursor.fetchone()[0])
    statements = [0]

    def count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        statements[0] += 1
        return execute(sql, params, many, context)

    # Group messages are left to the event loop in the server (announce.write_then_notify):
    # here they are collected and dropped, as the server's database thread does.
    announce._deferred.set([])

    def one_action(totals: Totals | None) -> None:
        table_id = at["id"]
        snapshot = cache.newest(table_id) or cache.load_snapshot(table_id, check_cache=False)
        assert snapshot is not None and snapshot.game is not None
        if snapshot.status != Table.Status.PLAYING:
            new_table()
            return
        hand = snapshot.game.hand
        if hand is None or hand.finished or hand.seat_to_act is None:  # the clock deals
            assert clock.fire(table_id, snapshot.version, timezone.now() + timedelta(hours=1))
            return
        legal = hand.legal_actions()
        assert legal is not None
        before = (statements[0], time.process_time(), backend_cpu(pid), time.perf_counter())
        play.act(
            table_id, at["hashes"], kind="check" if legal.can_check else "call", amount=None,
            version=snapshot.version, action_id=play.random_action_id(), revealed=legal.seat,
        )
        if totals is not None:
            totals.actions += 1
            totals.statements += statements[0] - before[0]
            totals.cpu += time.process_time() - before[1]
            totals.db += backend_cpu(pid) - before[2]
            totals.wall += time.perf_counter() - before[3]

    held, locked = Totals(), Totals()
    with connection.execute_wrapper(count):
        for _ in range(200):  # warm-up, both ways
            one_action(None)
        with nothing_held():
            for _ in range(200):
                one_action(None)
        while held.actions < ARGS.actions or locked.actions < ARGS.actions:
            goal = held.actions + ARGS.block
            while held.actions < goal:
                one_action(held)
            goal = locked.actions + ARGS.block
            with nothing_held():
                while locked.actions < goal:
                    one_action(locked)
    database = connection.vendor + ("" if pid else " (its CPU not measured)")
    print(f"write path, one action ({database}; {held.actions} actions each way, blocks of "
          f"{ARGS.block}, alternating)")
    print(f"{'':<34} {'actions':>7} {'cpu µs':>9} {'db µs':>9} {'wall µs':>9} {'queries':>10}")
    print(held.row("on the version held (1 UPDATE)"))
    print(locked.row("reference: locked transaction"))
    for label, a, b in (
        ("server CPU", held.cpu, locked.cpu), ("database CPU", held.db, locked.db),
        ("wall time", held.wall, locked.wall),
    ):
        if b:
            ratio = (a / max(held.actions, 1)) / (b / locked.actions)
            print(f"  {label}: held / locked = {ratio:.2f}")


if __name__ == "__main__":
    main()
