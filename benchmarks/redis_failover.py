"""How soon every phone is current after the Redis master dies and Sentinel promotes its
replica (issue 40: goal 3 s from the promotion).

    .venv/bin/python benchmarks/redis_failover.py [--runs 10] [--tables 5] [--port 6390]
        [--death killed|frozen]

A master, its replica and three Sentinels of the benchmark's own
(tests/helpers/sentinel_redis.py: ports --port to --port+4, a dead master noticed after 1 s), the
app's channel layer finding the master through the Sentinels, a scratch SQLite file, and
``--tables`` tables of three seats, each with its two players' phones and a spectator's (in this
process, as in the tests). Each run: SIGKILL of the master (``--death frozen``: SIGSTOP, a
machine gone without a word); every table changes meanwhile (the table clock fires: each change
committed, its announcement lost); the Sentinels promote the replica. Measured from the
promotion (the moment the replica says it is the master) to the moment the last phone has drawn
its table's current version, unasked; also from the moment a Sentinel first names the new master
(what the app asks) to that. Then the killed server comes back and becomes the replica, and the
next run kills the other one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
parser.add_argument("--runs", type=int, default=10)
parser.add_argument("--tables", type=int, default=5)
parser.add_argument("--port", type=int, default=6390)
parser.add_argument("--death", choices=["killed", "frozen"], default="killed")
ARGS = parser.parse_args()

FOLDER = Path(tempfile.mkdtemp())
os.environ["DATABASE_URL"] = f"sqlite:///{FOLDER}/failover.sqlite3"
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["TABLES_CLOCK_IN_SERVER"] = "false"

import django  # noqa: E402

django.setup()

from channels.db import database_sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from config.channel_layers import channel_layers, sentinel_hosts  # noqa: E402
from tables import clock  # noqa: E402
from tables.models import Table  # noqa: E402
from tables.write import lobby  # noqa: E402
from tests.helpers.sentinel_redis import MASTER_NAME, SentinelRedis  # noqa: E402
from tests.tables.helpers import Phone, new_session  # noqa: E402
from tests.tables.helpers.driver import seat_people_now  # noqa: E402


def tables(count: int) -> list[tuple[Table, list[str]]]:
    call_command("migrate", "--noinput", verbosity=0)
    made = []
    for _ in range(count):
        table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=3))
        watcher = new_session()
        watcher.save()
        made.append((table, [s.session_key for s in [*sessions, watcher]]))
    return made


def versions() -> dict[int, int]:
    return dict(Table.objects.values_list("id", "version"))


def tick() -> int:
    return clock.tick(timezone.now() + timedelta(seconds=120))


async def _current(phone: Phone, version: int) -> float:
    await phone.until_version(version, timeout=60)
    return time.monotonic()


async def main() -> None:
    redis = SentinelRedis(FOLDER, ARGS.port)
    redis.start()
    settings.CHANNEL_LAYERS = channel_layers(
        "", prefix="failover", sentinels=sentinel_hosts(redis.sentinels, MASTER_NAME)
    )
    results: list[tuple[float, float]] = []
    try:
        made = await database_sync_to_async(tables)(ARGS.tables)
        phones = [(table.id, Phone(table.code, key)) for table, keys in made for key in keys]
        for _table_id, phone in phones:
            await phone.connect()
        for run in range(ARGS.runs):
            kill = redis.kill_master if ARGS.death == "killed" else redis.freeze_master
            old = await asyncio.to_thread(kill)
            fired = await database_sync_to_async(tick)()
            assert fired == len(made), fired
            now = await database_sync_to_async(versions)()
            waiting = [asyncio.create_task(_current(phone, now[table_id]))
                       for table_id, phone in phones]
            promoted, named, _new = await asyncio.to_thread(redis.promoted, old)
            last = max(await asyncio.gather(*waiting))
            results.append((last - promoted, last - named))
            print(f"run {run + 1}: every phone ({len(phones)}) current "
                  f"{last - promoted:.2f} s after the promotion "
                  f"({last - named:.2f} s after a Sentinel named the new master)", flush=True)
            await asyncio.to_thread(redis.restart, old)
            await asyncio.to_thread(redis.ready)
        for _table_id, phone in phones:
            await phone.close()
    finally:
        redis.stop()
    after_promotion = sorted(r[0] for r in results)
    after_named = sorted(r[1] for r in results)
    median = statistics.median(after_promotion)
    print(f"\n{len(results)} failovers (master {ARGS.death}), {ARGS.tables} tables, "
          f"{len(phones)} phones: "
          f"every phone current after the promotion: median {median:.2f} s, "
          f"worst {after_promotion[-1]:.2f} s (goal 3 s: "
          f"{'met' if after_promotion[-1] <= 3 else 'MISSED'}); after a Sentinel named the new "
          f"master: median {statistics.median(after_named):.2f} s, worst {after_named[-1]:.2f} s")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
