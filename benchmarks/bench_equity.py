"""Equity of A♠K♦ on K♥ 7♣ 2♦ against 5 random hands, 10,000 trials: engine.equity against the
same simulation written plainly over phevaluator's compiled evaluator (and over rank_ids).

    .venv/bin/python benchmarks/bench_equity.py [--trials N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from phevaluator import evaluate_cards

from engine.cards import parse_cards
from engine.equity import equity
from engine.evaluator import rank_ids

HOLE = parse_cards("As Kd")
BOARD = parse_cards("Kh 7c 2d")
OPPONENTS = 5


def plain_simulation(
    value_of: Callable[[list[int]], int], ids: Callable[[int], int], trials: int, rng: random.Random
) -> float:
    """Deal the rest of the deck at random each trial and split the pot among the best hands.

    ``value_of`` maps card ids to a value where higher is better.
    """
    hole = [ids(c.id) for c in HOLE]
    board = [ids(c.id) for c in BOARD]
    deck = [ids(c) for c in range(52) if ids(c) not in hole + board]
    missing = 5 - len(board)
    won = 0.0
    for _ in range(trials):
        dealt = rng.sample(deck, missing + 2 * OPPONENTS)
        full_board = board + dealt[:missing]
        mine = value_of(hole + full_board)
        best, tied = mine, 1
        for seat in range(OPPONENTS):
            start = missing + 2 * seat
            theirs = value_of(dealt[start : start + 2] + full_board)
            if theirs > best:
                best, tied = theirs, 0
            elif theirs == best:
                tied += 1
        if best == mine:
            won += 1 / tied
    return won / trials


def phevaluator_value(cards: list[int]) -> int:
    return -int(evaluate_cards(*cards))  # phevaluator: smaller is stronger


def phevaluator_id(card_id: int) -> int:
    return card_id ^ 3  # phevaluator numbers suits c, d, h, s; we number them s, h, d, c


def timed(run: Callable[[], float], repeat: int) -> tuple[float, float]:
    """Fastest time in seconds of ``repeat`` runs, and the estimate of the last run."""
    best, result = float("inf"), 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    trials = args.trials

    start = time.perf_counter()
    equity(HOLE, BOARD, OPPONENTS, trials, random.Random(0))
    first_call = time.perf_counter() - start  # builds the numpy tables once

    runs = {
        "engine.equity (numpy)": lambda: equity(
            HOLE, BOARD, OPPONENTS, trials, random.Random(1)
        ),
        "plain loop over phevaluator": lambda: plain_simulation(
            phevaluator_value, phevaluator_id, trials, random.Random(1)
        ),
        "plain loop over rank_ids": lambda: plain_simulation(
            rank_ids, lambda card_id: card_id, trials, random.Random(1)
        ),
    }
    print(
        f"A♠K♦ on K♥ 7♣ 2♦ against {OPPONENTS} random hands, {trials:,} trials, "
        f"best of {args.repeat} runs"
    )
    print(f"{'simulation':<30}{'ms':>9}{'equity':>9}{'speed vs phevaluator':>23}")
    times = {name: timed(run, args.repeat) for name, run in runs.items()}
    reference = times["plain loop over phevaluator"][0]
    for name, (seconds, result) in times.items():
        print(f"{name:<30}{seconds * 1000:>9.1f}{result:>9.4f}{reference / seconds:>22.2f}x")
    print(f"engine.equity first call (builds its numpy tables): {first_call * 1000:.1f} ms")
    ours = times["engine.equity (numpy)"][0]
    verdict = "met" if ours <= reference else "NOT met"
    print(f"engine.equity no slower than phevaluator loop: {verdict}")


if __name__ == "__main__":
    main()
