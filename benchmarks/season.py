"""A group's season page and a phone's games page, timed (issue 26).

Builds a group of ``--games`` finished games of ``--hands`` hands among six people (real engine
hands: a seeded deck and a simple mix of folds, calls and raises, stored as the write path
stores them), and a phone that sat in ``--many`` games; then renders, through Django's test
client (middleware, session, template: the whole page):

- the season page with each game's statistics already counted (``GameStats`` rows: what the
  page reads once every game has been counted, i.e. statistics kept up to date as games end);
- the same page computed from the stored hands (every ``GameStats`` row deleted first, so each
  game's hands are replayed and counted: the first view after the hands were played);
- the games page (``/games/``) of the phone with ``--many`` games, its first and a later page.

Prints milliseconds: the median and the slowest of ``--repeat`` renders (computed once per
repeat: each run deletes the counts again).

    .venv/bin/python benchmarks/season.py [--games 50] [--hands 60] [--many 500] [--repeat 15]
        [--database sqlite | postgres://postgres@127.0.0.1:5432/holdem_bench_season]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.scratch_db import use_database

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
parser.add_argument("--games", type=int, default=50)
parser.add_argument("--hands", type=int, default=60)
parser.add_argument("--many", type=int, default=500, help="games of the phone's games page")
parser.add_argument("--repeat", type=int, default=15)
parser.add_argument("--cold-repeat", type=int, default=3)
parser.add_argument("--database", default="sqlite", help="'sqlite' or a loopback postgres:// URL")
ARGS = parser.parse_args()

use_database(ARGS.database, "season.sqlite3", fresh=True)
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from engine.game import Game, GameSettings  # noqa: E402
from engine.hand import Hand as EngineHand  # noqa: E402
from engine.history import hand_record  # noqa: E402
from tables import claims  # noqa: E402
from tables.models import GameStats, Group, GroupGame, Hand, Seat, Table  # noqa: E402
from tables.read.statistics import counted  # noqa: E402
from tables.write import groups  # noqa: E402
from tests.engine.helpers import random_hand  # noqa: E402

NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


Played = list[tuple[EngineHand, dict[int, int]]]


def play_game(rng: random.Random, hands: int) -> tuple[Game, Played]:
    """A six-person game of up to ``hands`` hands: each decision a fold (often preflop), a
    check or call, or now and then a raise."""
    game = Game(GameSettings(blind_every=10, max_hands=hands), dict.fromkeys(range(6), True), rng)
    played = []
    while not game.finished:
        hand = random_hand(game, rng, 0.12, 0.45)
        played.append((hand, dict(hand.final_stacks)))
    return game, played


def store(game: Game, played: Played, hashes: list[str],
          code: str, at: datetime) -> Table:
    table = Table.objects.create(
        code=code, status=Table.Status.FINISHED, seat_count=6, max_hands=ARGS.hands,
        state=game.to_dict(), created_at=at, started_at=at, finished_at=at,
    )
    Seat.objects.bulk_create([
        Seat(table=table, position=i, name=NAMES[i], claim_hash=hashes[i]) for i in range(6)
    ])
    rows = []
    for hand, final in played:
        settings = hand.settings
        rows.append(Hand(
            table=table, number=settings.hand_number, record=hand_record(hand),
            players=[{"seat": s, "name": NAMES[s], "stack": st, "is_computer": False}
                     for s, st in zip(settings.seats, settings.stacks, strict=True)],
            final_stacks={str(k): v for k, v in final.items()}, ended_at=at,
        ))
    Hand.objects.bulk_create(rows)
    return table


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def show(label: str, times: list[float]) -> None:
    print(f"{label:<58} median {statistics.median(times):7.1f} ms   max {max(times):7.1f} ms"
          f"   ({len(times)} runs)")


def main() -> None:
    call_command("migrate", verbosity=0)
    rng = random.Random(26)
    sessions: list[dict[str, object]] = [{} for _ in NAMES]
    hashes = [claims.new_claim(s) for s in sessions]
    start = timezone.now() - timedelta(days=ARGS.games)
    build = time.perf_counter()
    group = Group.objects.create(code="benchseason", name="Fridays", creator_hash=hashes[0])
    hand_count = 0
    for g in range(ARGS.games):
        game, played = play_game(rng, ARGS.hands)
        hand_count += len(played)
        table = store(game, played, hashes, f"S{g:05d}", start + timedelta(days=g))
        GroupGame.objects.create(group=group, table=table, added_at=table.created_at)
    print(f"built {ARGS.games} games, {hand_count} hands, six people, in "
          f"{time.perf_counter() - build:.1f} s ({ARGS.database.split(':')[0]})")

    client = Client()
    url = f"/g/{group.code}/"

    def cold() -> None:
        GameStats.objects.all().delete()
        assert client.get(url).status_code == 200

    def warm() -> None:
        assert client.get(url).status_code == 200

    show("season page, statistics computed from the stored hands", timed(cold, ARGS.cold_repeat))
    warm()
    show("season page, statistics kept (counted as games end)", timed(warm, ARGS.repeat))
    season_only = timed(lambda: groups.season(group), ARGS.repeat)
    show("  of which the season's standings and lists", season_only)
    last = Table.objects.get(code=f"S{ARGS.games - 1:05d}")

    def one_game() -> None:
        GameStats.objects.filter(table=last).delete()
        counted([last])

    show(f"counting one game of {ARGS.hands} hands as it ends", timed(one_game, ARGS.repeat))

    # A phone with many games: the same six people, games without hands (the list reads none).
    game, _played = play_game(rng, 30)
    for g in range(ARGS.many):
        table = Table.objects.create(
            code=f"M{g:05d}", status=Table.Status.FINISHED, seat_count=6,
            state=game.to_dict(), created_at=start + timedelta(hours=g),
        )
        Seat.objects.bulk_create([
            Seat(table=table, position=i, name=NAMES[i], claim_hash=hashes[i]) for i in range(6)
        ])
    phone = Client()
    session = phone.session
    session[claims.SESSION_KEY] = sessions[1][claims.SESSION_KEY]
    session.save()
    total = ARGS.many + ARGS.games
    assert phone.get("/games/").status_code == 200
    show(f"games page, first page of {total} games", timed(lambda: phone.get("/games/"),
                                                            ARGS.repeat))
    show(f"games page, page 10 of {total} games",
         timed(lambda: phone.get("/games/?page=10"), ARGS.repeat))
    show("home page with the latest games", timed(lambda: phone.get("/"), ARGS.repeat))

    # The worst case: a phone that joined each of its games afresh (a claim per game).
    own: dict[str, object] = {}
    for g in range(ARGS.many):
        table = Table.objects.create(
            code=f"N{g:05d}", status=Table.Status.FINISHED, seat_count=6,
            state=game.to_dict(), created_at=start + timedelta(hours=g),
        )
        Seat.objects.bulk_create([
            Seat(table=table, position=i, name=NAMES[i],
                 claim_hash=claims.new_claim(own) if i == 0 else hashes[i]) for i in range(6)
        ])
    lone = Client()
    session = lone.session
    session[claims.SESSION_KEY] = own[claims.SESSION_KEY]
    session.save()
    assert lone.get("/games/").status_code == 200
    show(f"games page, {ARGS.many} games each joined afresh",
         timed(lambda: lone.get("/games/"), ARGS.repeat))


if __name__ == "__main__":
    main()
