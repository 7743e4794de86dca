"""Seven-card evaluations per second: engine.evaluator against treys and phevaluator.

Every evaluator values the same random hands, already converted to its own card format, one
call per hand from a Python loop (the way a simulation calls it). Run from the project root:

    .venv/bin/python benchmarks/bench_evaluator.py [--hands N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from phevaluator import evaluate_cards
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from engine.cards import ALL_CARDS
from engine.evaluator import evaluate, rank_ids, rank_many


def best_rate(run: Callable[[], object], count: int, repeat: int) -> float:
    """Evaluations per second of the fastest of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [rng.sample(range(52), 7) for _ in range(args.hands)]
    engine_cards = [[ALL_CARDS[i] for i in h] for h in hands]
    treys_cards = [[TreysCard.new(str(ALL_CARDS[i])) for i in h] for h in hands]
    # phevaluator numbers suits c, d, h, s where we number s, h, d, c: flip the two low bits.
    phe_ids = [[i ^ 3 for i in h] for h in hands]
    batch = np.array(hands)
    treys = TreysEvaluator()

    def run_rank_ids() -> None:
        for h in hands:
            rank_ids(h)

    def run_treys() -> None:
        for h in treys_cards:
            treys.evaluate(h[:2], h[2:])

    def run_phevaluator() -> None:
        for h in phe_ids:
            evaluate_cards(*h)

    def run_rank_many() -> None:
        rank_many(batch)

    # evaluate() also picks and orders the five cards, so it gets fewer hands to keep it short.
    slow = max(1, args.hands // 10)
    short_cards = engine_cards[:slow]

    def run_evaluate_short() -> None:
        for h in short_cards:
            evaluate(h)

    rates = {
        "engine rank_ids": best_rate(run_rank_ids, len(hands), args.repeat),
        "engine evaluate": best_rate(run_evaluate_short, slow, args.repeat),
        "treys": best_rate(run_treys, len(hands), args.repeat),
        "phevaluator evaluate_cards": best_rate(run_phevaluator, len(hands), args.repeat),
        "engine rank_many (numpy batch)": best_rate(run_rank_many, len(hands), args.repeat),
    }
    python = sys.version.split()[0]
    print(f"{len(hands):,} random 7-card hands, best of {args.repeat} runs, Python {python}")
    print(f"{'evaluator':<32}{'evals/s':>14}{'vs treys':>10}")
    for name, rate in rates.items():
        print(f"{name:<32}{rate:>14,.0f}{rate / rates['treys']:>9.2f}x")
    target = rates["engine rank_ids"] / rates["treys"]
    print(f"rank_ids / treys = {target:.2f}x (target >= 3x): {'met' if target >= 3 else 'NOT met'}")


if __name__ == "__main__":
    main()
