"""Where hard wins or loses chips against medium at the six-seat pool tables (issue 29).

    nice -n 19 .venv/bin/python benchmarks/bots_diverge.py [--tables 24] [--sessions 30]
        [--session 50] [--seed 29] [--workers 2] [--set hard.HARD.trials=601 ...]

Plays the six-seat tables of the pool yardstick (``bots_pool``: the same decks, the same
opponents' seeds) with hard and with medium in seat 0, and compares them hand by hand. Each
hand's difference (hard's net minus medium's, the same deck) is put down to the first decision
of seat 0 where the two levels did something different (another kind of action, or a size more
than 20% apart), labelled by the spot: the street, preflop the kind of spot (unopened and
folded to a steal seat, behind limpers, facing a raise alone or with callers, facing a
re-raise), after the flop checked to or facing a bet, heads-up or multiway, and what each level
did. Hands where seat 0's decisions were the same but the others' differed (the adapter, or a
memory) are "same decisions". The sums, in bb/100 of all hands, add up to the pooled
hard - medium figure. Per style: the same sums for the hands whose divergence spot had a player
of that style still in at the divergence spot (facing a bet or raise: the style of the
player who made it).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bots_pool, bots_pool_one, bots_table, outside_styles
from benchmarks.scripted import Policy
from engine.actions import Action
from engine.bots.base import Spot, read_spot


@dataclass(frozen=True, slots=True)
class Decision:
    label: str  # the spot
    kind: str  # the action kind
    amount: int
    opponents: tuple[str, ...]  # styles still in


_LOG: list[Decision] = []
_NAMES: dict[int, str] = {}


def _pf_label(spot: Spot) -> str:
    level = spot.level()
    acts = spot.street_acts(0)
    limpers = [a for a in acts if a.kind == "call" and a.level <= 1]
    distance = spot.distance_from_button(spot.me)
    seat_name = {0: "BTN", 1: "SB", 2: "BB", 3: "UTG", 4: "MP", 5: "CO"}.get(distance, "?")
    if level <= 1:
        if spot.legal["check"]:
            return f"pf BB vs {len(limpers)} limper(s)"
        if limpers:
            return f"pf {seat_name} behind limpers"
        return f"pf {seat_name} unopened"
    callers = [a for a in acts if a.kind == "call" and a.level == level]
    if level == 2:
        return f"pf {seat_name} vs raise" + (" +callers" if callers else "")
    return f"pf vs {level}-bet" + (" +callers" if callers else "")


def _label(spot: Spot) -> str:
    if spot.street == 0:
        return _pf_label(spot)
    street = ("", "flop", "turn", "river")[spot.street]
    way = "HU" if len(spot.opponents) == 1 else "multi"
    facing = "vs bet" if spot.to_call > 0 else "checked to/first"
    aggressor = "PFR" if spot.last_aggressor(0) == spot.me else "not PFR"
    return f"{street} {way} {facing} ({aggressor})"


def _recording(level: str) -> Policy:
    inner = bots_table.bot(level)

    def policy(view: Mapping[str, Any], past: Sequence[Mapping[str, Any]], rng: Any) -> Action:
        action = inner(view, past, rng)
        spot = read_spot(view)
        if spot.me == 0:
            bettor = spot.last_aggressor(spot.street) if spot.to_call > 0 else None
            seats = [bettor] if bettor is not None else [o.seat for o in spot.opponents]
            styles = tuple(sorted({_NAMES.get(s, "?") for s in seats}))
            _LOG.append(Decision(_label(spot), action.kind.value, int(action.amount or 0), styles))
        return action

    return policy


def _same(a: Decision, b: Decision) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind in ("bet", "raise"):
        return abs(a.amount - b.amount) <= 0.2 * max(a.amount, b.amount)
    return True


def run(task: bots_pool.PoolTask) -> list[tuple[float, str, tuple[str, ...]]]:
    """Per hand of the session: (hard's net - medium's net in chips, label, styles in)."""
    base = task.seed * 1_000_003 + task.index * 100_003 + task.session * 10_007
    per_level: dict[str, list[tuple[int, list[Decision]]]] = {}
    for level in ("hard", "medium"):
        bots_table.PLAYERS[level] = _recording(level)
        players = {0: level, **{i + 1: name for i, name in enumerate(task.table)}}
        _NAMES.clear()
        _NAMES.update(players)
        stacks = bots_pool._stacks(players)
        pasts: dict[int, bots_table.Past] = {s: [] for s in players}
        hands: list[tuple[int, list[Decision]]] = []
        for h in range(task.hands):
            _LOG.clear()
            seeds = {s: base + 11 * h + s for s in players}
            net = bots_table.play_hand(h + 1, tuple(players), h % 6, base + h, players, pasts,
                                       seeds, None, stacks, bots_table.POOL_REMEMBERS)
            hands.append((net[0], list(_LOG)))
        per_level[level] = hands
    out: list[tuple[float, str, tuple[str, ...]]] = []
    for (hn, hd), (mn, md) in zip(per_level["hard"], per_level["medium"], strict=True):
        label, styles = "same decisions", tuple[str, ...]()
        for a, b in zip(hd, md, strict=False):
            if a.label != b.label:
                label, styles = "spots differ (others played differently)", a.opponents
                break
            if not _same(a, b):
                label = f"{a.label}: hard {a.kind} / medium {b.kind}"
                styles = a.opponents
                break
        else:
            if len(hd) != len(md):
                label = "spots differ (others played differently)"
        out.append((float(hn - mn), label, styles))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--session", type=int, default=50)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    for assignment in args.set:
        bots_pool_one._set(assignment)
    tables = outside_styles.draw_tables(args.tables, args.seed)
    tasks = [bots_pool.PoolTask("six", i, t, s, args.session, args.seed, ("hard", "medium"))
             for i, t in enumerate(tables) for s in range(args.sessions)]
    started = time.time()
    with Pool(args.workers) as pool:
        done = pool.map(run, tasks, chunksize=1)
    rows = [r for session in done for r in session]
    pooled = bots_pool.figure([sum(d for d, _, _ in session) * 100.0
                               / (bots_table.BIG_BLIND * args.session) for session in done])
    scale = 100.0 / (bots_table.BIG_BLIND * len(rows))
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    by_style: dict[tuple[str, str], float] = defaultdict(float)
    coarse: dict[str, float] = defaultdict(float)
    for diff, label, styles in rows:
        sums[label] += diff
        counts[label] += 1
        coarse[label.split(":")[0]] += diff
        for name in styles:
            by_style[(name, label.split(":")[0])] += diff
    print(f"six seats, {len(tables)} tables x {args.sessions} x {args.session} hands, seed "
          f"{args.seed}: hard - medium {pooled} bb/100 (95% t over sessions) "
          f"({len(rows)} hands) {' '.join(args.set)}")
    print("by spot (bb/100 of all hands; hands):")
    for label in sorted(coarse, key=lambda k: coarse[k]):
        print(f"  {coarse[label] * scale:+7.2f}  {label}")
    print(f"by spot and actions, the {args.top} largest:")
    for label in sorted(sums, key=lambda k: -abs(sums[k]))[: args.top]:
        print(f"  {sums[label] * scale:+7.2f}  {counts[label]:6d}  {label}")
    print("by style in the spot (largest 40):")
    for (name, label) in sorted(by_style, key=lambda k: -abs(by_style[k]))[:40]:
        print(f"  {by_style[(name, label)] * scale:+7.2f}  {name:12s} {label}")
    print(f"time {time.time() - started:.0f} s, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
