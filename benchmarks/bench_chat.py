"""What one line of table talk costs the server (issue 17), in CPU rather than wall time (so a
busy machine changes the figure less): a table of six people on their own phones and two
spectators, all connected in this process (the in-memory channel layer, a scratch SQLite
file); lines are said in turn and each is timed from sending until all eight phones have it.

    .venv/bin/python benchmarks/bench_chat.py [--lines 600]

Reported: this process's CPU milliseconds per line (parse, checks, the stored row, the group
message, eight small frames drawn and sent; the phones' own receiving included, as they are in
this process too), the wall time per line (median and p99), the bytes of the frame each phone
gets, and that the table's version did not move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
parser.add_argument("--lines", type=int, default=600)
ARGS = parser.parse_args()

os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/chat.sqlite3"
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["TABLES_CLOCK_IN_SERVER"] = "false"

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from django.core.management import call_command  # noqa: E402

from tables import claims  # noqa: E402
from tables.models import Table  # noqa: E402
from tables.write import lobby, talk  # noqa: E402
from tests.tables.helpers import Phone, new_session  # noqa: E402

NAMES = ["Asha", "Bikash", "Chandra", "Dipak", "Esha", "Firoz"]


def setup() -> tuple[Table, list[str]]:
    call_command("migrate", "--noinput", verbosity=0)
    host = new_session()
    table = lobby.create_table(host, NAMES[:1], lobby.TableSettings(seat_count=6))
    sessions = [host]
    for name in NAMES[1:]:
        session = new_session()
        lobby.join_table(table.id, name, session)
        sessions.append(session)
    for session in sessions:
        session.save()
    lobby.start_game(table.id, claims.session_hashes(host))
    table.refresh_from_db()
    return table, [str(s.session_key) for s in sessions]


async def main() -> None:
    table, keys = await database_sync_to_async(setup)()
    talk.limiter = talk.Limiter(burst=10**9)  # the rate limit is not what is measured here
    players = [Phone(table.code, key) for key in keys]
    watchers = [Phone(table.code, None) for _ in range(2)]
    phones = players + watchers
    for phone in phones:
        await phone.connect()
    version = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version
    walls: list[float] = []
    sizes: list[int] = []
    warm = 50
    cpu_start = 0.0
    for n in range(ARGS.lines + warm):
        if n == warm:
            cpu_start = time.process_time()
            walls.clear()
        speaker = players[n % len(players)]
        start = time.perf_counter()
        await speaker.send({"type": "chat", "text": f"nice hand {n} <b>!</b>"})
        for phone in phones:
            frame = await phone.next()
            assert 'id="chat-log"' in frame.text, frame.text[:200]
            sizes.append(len(frame.text.encode()))
        walls.append(time.perf_counter() - start)
    cpu = time.process_time() - cpu_start
    after = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version
    for phone in phones:
        await phone.close()
    walls.sort()
    print(f"{ARGS.lines} lines to {len(phones)} phones (6 seated, 2 watching), in-process")
    print(f"  server+phones CPU per line: {1000 * cpu / ARGS.lines:.2f} ms")
    print(f"  wall per line: median {1000 * statistics.median(walls):.2f} ms, "
          f"p99 {1000 * walls[int(0.99 * (len(walls) - 1))]:.2f} ms")
    print(f"  frame per phone: {statistics.mean(sizes):.0f} bytes")
    print(f"  table version before {version}, after {after} (chat never makes a version)")


if __name__ == "__main__":
    asyncio.run(main())
