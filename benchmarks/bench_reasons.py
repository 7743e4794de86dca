"""decide against decide_explained (issue 27): what noting the reason costs, per level.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_reasons.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.bots import decide, decide_explained
from tests.engine.test_bots_reasons import spots


def main() -> None:
    found = spots(41, {0: "hard", 1: "medium", 2: "easy", 3: "hard", 4: "medium"}, hands=30)
    runs: list[tuple[str, Callable[..., Any]]] = [
        ("decide", decide), ("decide_explained", decide_explained),
    ]
    for name, run in runs:
        times: dict[str, list[float]] = {}
        for level, view, past, seed in found:
            start = time.perf_counter()
            run(level, view, past, random.Random(seed))
            times.setdefault(level, []).append(time.perf_counter() - start)
        for level, spent in sorted(times.items()):
            spent.sort()
            print(
                f"{name:17} {level:6} n={len(spent):3} median {1000 * spent[len(spent) // 2]:5.1f}"
                f" ms  p99 {1000 * spent[max(0, int(len(spent) * 0.99) - 1)]:5.1f} ms"
            )


if __name__ == "__main__":
    main()
