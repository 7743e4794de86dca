"""The honest yardstick (issue 29): the computer levels at tables drawn from a pool of outside
styles they were not tuned against (:mod:`benchmarks.outside_styles`).

    nice -n 10 .venv/bin/python benchmarks/bots_match.py --pool [--tables 24] [--sessions 6]
        [--session 50] [--hu-sessions 6] [--levels hard,medium,easy] [--seed 29] [--workers 2]

- Six seats: ``--tables`` different tables of five opponents drawn at random from the pool (seed
  ``--seed``). Each level in turn sits in seat 0 and plays the same decks, with the opponents
  on the same random seeds and fresh memories, so only the tested seat's decisions differ.
- Heads-up: each level plays each style of the pool on the same decks, every deck twice with
  the seats swapped (duplicate), the style on the same seeds.

Hands are grouped in sessions of ``--session`` hands (a game: the hard player's memory and the
adapter's start empty). Every difference ("hard - medium", "medium - easy", "hard - easy") is
paired session by session on the same decks; its 95% interval is Student's t over the sessions
(per table a few sessions, so t and not 1.96). Pooled figures take every session of every table
as one observation. Blinds 10/20; everyone sits with 100 big blinds each hand except the styles
of ``outside_styles.STACK_BB`` (the shover: 15).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from benchmarks import outside_styles
from benchmarks.bots_table import BIG_BLIND, POOL_REMEMBERS, STACK, Past, play_hand

# Two-sided 95% quantiles of Student's t by degrees of freedom.
_T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
      9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021,
      60: 2.000, 120: 1.980}


def t_quantile(df: int) -> float:
    if df <= 0:
        return math.inf
    keys = [k for k in _T if k <= df]
    return _T[max(keys)] if df <= 120 else 1.96


@dataclass(frozen=True, slots=True)
class Figure:
    mean: float  # bb/100
    half: float  # 95% half-width
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half

    def __str__(self) -> str:
        return f"{self.mean:+7.1f} ± {self.half:5.1f}"


def figure(values: Sequence[float]) -> Figure:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return Figure(mean, math.inf, n)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Figure(mean, t_quantile(n - 1) * math.sqrt(var / n), n)


@dataclass(frozen=True, slots=True)
class PoolTask:
    kind: str  # "six" or "hu"
    index: int  # table number (six) or style number (hu)
    table: tuple[str, ...]  # six: the five opponents; hu: the one style
    session: int
    hands: int
    seed: int
    levels: tuple[str, ...]


def _stacks(players: dict[int, str]) -> dict[int, int]:
    return {s: outside_styles.STACK_BB.get(name, STACK // BIG_BLIND) * BIG_BLIND
            for s, name in players.items()}


def run_pool_session(task: PoolTask) -> tuple[PoolTask, dict[str, float]]:
    """Chips won by each level over one session of ``task`` (heads-up: mean of both seatings)."""
    base = task.seed * 1_000_003 + (task.index + (0 if task.kind == "six" else 500)) * 100_003 \
        + task.session * 10_007
    totals: dict[str, float] = {}
    for level in task.levels:
        total = 0.0
        if task.kind == "six":
            players = {0: level, **{i + 1: name for i, name in enumerate(task.table)}}
            stacks = _stacks(players)
            pasts: dict[int, Past] = {s: [] for s in players}
            for h in range(task.hands):
                seeds = {s: base + 11 * h + s for s in players}
                net = play_hand(h + 1, tuple(players), h % 6, base + h, players, pasts, seeds,
                                None, stacks, POOL_REMEMBERS)
                total += net[0]
        else:
            style = task.table[0]
            for swap in (False, True):
                players = {0: style, 1: level} if swap else {0: level, 1: style}
                stacks = _stacks(players)
                pasts = {0: [], 1: []}
                for h in range(task.hands):
                    seeds = {0: base + 7 * h + 1, 1: base + 7 * h + 2}
                    if swap:
                        seeds = {0: seeds[1], 1: seeds[0]}
                    net = play_hand(h + 1, (0, 1), h % 2, base + h, players, pasts, seeds,
                                    None, stacks, POOL_REMEMBERS)
                    total += net[1 if swap else 0] / 2
        totals[level] = total
    return task, totals


PAIRS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"))


def run_pool(tables: int, sessions: int, session: int, hu_sessions: int, levels: tuple[str, ...],
             seed: int, workers: int, six: bool = True, heads_up: bool = True) -> list[str]:
    """Play the yardstick and return its report lines."""
    drawn = outside_styles.draw_tables(tables, seed)
    styles = sorted(outside_styles.POOL)
    tasks: list[PoolTask] = []
    if six:
        tasks += [PoolTask("six", i, t, s, session, seed, levels)
                  for i, t in enumerate(drawn) for s in range(sessions)]
    if heads_up:
        tasks += [PoolTask("hu", i, (name,), s, session, seed, levels)
                  for i, name in enumerate(styles) for s in range(hu_sessions)]
    load_before = os.getloadavg()
    started = time.time()
    if workers > 1:
        with Pool(workers) as pool:
            done = pool.map(run_pool_session, tasks, chunksize=1)
    else:
        done = [run_pool_session(t) for t in tasks]
    seconds = time.time() - started
    load_after = os.getloadavg()
    scale = 100.0 / (BIG_BLIND * session)
    pairs = [(a, b) for a, b in PAIRS if a in levels and b in levels]

    def diffs(rows: Sequence[dict[str, float]], a: str, b: str) -> Figure:
        return figure([(r[a] - r[b]) * scale for r in rows])

    def line(label: str, rows: Sequence[dict[str, float]]) -> str:
        own = " ".join(f"{lv} {sum(r[lv] for r in rows) * scale / len(rows):+7.1f}"
                       for lv in levels)
        parts = [f"{a}-{b} {diffs(rows, a, b)}" for a, b in pairs]
        return f"{label:52s} {own} | " + " | ".join(parts)

    out = [f"pool yardstick: seed {seed}, {len(drawn) if six else 0} six-seat tables x "
           f"{sessions} sessions x {session} hands, {len(styles) if heads_up else 0} heads-up "
           f"styles x {hu_sessions} sessions x {session} deals x 2 seatings; levels "
           f"{','.join(levels)}; bb/100, 95% t-intervals over sessions"]
    by_kind: dict[str, list[tuple[PoolTask, dict[str, float]]]] = {"six": [], "hu": []}
    for task, totals in done:
        by_kind[task.kind].append((task, totals))
    if six:
        out.append("six seats (tested seat 0), per table:")
        for i, table in enumerate(drawn):
            rows = [r for t, r in by_kind["six"] if t.index == i]
            out.append(line(f"  T{i + 1:02d} {','.join(table)}", rows))
        out.append("six seats, per style (tables holding it):")
        for name in styles:
            rows = [r for t, r in by_kind["six"] if name in t.table]
            if rows:
                out.append(line(f"  with {name}", rows))
        out.append(line("six seats POOLED", [r for _, r in by_kind["six"]]))
    if heads_up:
        out.append("heads-up (duplicate), per style:")
        for i, name in enumerate(styles):
            rows = [r for t, r in by_kind["hu"] if t.index == i]
            out.append(line(f"  vs {name}", rows))
        out.append(line("heads-up POOLED", [r for _, r in by_kind["hu"]]))
    out.append(f"time {seconds:.0f} s on {workers} workers; load average before "
               f"{load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    return out
