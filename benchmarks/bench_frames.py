"""Milliseconds to draw one table frame (what each websocket connection is sent per change).

    .venv/bin/python benchmarks/bench_frames.py [--hands 20] [--repeat 100] [--profile]

A six-seat table (three people, three computer players) with six connections: each person's
phone, a second phone of one person, and two spectators. After every change the consumers draw
one frame per connection (``tables.live.frames.render_frame``); that is what is timed here.

- "played": hands played out with a random policy (checks, calls, bets, raises, folds, all
  ins); every version of the table is drawn once for every connection, in order, as at a real
  table. Reported per frame: mean, median and 95th percentile of each version's mean.
- "moments": one version drawn again and again (the lobby; preflop and the flop with a person
  to act; a finished hand after a showdown): "repeat" is the same version drawn again, "new"
  starts from empty caches each time (nothing drawn before, nothing derived).
- "many tables": ``--tables`` tables (84: 500 players six to a table), each with its own code
  and people, four hands each, their versions drawn in turn, as a busy server draws them: the
  parts all of them keep compete for one cache. Reported: ms per frame, parts kept at the end.
- "on the wire": the played frames compressed per connection as the server sends them to a
  browser (permessage-deflate, config/compression.py): bytes per frame and the time to
  compress one.
- "reference": a plain Django template (a loop over rows) rendered through the same engine
  to the same number of bytes as the frame, i.e. what an ordinary page of that size costs.

No database and no sockets: snapshots are built in memory, so the figures are the frame
building and template rendering alone. ``--profile`` prints where the time goes (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import random
import statistics
import sys
import time
import zlib
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.template import engines  # noqa: E402
from django.utils import timezone  # noqa: E402

from engine.game import Game, GameSettings  # noqa: E402
from tables.cache import SeatInfo, Snapshot  # noqa: E402
from tables.live import frames, perspective  # noqa: E402
from tables.live.frames import FrameOptions  # noqa: E402
from tables.live.perspective import PassState  # noqa: E402
from tables.models import Table  # noqa: E402
from tests.engine.helpers import legal_now  # noqa: E402

NAMES = ["Asha", "Bikash", "Chandra", "Computer 1", "Computer 2", "Computer 3"]
PERSONS = (0, 1, 2)
CONNECTIONS: list[list[int]] = [[0], [1], [2], [0], [], []]


def snapshot(game: Game | None, status: str, version: int, deadline: str = "turn") -> Snapshot:
    seats = {
        p: SeatInfo(p, NAMES[p], p not in PERSONS, "medium", False, claim)
        for p, claim in ((p, f"{p:064x}" if p in PERSONS else "") for p in range(6))
    }
    return Snapshot(
        id=1, code="ABC234", mode="friends", status=status, version=version, seat_count=6,
        max_hands=None, blind_every=10, computer_level="medium", turn_seconds=30,
        host_position=0, next_deadline=timezone.now() + timedelta(seconds=20),
        deadline_kind=deadline, paused=False, closed_reason="", next_code=None,
        seats=seats, game=game,
    )


def copy(game: Game) -> Game:
    return Game.from_dict(game.to_dict())


def random_action(game: Game, rng: random.Random) -> None:
    legal = legal_now(game)
    r = rng.random()
    if legal.bet_or_raise is not None and legal.min_to is not None and r < 0.2:
        game.act(legal.seat, legal.bet_or_raise, legal.min_to)
    elif legal.bet_or_raise is not None and r < 0.23:
        game.act(legal.seat, "all_in")
    elif not legal.can_check and r < 0.5:
        game.act(legal.seat, "fold")
    else:
        game.act(legal.seat, "check" if legal.can_check else "call")


def played_versions(hands: int, seed: int) -> list[Snapshot]:
    """Every version of a table over ``hands`` hands (a new game when one ends)."""
    rng = random.Random(seed)
    out: list[Snapshot] = []
    game = Game(GameSettings(), {p: p in PERSONS for p in range(6)}, rng=rng)
    for _ in range(hands):
        if game.finished:
            game = Game(GameSettings(), {p: p in PERSONS for p in range(6)}, rng=rng)
        hand = game.start_hand(seed=rng.getrandbits(32))
        out.append(snapshot(copy(game), Table.Status.PLAYING, len(out) + 1))
        while not hand.finished:
            random_action(game, rng)
            deadline = "next_hand" if hand.finished else "turn"
            out.append(snapshot(copy(game), Table.Status.PLAYING, len(out) + 1, deadline))
    return out


def moments() -> dict[str, Snapshot]:
    rng = random.Random(7)
    game = Game(GameSettings(), {p: p in PERSONS for p in range(6)}, rng=rng)
    hand = game.start_hand(seed=11)

    def passive() -> None:
        legal = hand.legal_actions()
        assert legal is not None
        game.act(legal.seat, "check" if legal.can_check else "call")

    out = {"lobby": snapshot(None, Table.Status.WAITING, 3, deadline="")}
    while hand.seat_to_act not in PERSONS:  # a person to act: their frame has the action bar
        passive()
    out["preflop"] = snapshot(copy(game), Table.Status.PLAYING, 10)
    while hand.street == 0 or hand.seat_to_act not in PERSONS:
        passive()
    out["flop"] = snapshot(copy(game), Table.Status.PLAYING, 20)
    while not hand.finished:
        passive()
    out["showdown"] = snapshot(copy(game), Table.Status.PLAYING, 30, deadline="next_hand")
    return out


def draw_version(snap: Snapshot) -> list[str]:
    return [
        frames.render_frame(
            snap, perspective.perspective(snap, mine, PassState()),
            FrameOptions(join_url="http://testserver/t/ABC234/", language="en"),
        )
        for mine in CONNECTIONS
    ]


def forget_everything() -> None:
    """Empty the process-wide fragment cache (a no-op for the code before it existed)."""
    try:
        from tables.cache import fragments
    except ImportError:
        return
    fragments.clear()


def fresh(snap: Snapshot) -> Snapshot:
    """The same version as if it had never been drawn: no fragment, nothing derived."""
    forget_everything()
    if "memo" in {f.name for f in dataclasses.fields(snap)}:
        return dataclasses.replace(snap, memo={})
    return snap


def reference_ms(size: int, repeat: int) -> float:
    template = engines["django"].from_string(
        '{% for r in rows %}<div class="row" data-i="{{ forloop.counter }}"><span class="a">'
        '{{ r.name }}</span> <span class="b">{{ r.stack }}</span>{% if r.on %} <b>on</b>'
        "{% endif %}</div>\n{% endfor %}"
    )
    one = len(template.render({"rows": [{"name": "Bikash", "stack": 1000, "on": True}]}))
    rows = [{"name": "Bikash", "stack": 1000 + i, "on": i % 2 == 0} for i in range(size // one)]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        template.render({"rows": rows})
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_played(hands: int) -> None:
    versions = played_versions(hands, seed=3)
    for snap in played_versions(2, seed=99):
        draw_version(snap)  # templates compiled and loaded
    forget_everything()
    per_version, sizes = [], []
    wire = Wire()
    for snap in versions:
        start = time.perf_counter()
        html = draw_version(snap)
        per_version.append((time.perf_counter() - start) / len(CONNECTIONS) * 1000)
        sizes.append(sum(len(h) for h in html) / len(html))
        wire.add(html)
    size = int(statistics.mean(sizes))
    p95 = statistics.quantiles(per_version, n=20)[-1]
    print(
        f"played: {hands} hands, {len(versions)} versions x {len(CONNECTIONS)} connections, "
        f"{size} bytes/frame on average\n"
        f"  ms/frame: mean {statistics.mean(per_version):.2f}, "
        f"median {statistics.median(per_version):.2f}, p95 {p95:.2f}; "
        f"reference template of {size} bytes: {reference_ms(size, 200):.2f} ms\n"
        f"  on the wire with permessage-deflate as the server sends them (config/compression.py:"
        f" one compressor per connection, kept from frame to frame): {wire.mean_bytes():.0f} "
        f"bytes/frame, {100 * wire.mean_bytes() / wire.mean_plain():.1f}% of the frame "
        f"({wire.mean_plain():.0f} bytes in UTF-8); {wire.mean_ms():.3f} ms/frame to compress\n"
    )


class Wire:
    """Frames compressed as Daphne does once config/compression.py accepted a phone's offer:
    zlib's default level, the configured window and memory level, one compressor per
    connection that keeps its history, each message flushed and its last four bytes cut."""

    def __init__(self) -> None:
        try:
            from config import compression

            self.window, self.memory = compression.WINDOW_BITS, compression.MEM_LEVEL
        except ImportError:  # the code before compressed frames: what autobahn would use
            self.window, self.memory = 15, 8
        self.compressors: list[Any] = []
        self.plain = self.sent = self.frames = 0
        self.seconds = 0.0

    def add(self, html: list[str]) -> None:
        while len(self.compressors) < len(html):
            self.compressors.append(
                zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -self.window,
                                 self.memory)
            )
        for compressor, text in zip(self.compressors, html, strict=False):
            data = text.encode()
            start = time.perf_counter()
            out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
            self.seconds += time.perf_counter() - start
            self.plain += len(data)
            self.sent += len(out) - 4
            self.frames += 1

    def mean_bytes(self) -> float:
        return self.sent / max(1, self.frames)

    def mean_plain(self) -> float:
        return self.plain / max(1, self.frames)

    def mean_ms(self) -> float:
        return self.seconds * 1000 / max(1, self.frames)


def bench_many(tables: int, hands: int) -> None:
    """Many tables at once, as on a busy server: each its own code and people, their versions
    drawn in turn (one version of every table, then the next), so the kept parts of all of
    them compete for the process's fragment cache."""
    every = []
    for number in range(tables):
        code = f"T{number:05d}"
        renamed: list[Snapshot] = []
        for snap in played_versions(hands, seed=1000 + number):
            seats = {
                p: dataclasses.replace(info, name=f"{info.name} {number}")
                for p, info in snap.seats.items()
            }
            renamed.append(dataclasses.replace(snap, id=number + 1, code=code, seats=seats))
        every.append(renamed)
    forget_everything()
    drawn, sizes = 0, 0
    start = time.perf_counter()
    for at in range(max(len(v) for v in every)):
        for versions in every:
            if at < len(versions):
                html = draw_version(versions[at])
                drawn += len(html)
                sizes += sum(len(h) for h in html)
    ms = (time.perf_counter() - start) / drawn * 1000
    try:
        from tables.cache import fragments

        kept = f"{len(fragments._cache)} of {fragments.KEPT}"
    except ImportError:
        kept = "-"
    size = sizes // drawn
    print(
        f"many tables: {tables} tables x {hands} hands, drawn in turn, {drawn} frames of "
        f"{size} bytes on average\n"
        f"  ms/frame: {ms:.2f}; reference template of {size} bytes: "
        f"{reference_ms(size, 200):.2f} ms; parts kept at the end: {kept}\n"
    )


