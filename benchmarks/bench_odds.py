"""How long the face-up odds take (engine.odds), by street and number of hands.

    .venv/bin/python benchmarks/bench_odds.py [--spots 200] [--seed 1]

For 2 to 6 hands, on random spots: the exact count from the flop and from the turn (what the
table shows, no cache), the table's preflop simulation (PREFLOP_TRIALS boards), and the exact
preflop count (the command line's; a few spots only). Prints the median, p99 and max in ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.cards import ALL_CARDS, Card
from engine.odds import PREFLOP_TRIALS, exact_odds, simulated_odds


def _spot(rng: random.Random, hands: int, board: int) -> tuple[list[list[Card]], list[Card]]:
    cards = rng.sample(ALL_CARDS, 2 * hands + board)
    return [cards[2 * i : 2 * i + 2] for i in range(hands)], cards[2 * hands :]


def _times(fn, spots) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for holes, board in spots:
        start = time.perf_counter()
        fn(holes, board)
        out.append((time.perf_counter() - start) * 1000)
    return out


def _line(label: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"{label:<28} median {statistics.median(times):7.2f} ms  p99 {p99:7.2f} ms  "
            f"max {times[-1]:7.2f} ms  ({len(times)} spots)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spots", type=int, default=200)
    parser.add_argument("--exact-preflop", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    exact_odds(*_spot(rng, 2, 3))  # numpy and the tables warmed up
    for hands in range(2, 7):
        for street, board in (("flop", 3), ("turn", 4)):
            spots = [_spot(rng, hands, board) for _ in range(args.spots)]
            print(_line(f"{hands} hands, {street} exact", _times(exact_odds, spots)))
        spots = [_spot(rng, hands, 0) for _ in range(max(10, args.spots // 10))]
        print(_line(
            f"{hands} hands, preflop sim {PREFLOP_TRIALS // 1000}k",
            _times(lambda h, b: simulated_odds(h, b, PREFLOP_TRIALS), spots),
        ))
        spots = [_spot(rng, hands, 0) for _ in range(args.exact_preflop)]
        print(_line(f"{hands} hands, preflop exact", _times(exact_odds, spots)))


if __name__ == "__main__":
    main()
