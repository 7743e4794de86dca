"""Play many random hands on our engine and on PokerKit side by side and count the results.

    .venv/bin/python benchmarks/diff_many.py [HANDS] [--workers N] [--first-seed S]

Uses the harness of the differential tests (tests/engine/pokerkit_duel.py; the docstring of
tests/engine/test_pokerkit_diff.py lists every known difference between the two engines with
the rule that decides it). Prints how many hands and
decisions agreed, how often each listed difference was met (and compared on, or ended the
comparison of a hand), and every mismatch outside them with the seed that replays it.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.pokerkit_duel import random_duel
from tests.engine.pokerkit_side import DIFFERENCES, Mismatch, Tally

CHUNK = 500


def run_chunk(first: int, count: int) -> tuple[Tally, list[tuple[int, str]]]:
    tally = Tally()
    failures: list[tuple[int, str]] = []
    for seed in range(first, first + count):
        try:
            tally.add(random_duel(seed))
        except Mismatch as exc:
            failures.append((seed, str(exc)))
    return tally, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()

    start = time.perf_counter()
    total = Tally()
    failures: list[tuple[int, str]] = []
    chunks = [
        (s, min(CHUNK, args.first_seed + args.hands - s))
        for s in range(args.first_seed, args.first_seed + args.hands, CHUNK)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        for tally, failed in pool.map(run_chunk, *zip(*chunks, strict=True)):
            total.merge(tally)
            failures.extend(failed)
    elapsed = time.perf_counter() - start

    played = total.hands
    print(f"hands played on both engines: {played + len(failures):,} "
          f"(seeds {args.first_seed}..{args.first_seed + args.hands - 1}), {elapsed:.0f} s")
    print(f"  players per hand: {dict(sorted(total.players.items()))}")
    streets = ["preflop", "flop", "turn", "river"]
    print("  last street with a decision: "
          + ", ".join(f"{streets[k]} {v:,}" for k, v in sorted(total.streets.items())))
    print(f"  showdowns: {total.showdowns:,}; hands ending with side pots: {total.side_pots:,}")
    print(f"decisions compared (who acts, check, call, raise allowed, min/max): "
          f"{total.decisions:,}")
    compared_to_end = played - sum(total.diverged.values())
    print(f"hands compared to the end, final stacks equal: {compared_to_end:,}")
    print(f"  of which met no listed difference at all: {total.clean:,}")
    print("listed differences (hands / decisions or events where the harness adapted):")
    for key in DIFFERENCES:
        print(f"  {key:<18} {total.adapted_hands[key]:>7,} hands {total.adapted_decisions[key]:>8,}"
              f" times   comparison stopped in {total.diverged[key]:>6,} hands")
    print(f"MISMATCHES outside the listed differences: {len(failures)}")
    for seed, message in failures[:10]:
        print(f"--- seed {seed}\n{message}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
