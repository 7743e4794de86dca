"""Duplicate matches between the computer players, and against simple scripted players.

    .venv/bin/python benchmarks/bots_match.py [--match NAME ...] [--hands N] [--session S]
                                              [--workers 2] [--seed 1]
    .venv/bin/python benchmarks/bots_match.py --outside [--hands N] [--levels hard,medium]
    nice -n 10 .venv/bin/python benchmarks/bots_match.py --pool --session 50 --seed 29

Every hand is dealt with blinds 10/20 and every stack reset to 100 big blinds, so results add up
hand by hand in big blinds. Cards come from a seeded deck per hand; the table's players decide
through ``engine.bots.decide`` (or a scripted policy), and the hands are played by
``engine.hand.Hand`` with its own checks.

- Heads-up ("A-B"): each deck is played twice, the second time with the seats swapped, so both
  players get the same cards in the same positions once; A's result is the mean of its two.
- Six seats ("six-max"): the tested seat is played by the hard bot, then the same decks are
  played again with the medium bot in that seat; the five scripted opponents start the replay
  with fresh memories and the same random seeds, so only the tested seat's decisions differ.

- Versus ("vs-NAME"): each level of ``--levels`` plays the same duplicate heads-up match
  against one outside style (:mod:`benchmarks.bots_opponents`) on the same decks, the opponent
  with the same random seeds; "hard - medium" is paired by session.
- ``--outside`` runs the four versus matches and the six-seat match at a table of outside styles,
  then prints how often the computer players made each known leak (:mod:`benchmarks.bots_leaks`).

- ``--pool``: the honest yardstick of issue 29 (:mod:`benchmarks.bots_pool`): 24 six-seat
  tables drawn at random from eight outside styles (:mod:`benchmarks.outside_styles`) and each
  style heads-up, hard, medium and easy on the same decks; hard - medium, medium - easy and
  hard - easy per table, per style and pooled.

The table (blinds, stacks, the players by name and one hand's play) is
:mod:`benchmarks.bots_table`, shared with the pool yardstick.

Hands are grouped in sessions (a game: the bots' memory of their opponents starts empty at each
session and grows with it). The 95% interval is over the sessions' bb/100, so it allows for the
dependence between hands of one session. Sessions run on ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bots_leaks
from benchmarks.bots_table import BIG_BLIND, LEVELS, Past, play_hand


@dataclass(frozen=True, slots=True)
class Task:
    kind: str  # "heads-up", "versus" or "six-max"
    first: str  # A (heads-up), the opponent (versus) or the bot in the tested seat (six-max)
    second: str  # B (heads-up), unused (versus) or the bot replacing it (six-max)
    session: int
    hands: int
    seed: int
    table: tuple[str, ...] = ()  # six-max: the five other seats
    levels: tuple[str, ...] = ()  # versus: the computer levels that each play the opponent


@dataclass(slots=True)
class SessionResult:
    totals: dict[str, float]  # chips won by each compared player over the session
    tally: bots_leaks.Tally = field(default_factory=dict)


def _duplicate(a: str, b: str, base: int, hands: int, tally: bots_leaks.Tally) -> float:
    """Chips A wins from B over ``hands`` decks, each played in both seatings (mean of two)."""
    total = 0.0
    for swap in (False, True):
        players = {0: b, 1: a} if swap else {0: a, 1: b}
        pasts: dict[int, Past] = {0: [], 1: []}
        for h in range(hands):
            seeds = {0: base + 7 * h + 1, 1: base + 7 * h + 2}
            if swap:
                seeds = {0: seeds[1], 1: seeds[0]}
            net = play_hand(h + 1, (0, 1), h % 2, base + h, players, pasts, seeds, tally)
            total += net[1 if swap else 0] / 2
    return total


def run_session(task: Task) -> SessionResult:
    """Chips won over one session by each compared player: heads-up A and B (the mean of the
    two seatings); versus, each level against the same opponent on the same decks and seeds;
    at six seats, the tested seat with ``first`` and then with ``second``."""
    base = task.seed * 1_000_003 + task.session * 10_007
    tally: bots_leaks.Tally = {}
    if task.kind == "heads-up":
        a = _duplicate(task.first, task.second, base, task.hands, tally)
        return SessionResult({task.first: a, task.second: -a}, tally)
    if task.kind == "versus":
        totals = {
            level: _duplicate(level, task.first, base, task.hands, tally) for level in task.levels
        }
        return SessionResult(totals, tally)
    totals = {}
    for tested in (task.first, task.second):
        players = {0: tested, **{i + 1: name for i, name in enumerate(task.table)}}
        pasts: dict[int, Past] = {s: [] for s in players}
        total = 0.0
        for h in range(task.hands):
            seeds = {s: base + 11 * h + s for s in players}
            net = play_hand(h + 1, tuple(players), h % 6, base + h, players, pasts, seeds, tally)
            total += net[0]
        totals[tested] = total
    return SessionResult(totals, tally)


# ------------------------------------------------------------------ statistics
@dataclass(frozen=True, slots=True)
class Interval:
    mean: float  # bb/100
    half_width: float  # 95% interval half-width

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.1f} bb/100, 95% CI [{self.low:+.1f}, {self.high:+.1f}]"


def interval(per_session: Sequence[float]) -> Interval:
    n = len(per_session)
    mean = sum(per_session) / n
    var = sum((d - mean) ** 2 for d in per_session) / (n - 1) if n > 1 else 0.0
    return Interval(mean, 1.96 * math.sqrt(var / n) if n > 1 else float("inf"))


@dataclass(frozen=True, slots=True)
class Result:
    name: str
    deals: int
    sessions: int
    players: dict[str, Interval]  # each compared player's bb/100
    diffs: dict[str, Interval]  # "A - B": paired per session
    seconds: float
    tally: bots_leaks.Tally

    # The first pair's figures (A and B, the tested seat's two players, or the first two
    # levels), as the heads-up and six-seat reports give them.
    @property
    def first(self) -> float:
        return next(iter(self.players.values())).mean

    @property
    def second(self) -> float:
        return list(self.players.values())[1].mean

    @property
    def diff(self) -> float:
        return next(iter(self.diffs.values())).mean

    @property
    def low(self) -> float:
        return next(iter(self.diffs.values())).low

    @property
    def high(self) -> float:
        return next(iter(self.diffs.values())).high


def summarise(name: str, sessions: Sequence[SessionResult], hands: int,
              kind: str | None = None, seconds: float = 0.0) -> Result:
    """The match's figures in bb/100 from its sessions (``kind``, when given, must be the
    match's)."""
    if kind is not None and kind != MATCHES[name][0]:
        raise ValueError(f"{name} is a {MATCHES[name][0]} match, not {kind}")
    scale = 100.0 / (BIG_BLIND * hands)
    names = list(sessions[0].totals)
    players = {p: interval([s.totals[p] * scale for s in sessions]) for p in names}
    diffs: dict[str, Interval] = {}
    kind = MATCHES[name][0]
    pairs = [(names[0], names[1])] if kind != "versus" else []
    if kind == "versus" and "hard" in names and "medium" in names:
        pairs = [("hard", "medium")]
    for a, b in pairs:
        diffs[f"{a} - {b}"] = interval([(s.totals[a] - s.totals[b]) * scale for s in sessions])
    tally: bots_leaks.Tally = {}
    for s in sessions:
        bots_leaks.merge(tally, s.tally)
    return Result(name, len(sessions) * hands, len(sessions), players, diffs, seconds, tally)


