"""Part of the pool yardstick (benchmarks/bots_pool.py), hard against medium, for quick comparisons.

    nice -n 10 .venv/bin/python benchmarks/bots_pool_one.py --style bluffer [--sessions 40]
    nice -n 10 .venv/bin/python benchmarks/bots_pool_one.py --six [--tables 24] [--sessions 30]
        [--seed 29] [--session 50] [--workers 2] [--set ranges.OPEN_RATIO=0.2,1.5 ...]
        [--set hard.HARD.trials=601]

Plays the heads-up cell of ``--style`` exactly as ``bots_match.py --pool --only hu`` does
(the same task index, so the same decks and seeds), or with ``--six`` the six-seat tables as
``--only six`` does (pooled and per style). ``--set`` changes a module constant of
``engine.bots`` before the sessions run (a candidate without editing the code; each worker
inherits it). The medium runs do not depend on hard's reads and are kept in
``--cache`` so that each candidate costs only its hard runs.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import json
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bots_pool, outside_styles


def _set(assignment: str) -> None:
    """``module.NAME=value``, or ``module.NAME.field=value`` for a field of a frozen dataclass."""
    name, _, value = assignment.partition("=")
    parts = name.split(".")
    target = importlib.import_module(f"engine.bots.{parts[0]}")
    if not hasattr(target, parts[1]):
        raise SystemExit(f"--set: engine.bots.{parts[0]} has no {parts[1]}")
    if len(parts) == 3:
        changed = {parts[2]: ast.literal_eval(value)}
        setattr(target, parts[1], dataclasses.replace(getattr(target, parts[1]), **changed))
    else:
        setattr(target, parts[1], ast.literal_eval(value))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--style", default="bluffer", choices=sorted(outside_styles.POOL))
    parser.add_argument("--six", action="store_true", help="the six-seat tables instead")
    parser.add_argument("--tables", type=int, default=24, help="--six: tables drawn")
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--session", type=int, default=50)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--label", default="")
    parser.add_argument("--cache", default="/tmp/bots_pool_one_medium.json")
    parser.add_argument("--save", help="write hard's chips per session to this file")
    parser.add_argument("--against", help="also print hard minus the hard of a --save file")
    args = parser.parse_args()
    for assignment in args.set:
        _set(assignment)
    cache_path = Path(args.cache)
    cache: dict[str, float] = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    if args.six:
        cells = [("six", i, table) for i, table in enumerate(
            outside_styles.draw_tables(args.tables, args.seed))]
    else:
        cells = [("hu", sorted(outside_styles.POOL).index(args.style), (args.style,))]

    def key(kind: str, index: int, s: int) -> str:
        return f"{kind}/{index}/{args.seed}/{args.session}/{s}"

    tasks = [bots_pool.PoolTask(kind, index, table, s, args.session, args.seed,
                                ("hard",) if key(kind, index, s) in cache else ("hard", "medium"))
             for kind, index, table in cells for s in range(args.sessions)]
    started, load = time.time(), os.getloadavg()[0]
    with Pool(args.workers) as pool:
        done = pool.map(bots_pool.run_pool_session, tasks, chunksize=1)
    for task, totals in done:
        if "medium" in totals:
            cache[key(task.kind, task.index, task.session)] = totals["medium"]
    cache_path.write_text(json.dumps(cache))
    scale = 100.0 / (20 * args.session)
    label = args.label or " ".join(args.set) or "as coded"

    if args.save:
        Path(args.save).write_text(json.dumps(
            {key(t.kind, t.index, t.session): r["hard"] for t, r in done}))
    other: dict[str, float] = json.loads(Path(args.against).read_text()) if args.against else {}

    def line(name: str, rows: list[tuple[bots_pool.PoolTask, dict[str, float]]]) -> str:
        hard = [totals["hard"] * scale for _, totals in rows]
        medium = [cache[key(t.kind, t.index, t.session)] * scale for t, _ in rows]
        diff = bots_pool.figure([h - m for h, m in zip(hard, medium, strict=True)])
        text = (f"{label}: {name}: hard {sum(hard) / len(hard):+7.1f} medium "
                f"{sum(medium) / len(medium):+7.1f} | hard-medium {diff}")
        if other:
            was = [other[key(t.kind, t.index, t.session)] * scale for t, _ in rows]
            change = bots_pool.figure([h - w for h, w in zip(hard, was, strict=True)])
            text += f" | hard-before {change}"
        return text

    if args.six:
        for name in sorted(outside_styles.POOL):
            rows = [(t, r) for t, r in done if name in t.table]
            if rows:
                print(line(f"six seats with {name}", rows))
        print(line(f"six seats POOLED ({args.tables} tables x {args.sessions} sessions x "
                   f"{args.session} hands, seed {args.seed})", done))
    else:
        print(line(f"vs {args.style} heads-up, {args.sessions} sessions x {args.session} deals "
                   f"x 2 seatings, seed {args.seed}", done))
    print(f"{label}: {time.time() - started:.0f} s, load {load:.1f} -> {os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
