"""Each hand's chance to win and to split once every hand still in is face up (R21).

With the hole cards of every player known, the only thing left to chance is the rest of the
board, so the odds are a count over the boards that can still come:

- **exact**: every remaining board is dealt and valued (numpy, with the evaluator's own tables:
  :func:`engine.evaluator.rank_ids` gives the same values). From the flop on that is at most
  ``C(45, 2) = 990`` boards heads-up, preflop ``C(48, 5) = 1,712,304`` (about a second: the
  command line and the tests do it, the table does not).
- **simulated**: ``trials`` boards drawn at random without replacement inside each board, from a
  seed, so the same cards always give the same figures. The 95% margin of each figure (in
  percentage points) is reported with it: ``1.96 * sqrt(p (1 - p) / trials)``, at most
  ``0.98 / sqrt(trials)`` (0.22 points at 200,000 boards).

:func:`table_odds` is what the table and the replayer show: exact from the flop on, simulated
preflop (:data:`PREFLOP_TRIALS` boards), cached per set of hands and board.

``win`` is the share of boards a hand wins alone; ``split`` the share where it ties for the
best hand with one or more others (the pot is then shared); a hand loses the rest.

    python -m engine.odds AhAs KdKc --board 2c7d9h
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from engine.cards import Card, CardError, parse_cards
from engine.evaluator import hand_values

__all__ = [
    "EXACT",
    "PREFLOP_TRIALS",
    "SIMULATED",
    "Odds",
    "exact_odds",
    "odds",
    "simulated_odds",
    "table_odds",
]

EXACT = "exact"
SIMULATED = "simulated"
PREFLOP_TRIALS = 40_000
"""Boards drawn for the table's preflop figures: a margin under half a point, a few tens of ms."""

IntArray = npt.NDArray[np.intp]
_CHUNK = 200_000  # boards valued at once (bounded memory for the exhaustive preflop count)


@dataclass(frozen=True, slots=True)
class Odds:
    """The chances of each hand, in the order the hands were given, as fractions 0..1."""

    win: tuple[float, ...]
    split: tuple[float, ...]
    method: str  # EXACT or SIMULATED
    boards: int  # boards counted (every one left when exact, drawn when simulated)
    margin: float = 0.0  # 95% margin of each figure in percentage points (0 when exact)
    share: tuple[float, ...] = ()  # each hand's expected share of the pot (a split shared)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, in tenths of a percent (``win`` 819 is 81.9%): what pages carry."""
        return {
            "win": [round(w * 1000) for w in self.win],
            "split": [round(s * 1000) for s in self.split],
            "method": self.method,
            "boards": self.boards,
            "margin": round(self.margin, 2),
        }