SIX_MAX_OPPONENTS = ("loose-caller", "tight-folder", "maniac", "solid", "loose-caller")
SIX_MAX_OUTSIDE = ("mc-caller", "station", "tight", "wild", "mc-caller")

# name -> (kind, first, second, six-max table)
MATCHES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "hard-medium": ("heads-up", "hard", "medium", ()),
    "medium-easy": ("heads-up", "medium", "easy", ()),
    "hard-easy": ("heads-up", "hard", "easy", ()),
    "easy-always-call": ("heads-up", "easy", "always-call", ()),
    "medium-always-call": ("heads-up", "medium", "always-call", ()),
    "hard-always-call": ("heads-up", "hard", "always-call", ()),
    "easy-random": ("heads-up", "easy", "random", ()),
    "medium-random": ("heads-up", "medium", "random", ()),
    "hard-random": ("heads-up", "hard", "random", ()),
    "six-max-hard-vs-medium": ("six-max", "hard", "medium", SIX_MAX_OPPONENTS),
    # Outside styles: each level against the same opponent on the same decks.
    "vs-mc-caller": ("versus", "mc-caller", "", ()),
    "vs-station": ("versus", "station", "", ()),
    "vs-tight": ("versus", "tight", "", ()),
    "vs-wild": ("versus", "wild", "", ()),
    "six-max-outside": ("six-max", "hard", "medium", SIX_MAX_OUTSIDE),
}
OUTSIDE_MATCHES = ("vs-mc-caller", "vs-station", "vs-tight", "vs-wild", "six-max-outside")
# With --outside, these quick matches play this many times --hands (more spots for the leaks).
OUTSIDE_SCALE = {"vs-tight": 4, "six-max-outside": 3}


