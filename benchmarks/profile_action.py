"""Where one table action's CPU goes: the locked write path plus six players' frames.

Plays a 6-seat pass-and-play table (all persons, checking or calling) on a scratch SQLite file
and prints ms per step (one action, one snapshot load, six rendered frames) and a cProfile of
the run. Reference point for the load benchmark (benchmarks/load/): a step must cost well under
6 ms for 500 players at two actions per second per table on one core.

    .venv/bin/python benchmarks/profile_action.py [STEPS]
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/profile.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from engine.game import Game  # noqa: E402
from tables import (  # noqa: E402
    cache,
    claims,
    clock,
)
from tables.live import frames, perspective  # noqa: E402
from tables.models import Table  # noqa: E402
from tables.write import lobby, play  # noqa: E402


def main(steps: int) -> None:
    call_command("migrate", verbosity=0)
    session: dict[str, object] = {}
    names = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]
    table = lobby.create_table(session, names, lobby.TableSettings(), mode=Table.Mode.LOCAL)
    hashes = claims.session_hashes(session)
    lobby.start_game(table.id, hashes)

    def step() -> None:
        row = Table.objects.get(pk=table.id)
        assert row.state is not None
        game = Game.from_dict(row.state)
        if game.hand_running and game.hand is not None:
            legal = game.hand.legal_actions()
            assert legal is not None
            play.act(
                table.id, hashes, kind="check" if legal.can_check else "call", amount=None,
                version=row.version, action_id=play.random_action_id(), revealed=legal.seat,
            )
        else:
            clock.fire(table.id, row.version, now=timezone.now() + timedelta(hours=1))
        snapshot = cache.load_snapshot(table.id)
        assert snapshot is not None
        for seat in range(6):
            persp = perspective.perspective(snapshot, [seat], perspective.PassState(revealed=seat))
            frames.render_frame(snapshot, persp, frames.FrameOptions())

    step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    plain = (time.perf_counter() - start) / steps
    print(f"{steps} steps without the profiler: {plain * 1000:.1f} ms per step")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(steps):
        step()
    profile.disable()
    pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