def _check(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    if not 2 <= len(holes) <= 10:
        raise ValueError(f"odds are for 2 to 10 hands, not {len(holes)}")
    if any(len(h) != 2 for h in holes):
        raise ValueError("every hand has two hole cards")
    if len(board) > 5 or len(board) in (1, 2):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, not {len(board)}")
    known = [c.id for h in holes for c in h] + [c.id for c in board]
    if len(set(known)) != len(known):
        raise ValueError("the same card appears twice among the hands and the board")
    return known


@lru_cache(maxsize=16)
def _combination_table(pool_size: int, k: int) -> IntArray:
    """Every ``k`` of ``range(pool_size)``, ``(C(pool_size, k), k)``, kept for reuse."""
    count = math.comb(pool_size, k)
    flat = np.fromiter(
        (i for combo in combinations(range(pool_size), k) for i in combo),
        dtype=np.uint8, count=count * k,
    )
    table: IntArray = flat.reshape(count, k).astype(np.intp)
    table.setflags(write=False)
    return table


def _tally(
    boards: IntArray, holes: IntArray
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Boards won alone, boards tied for the best, and pots won (a split shared), per hand."""
    values = hand_values(boards, holes)
    best = values == values.max(axis=1)[:, None]
    count = best.sum(axis=1)
    alone = count == 1
    wins = (best & alone[:, None]).sum(axis=0)
    ties = (best & ~alone[:, None]).sum(axis=0)
    shares = (best / count[:, None]).sum(axis=0)
    return wins.astype(np.int64), ties.astype(np.int64), shares.astype(np.float64)


def _prepare(
    holes: Sequence[Sequence[Card]], board: Sequence[Card]
) -> tuple[IntArray, IntArray, IntArray, int]:
    known = _check(holes, board)
    blocked = set(known)
    pool = np.array([c for c in range(52) if c not in blocked], dtype=np.intp)
    hole_ids = np.array([[c.id for c in h] for h in holes], dtype=np.intp)
    fixed = np.array([c.id for c in board], dtype=np.intp)
    return pool, hole_ids, fixed, 5 - len(board)


def exact_odds(holes: Sequence[Sequence[Card]], board: Sequence[Card] = ()) -> Odds:
    """Every board that can still come, dealt and valued."""
    pool, hole_ids, fixed, missing = _prepare(holes, board)
    n = len(holes)
    wins = np.zeros(n, dtype=np.int64)
    ties = np.zeros(n, dtype=np.int64)
    shares = np.zeros(n, dtype=np.float64)
    if missing == 0:
        boards = fixed[None, :]
        total = 1
        w, t, sh = _tally(boards, hole_ids)
        wins += w
        ties += t
        shares += sh
    else:
        combos = _combination_table(len(pool), missing)
        total = len(combos)
        for start in range(0, total, _CHUNK):
            drawn = pool[combos[start : start + _CHUNK]]
            boards = np.concatenate(
                [np.broadcast_to(fixed, (len(drawn), len(fixed))), drawn], axis=1
            )
            w, t, sh = _tally(boards, hole_ids)
            wins += w
            ties += t
            shares += sh
    return Odds(
        tuple(float(w) / total for w in wins),
        tuple(float(t) / total for t in ties),
        EXACT, total, 0.0, tuple(float(x) / total for x in shares),
    )


def simulated_odds(
    holes: Sequence[Sequence[Card]], board: Sequence[Card] = (), trials: int = 200_000,
    seed: int = 0,
) -> Odds:
    """``trials`` boards drawn at random (each board's cards without replacement), from
    ``seed``: the same cards and seed always give the same figures."""
    if trials < 1:
        raise ValueError("a simulation needs at least one board")
    pool, hole_ids, fixed, missing = _prepare(holes, board)
    n = len(holes)
    gen = np.random.default_rng(seed)
    wins = np.zeros(n, dtype=np.int64)
    ties = np.zeros(n, dtype=np.int64)
    shares = np.zeros(n, dtype=np.float64)
    for start in range(0, trials, _CHUNK):
        size = min(_CHUNK, trials - start)
        drawn = pool[_draw(gen, size, len(pool), missing)]
        boards = np.concatenate([np.broadcast_to(fixed, (size, len(fixed))), drawn], axis=1)
        w, t, sh = _tally(boards, hole_ids)
        wins += w
        ties += t
        shares += sh
    win = tuple(float(w) / trials for w in wins)
    split = tuple(float(t) / trials for t in ties)
    worst = max(max(p * (1 - p) for p in (*win, *split)), 0.0)
    margin = 196.0 * math.sqrt(worst / trials)
    return Odds(
        win, split, SIMULATED, trials, margin, tuple(float(x) / trials for x in shares)
    )


def _draw(gen: np.random.Generator, size: int, pool: int, k: int) -> IntArray:
    """``size`` rows of ``k`` distinct positions in ``range(pool)``, each row uniform: rows
    with a repeat are drawn again (about one in five for 5 of 48), far cheaper than
    shuffling the pool for every board."""
    picks = gen.integers(0, pool, size=(size, k), dtype=np.intp)
    pending = np.arange(size)
    while True:
        ordered = np.sort(picks[pending], axis=1)
        pending = pending[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        if not pending.size:
            return picks
        picks[pending] = gen.integers(0, pool, size=(len(pending), k), dtype=np.intp)


def odds(
    holes: Sequence[Sequence[Card]], board: Sequence[Card] = (), *, trials: int | None = None,
    seed: int = 0,
) -> Odds:
    """Exact odds, or ``trials`` simulated boards when ``trials`` is given."""
    if trials is None:
        return exact_odds(holes, board)
    return simulated_odds(holes, board, trials, seed)


@lru_cache(maxsize=2048)
def _table_odds(holes: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> Odds:
    if board:
        return exact_odds(holes, board)
    # The seed comes from the cards: the table, the history and the replayer show one figure.
    seed = int.from_bytes(bytes(c.id for h in holes for c in h), "big")
    return simulated_odds(holes, board, PREFLOP_TRIALS, seed)


def table_odds(holes: Sequence[Sequence[Card]], board: Sequence[Card] = ()) -> Odds:
    """The figures the table, the hand history and the replayer show: exact from the flop on
    (990 boards at most heads-up, a few ms), simulated preflop (:data:`PREFLOP_TRIALS` boards,
    seeded by the cards). Kept per hands and board (an LRU of 2,048 spots, in this process): a
    table drawn for six phones, and its history opened later, count each board once."""
    return _table_odds(tuple(tuple(h) for h in holes), tuple(board))


# ---------------------------------------------------------------------- command line
def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def describe(holes: Sequence[Sequence[Card]], board: Sequence[Card], result: Odds) -> list[str]:
    """One line per hand, then how the figures were counted."""
    lines = [
        f"{''.join(str(c) for c in hand)}  win {_percent(w):>6}  split {_percent(s):>6}"
        for hand, w, s in zip(holes, result.win, result.split, strict=True)
    ]
    if result.method == EXACT:
        lines.append(f"exact: every one of the {result.boards:,} boards left")
    else:
        lines.append(
            f"simulated: {result.boards:,} random boards, each figure within "
            f"±{result.margin:.2f} points (95%)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.odds",
        description="Each hand's chance to win and to split with every hand face up.",
    )
    parser.add_argument("hands", nargs="+", help="two hole cards per hand, e.g. AhAs KdKc")
    parser.add_argument("--board", default="", help="the board so far, e.g. 2c7d9h")
    parser.add_argument(
        "--trials", type=int, default=None,
        help="simulate this many boards instead of counting every one",
    )
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed")
    args = parser.parse_args(argv)
    try:
        holes = [parse_cards(text) for text in args.hands]
        board = parse_cards(args.board) if args.board else []
        result = odds(holes, board, trials=args.trials, seed=args.seed)
    except (CardError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(describe(holes, board, result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