def run_match(name: str, deals: int, session: int, workers: int, seed: int,
              levels: tuple[str, ...] = ("hard", "medium")) -> Result:
    kind, first, second, table = MATCHES[name]
    sessions = max(2, math.ceil(deals / session))
    tasks = [Task(kind, first, second, s, session, seed, table, levels) for s in range(sessions)]
    started = time.time()
    if workers > 1:
        with Pool(workers) as pool:
            per_session = pool.map(run_session, tasks, chunksize=1)
    else:
        per_session = [run_session(t) for t in tasks]
    return summarise(name, per_session, session, kind, time.time() - started)


def report(result: Result) -> str:
    kind, first, second, _ = MATCHES[result.name]
    size = (f"{result.deals} deals x 2 = {2 * result.deals} hands, {result.sessions} sessions, "
            f"{result.seconds:.0f} s")
    if kind == "heads-up":
        return f"{result.name:26s} {first} vs {second}: {first} {result.players[first]}; {size}"
    if kind == "versus":
        parts = [f"{level} {value}" for level, value in result.players.items()]
        parts += [f"{pair}: {value}" for pair, value in result.diffs.items()]
        return f"{result.name:26s} " + "; ".join(parts) + f"; {size} per level"
    pair = f"{first} - {second}"
    return (
        f"{result.name:26s} tested seat: {first} {result.players[first].mean:+.1f} bb/100, "
        f"{second} {result.players[second].mean:+.1f} bb/100; difference "
        f"{result.diffs[pair]}; {size}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", nargs="*", default=list(MATCHES), choices=list(MATCHES))
    parser.add_argument("--outside", action="store_true",
                        help="the matches against outside styles, with the leak counts "
                        "(vs-tight plays 4 and six-max-outside 3 times --hands)")
    parser.add_argument("--hands", type=int, default=4000, help="deals per match")
    parser.add_argument("--session", type=int, default=100, help="hands per session (game)")
    parser.add_argument("--levels", default="hard,medium",
                        help="levels that play the outside styles (versus matches)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", action="store_true",
                        help="the honest yardstick: tables drawn from the pool of outside styles "
                        "(benchmarks/bots_pool.py); uses --session, --seed, --workers")
    parser.add_argument("--tables", type=int, default=24, help="--pool: six-seat tables")
    parser.add_argument("--sessions", type=int, default=6, help="--pool: sessions per table")
    parser.add_argument("--hu-sessions", type=int, default=6,
                        help="--pool: heads-up sessions per style")
    parser.add_argument("--only", choices=("six", "hu"), help="--pool: one part only")
    args = parser.parse_args(argv)
    if args.pool:
        from benchmarks.bots_pool import run_pool

        levels = tuple(args.levels.split(",")) if args.levels != "hard,medium" \
            else ("hard", "medium", "easy")
        lines = run_pool(args.tables, args.sessions, args.session, args.hu_sessions, levels,
                         args.seed, args.workers, six=args.only != "hu",
                         heads_up=args.only != "six")
        for line in lines:
            print(line, flush=True)
        return
    names = list(OUTSIDE_MATCHES) if args.outside else args.match
    levels = tuple(args.levels.split(","))
    tally: bots_leaks.Tally = {}
    for name in names:
        deals = args.hands * (OUTSIDE_SCALE.get(name, 1) if args.outside else 1)
        result = run_match(name, deals, args.session, args.workers, args.seed, levels)
        print(report(result), flush=True)
        bots_leaks.merge(tally, result.tally)
    shown = tuple(level for level in LEVELS if any(key[0] == level for key in tally))
    for line in bots_leaks.report(tally, shown):
        print(line, flush=True)


if __name__ == "__main__":
    main()
