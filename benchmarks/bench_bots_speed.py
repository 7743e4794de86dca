"""Decision time of each computer level: p50, p90, p99 and max over 10,000 decisions, one core.

    .venv/bin/python benchmarks/bench_bots_speed.py [--decisions 10000] [--seed 1]

For each level, hands are played until that level has made ``--decisions`` decisions: half at
six seats where every seat is played by that level (multiway pots are the slowest case: up to
five ranges to read and deal), half heads-up, with stacks drawn between 8 and 150 big blinds
and the hard players remembering the hands of their session (200 hands). Each ``decide`` call
is timed alone, with the full game view built by ``engine.views.game_view`` as the tables app
does. The requirement is p99 under 50 ms.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from engine.bots import LEVELS, decide  # noqa: E402
from engine.game import Game, GameSettings  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.hand_settings import HandSettings  # noqa: E402
from engine.views import game_view, hand_view  # noqa: E402


def measure(level: str, decisions: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds per decision: all of them, and those after the flop."""
    rng = random.Random(seed)
    times: list[float] = []
    postflop: list[float] = []
    number = 0
    session_pasts: dict[int, list[dict[str, Any]]] = {}
    while len(times) < decisions:
        number += 1
        players = 6 if number % 2 else 2
        if number % 200 in (1, 2):
            session_pasts = {}
        seats = tuple(range(players))
        game = Game(GameSettings(), dict.fromkeys(seats, False), rng=random.Random(number))
        stacks = tuple(rng.randint(8, 150) * 20 for _ in seats)
        settings = HandSettings(number, seats, stacks, seats[number % players], 10, 20)
        hand = Hand(settings, [c for c in _deck(rng)])
        game.hand = hand  # the view of a running hand, as the tables app builds it
        while not hand.finished and len(times) < decisions:
            seat = hand.seat_to_act
            assert seat is not None
            view = game_view(game, seat)
            past = session_pasts.setdefault(seat + 10 * players, [])
            started = time.perf_counter()
            action = decide(level, view, past, rng)
            times.append(time.perf_counter() - started)
            if hand.board:
                postflop.append(times[-1])
            hand.act(action.seat, action.kind, action.amount)
        if hand.finished:
            for seat in seats:
                session_pasts.setdefault(seat + 10 * players, []).append(hand_view(hand, seat))
    return times, postflop


def _deck(rng: random.Random) -> list[Any]:
    from engine.cards import new_deck

    deck = new_deck()
    rng.shuffle(deck)
    return deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for level in LEVELS:
        times, postflop = measure(level, args.decisions, args.seed)
        print(f"{level:7s} {describe(times)}", flush=True)
        print(f"{'':7s} after the flop only: {describe(postflop)}", flush=True)


def describe(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)

    def q(p: float) -> float:
        return ms[min(int(p * len(ms)), len(ms) - 1)]

    return (
        f"{len(ms)} decisions: p50 {q(0.5):.2f} ms, p90 {q(0.9):.2f} ms, p99 {q(0.99):.2f} ms, "
        f"max {ms[-1]:.2f} ms, mean {statistics.fmean(ms):.2f} ms"
    )


if __name__ == "__main__":
    main()