def bench_moments(repeat: int) -> None:
    print(f"moments (median of {repeat}):")
    print(f"{'':<10} {'bytes':>7} {'repeat ms':>10} {'new ms':>8} {'reference ms':>13}")
    for name, snap in moments().items():
        draw_version(snap)
        again, new = [], []
        for _ in range(repeat):
            cold = fresh(snap)
            start = time.perf_counter()
            html = draw_version(cold)
            new.append((time.perf_counter() - start) / len(CONNECTIONS))
            start = time.perf_counter()
            draw_version(snap)
            again.append((time.perf_counter() - start) / len(CONNECTIONS))
        size = max(len(h) for h in html)
        print(
            f"{name:<10} {size:>7} {statistics.median(again) * 1000:>10.2f} "
            f"{statistics.median(new) * 1000:>8.2f} {reference_ms(size, repeat):>13.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--tables", type=int, default=84,
                        help="tables drawn in turn for the 'many tables' figure (0: skip)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    backend: Any = engines["django"]
    loaders = [type(x).__module__ + "." + type(x).__name__ for x in backend.engine.template_loaders]
    print(f"template loaders: {', '.join(loaders)}\n")
    bench_played(args.hands)
    if args.tables:
        bench_many(args.tables, 4)
    bench_moments(args.repeat)
    if args.profile:
        versions = played_versions(args.hands, seed=5)
        forget_everything()
        profiler = cProfile.Profile()
        profiler.enable()
        for snap in versions:
            draw_version(snap)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
