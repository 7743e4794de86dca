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

Hands are grouped in sessions (a game: the bots' memory of their opponents starts empty at each
session and grows with it). The 95% interval is over the sessions' bb/100, so it allows for the
dependence between hands of one session. Sessions run on ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bots_leaks, outside_styles
from benchmarks.bots_opponents import OUTSIDE
from benchmarks.scripted import ANY_PRICE, Policy, View, by_ranges, made_strength
from engine.actions import Action, ActionKind
from engine.bots import decide
from engine.bots import preflop as preflop_table
from engine.bots.base import bet_to, check_or_call, fold_or_check, read_spot
from engine.bots.ranges import open_width
from engine.cards import shuffled_deck
from engine.hand import Hand, HandSettings
from engine.views import hand_view

BIG_BLIND = 20
SMALL_BLIND = 10
STACK = 100 * BIG_BLIND

Past = list[dict[str, Any]]  # the hands of a session a player remembers


# ------------------------------------------------------------------ scripted players
def always_call(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    return check_or_call(read_spot(view))


def random_player(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Picks uniformly among fold (when facing a bet), check or call, and bet or raise (to a
    uniformly random amount between the smallest allowed and all in)."""
    spot = read_spot(view)
    legal = spot.legal
    choices = ["passive"]
    if not legal["check"]:
        choices.append("fold")
    if legal["bet_or_raise"] is not None:
        choices.append("raise")
    pick = rng.choice(choices)
    if pick == "fold":
        return fold_or_check(spot)
    if pick == "raise":
        amount = rng.randint(int(legal["min_to"]), int(legal["max_to"]))
        return Action(spot.me, ActionKind(legal["bet_or_raise"]), amount)
    return check_or_call(spot)


def loose_caller(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Plays two hands in three, calls bets with any piece of the board, raises only monsters."""
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.03, [(0.65, 10), (0.1, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot * 0.5) if s >= 0.9 else check_or_call(spot)
    if s >= 0.97 and rng.random() < 0.5:
        return bet_to(spot, spot.current_bet * 2.5)
    if s >= 0.3 or rng.random() < 0.25:
        return check_or_call(spot)
    return fold_or_check(spot)


def tight_folder(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Plays one hand in eight and gives up without a strong hand."""
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.08, [(0.12, 8), (0.03, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot * 0.66) if s >= 0.8 else check_or_call(spot)
    need = 0.85 if spot.to_call > 0.7 * spot.pot else 0.75
    if s >= 0.95:
        return bet_to(spot, spot.current_bet * 2.5)
    return check_or_call(spot) if s >= need else fold_or_check(spot)


def maniac(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Raises and bets most of the time with anything; calls the rest."""
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if spot.level() <= 3 and rng.random() < 0.6:
            return bet_to(spot, 3.5 * max(spot.current_bet, bb))
        if spot.legal["check"] or pct <= 0.7:
            return check_or_call(spot)
        return fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot) if rng.random() < 0.7 else check_or_call(spot)
    if rng.random() < 0.35:
        return bet_to(spot, spot.current_bet + spot.pot)
    if s >= 0.4 or rng.random() < 0.5:
        return check_or_call(spot)
    return fold_or_check(spot)


def solid(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """A sensible rule-based player: opens by position, continuation-bets, calls with the price."""
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        level = spot.level()
        if level <= 1:
            if spot.legal["check"]:
                return bet_to(spot, 4 * bb) if pct <= 0.1 else check_or_call(spot)
            if pct <= open_width(spot.n, spot.behind_preflop(spot.me)):
                return bet_to(spot, 2.5 * bb if spot.n == 2 else 3 * bb)
            return fold_or_check(spot)
        if level == 2:
            if pct <= 0.04:
                return bet_to(spot, 3 * spot.current_bet)
            if pct <= (0.3 if spot.n == 2 else 0.15) and spot.to_call <= 4 * bb:
                return check_or_call(spot)
            return fold_or_check(spot)
        if pct <= 0.02:
            return bet_to(spot, 2.3 * spot.current_bet)
        return check_or_call(spot) if pct <= 0.05 else fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        raiser = spot.last_aggressor(0) == spot.me
        if s >= 0.75 or (spot.street == 1 and raiser and (s >= 0.55 or rng.random() < 0.5)):
            return bet_to(spot, spot.pot * 0.6)
        return check_or_call(spot)
    price = spot.to_call / (spot.pot + spot.to_call)
    if s >= 0.93:
        return bet_to(spot, spot.current_bet * 2.5)
    if s >= 0.45 + 0.8 * price:
        return check_or_call(spot)
    return fold_or_check(spot)


def bot(level: str) -> Policy:
    def policy(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
        return decide(level, view, past, rng)

    return policy


PLAYERS: dict[str, Policy] = {
    "easy": bot("easy"),
    "medium": bot("medium"),
    "hard": bot("hard"),
    "always-call": always_call,
    "random": random_player,
    "loose-caller": loose_caller,
    "tight-folder": tight_folder,
    "maniac": maniac,
    "solid": solid,
    **OUTSIDE,
    **outside_styles.POOL,
}
LEVELS = ("easy", "medium", "hard")
REMEMBERS = {"hard", "medium"}  # players that read ``past`` (the others get an empty list)
# With the pool of outside styles (``--pool``), the adapter reads the hands of its session too.
POOL_REMEMBERS = REMEMBERS | outside_styles.REMEMBERING


# ------------------------------------------------------------------ playing
def play_hand(
    number: int,
    seats: Sequence[int],
    button: int,
    deck_seed: int,
    players: Mapping[int, str],
    pasts: Mapping[int, Past],
    seeds: Mapping[int, int],
    tally: bots_leaks.Tally | None = None,
    stacks: Mapping[int, int] | None = None,
    remembers: frozenset[str] | set[str] = REMEMBERS,
) -> dict[int, int]:
    """Play one hand at 100 big blinds each (or at ``stacks``); returns each seat's net chips.
    The computer players' decisions are looked at for the known leaks when ``tally`` is given;
    the players named in ``remembers`` get the hands of their session as ``past``."""
    starting = {s: (stacks or {}).get(s, STACK) for s in seats}
    settings = HandSettings(
        hand_number=number,
        seats=tuple(seats),
        stacks=tuple(starting[s] for s in seats),
        button=button,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
    )
    hand = Hand(settings, shuffled_deck(deck_seed))
    rngs = {s: random.Random(seeds[s]) for s in seats}
    while not hand.finished:
        seat = hand.seat_to_act
        assert seat is not None
        view = {"hand": hand_view(hand, seat)}
        name = players[seat]
        past = pasts[seat] if name in remembers else []
        action = PLAYERS[name](view, past, rngs[seat])
        if tally is not None and name in LEVELS:
            bots_leaks.record(tally, name, read_spot(view), action, players)
        hand.act(action.seat, action.kind, action.amount)
    for seat in seats:
        if players[seat] in remembers:
            pasts[seat].append(hand_view(hand, seat))
    return {s: hand.stack[i] - starting[s] for i, s in enumerate(hand.seats)}


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
