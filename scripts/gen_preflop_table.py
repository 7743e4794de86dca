"""Generate engine/bots/preflop_data.py: preflop equities of the 169 starting-hand classes.

Two tables, both by Monte Carlo with the engine's own evaluator tables:

- ``VS_RANDOM``: each class against 1 to 5 opponents holding any two cards (ties split);
- ``MATRIX``: each class against each other class heads-up, every combo of both classes
  equally likely (pairs of combos that share a card are redealt).

Run from the repository root (about seven minutes on two cores)::

    .venv/bin/python scripts/gen_preflop_table.py [--trials-random 100000] [--trials-pair 8000]
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from collections.abc import Mapping, Sequence
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots.combos import (  # noqa: E402
    CLASS_NAMES,
    COMBO_CLASS,
    COMBOS,
    N_CLASSES,
    IntArray,
)
from engine.evaluator import hand_values  # noqa: E402

classes = COMBO_CLASS
OUT = ROOT / "engine" / "bots" / "preflop_data.py"
SEED = 20260605


def _board(gen: np.random.Generator, used: IntArray) -> IntArray:
    """Five random cards per row avoiding the row's ``used`` cards."""
    keys = gen.random((len(used), 52))
    np.put_along_axis(keys, used, 2.0, axis=1)
    board: IntArray = np.argpartition(keys, 5, axis=1)[:, :5]
    return board


def _shares(hero_values: np.ndarray, others: np.ndarray) -> np.ndarray:
    best = others.max(axis=1)
    ties = (others == hero_values[:, None]).sum(axis=1)
    share = np.where(hero_values > best, 1.0, 0.0)
    level = hero_values == best
    share[level] = 1.0 / (1.0 + ties[level])
    return share


def vs_random(task: tuple[int, int, int]) -> tuple[int, list[float]]:
    """Equity of one class against 1..5 random hands."""
    cls, trials, seed = task
    gen = np.random.default_rng(seed)
    combo = COMBOS[np.flatnonzero(classes == cls)[0]]
    result = []
    for opponents in range(1, 6):
        shares = []
        for start in range(0, trials, 20000):
            n = min(20000, trials - start)
            keys = gen.random((n, 52))
            keys[:, combo] = 2.0
            cards = np.argpartition(keys, 5 + 2 * opponents, axis=1)[:, : 5 + 2 * opponents]
            board = cards[:, :5]
            hero = hand_values(np.concatenate([board, np.broadcast_to(combo, (n, 2))], axis=1))
            others = np.stack(
                [
                    hand_values(np.concatenate([board, cards[:, 5 + 2 * i : 7 + 2 * i]], axis=1))
                    for i in range(opponents)
                ],
                axis=1,
            )
            shares.append(_shares(hero, others))
        result.append(float(np.concatenate(shares).mean()))
    return cls, result


def vs_class(task: tuple[int, list[int], int, int]) -> tuple[int, list[tuple[int, float]]]:
    """Heads-up equity of class ``a`` against each class in ``bs`` (b >= a)."""
    a, bs, trials, seed = task
    gen = np.random.default_rng(seed)
    mine = COMBOS[classes == a]
    out = []
    for b in bs:
        theirs = COMBOS[classes == b]
        hero = mine[gen.integers(len(mine), size=trials * 2)]
        villain = theirs[gen.integers(len(theirs), size=trials * 2)]
        clash = (hero[:, :, None] == villain[:, None, :]).any(axis=(1, 2))
        hero, villain = hero[~clash][:trials], villain[~clash][:trials]
        board = _board(gen, np.concatenate([hero, villain], axis=1))
        hv = hand_values(np.concatenate([board, hero], axis=1))
        vv = hand_values(np.concatenate([board, villain], axis=1))
        share = np.where(hv > vv, 1.0, np.where(hv == vv, 0.5, 0.0))
        out.append((b, float(share.mean())))
    return a, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials-random", type=int, default=100_000)
    parser.add_argument("--trials-pair", type=int, default=8_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.time()
    with Pool(args.workers) as pool:
        randoms = dict(
            pool.map(vs_random, [(c, args.trials_random, SEED + c) for c in range(N_CLASSES)])
        )
        print(f"against random hands: {time.time() - started:.0f} s", flush=True)
        tasks = [
            (a, list(range(a, N_CLASSES)), args.trials_pair, SEED * 7 + a) for a in range(N_CLASSES)
        ]
        matrix = np.full((N_CLASSES, N_CLASSES), 0.5)
        for a, row in pool.imap_unordered(vs_class, tasks):
            for b, value in row:
                if a == b:
                    matrix[a, b] = 0.5  # the same class against itself is even by symmetry
                else:
                    matrix[a, b] = value
                    matrix[b, a] = 1.0 - value
    print(f"class against class: {time.time() - started:.0f} s", flush=True)
    write(randoms, matrix, args)


def write(randoms: dict[int, list[float]], matrix: np.ndarray, args: argparse.Namespace) -> None:
    rows = np.round(matrix * 65535).astype("<u2")
    OUT.write_text(render(randoms, rows, args.trials_random, args.trials_pair))
    print(f"wrote {OUT.relative_to(ROOT)}")


def render(
    randoms: Mapping[int, Sequence[float]], rows: np.ndarray, trials_random: int, trials_pair: int
) -> str:
    """The text of engine/bots/preflop_data.py: ``VS_RANDOM`` a class a line, ``MATRIX`` a row
    of the heads-up table a line (``rows``: 169 x 169 fractions of 65535, unsigned 16-bit)."""
    lines = [
        '"""Preflop equities of the 169 starting-hand classes. Generated by',
        "scripts/gen_preflop_table.py; do not edit by hand.",
        "",
        "VS_RANDOM: class -> equity against 1..5 random hands "
        f"({trials_random:,} deals each).",
        "MATRIX: heads-up equity of class i against class j, one row i a line: 169 unsigned 16-bit",
        f"little-endian fractions of 65535, base64 ({trials_pair:,} deals per pair).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "VS_RANDOM: dict[str, tuple[float, float, float, float, float]] = {",
    ]
    for cls in range(N_CLASSES):
        values = ", ".join(f"{v:.4f}" for v in randoms[cls])
        lines.append(f'    "{CLASS_NAMES[cls]}": ({values}),')
    lines.append("}")
    lines.append("")
    lines.append("MATRIX = (")
    for cls in range(N_CLASSES):
        row = base64.b64encode(rows[cls].astype("<u2").tobytes()).decode()
        lines.append(f'    "{row}",  # {CLASS_NAMES[cls]}')
    lines.append(")")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
