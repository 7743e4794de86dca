"""Duplicate matches between the computer players, and against simple scripted players.

    .venv/bin/python benchmarks/bots_match.py [--match NAME ...] [--hands N] [--session S]
                                              [--workers 2] [--seed 1]

Every hand is dealt with blinds 10/20 and every stack reset to 100 big blinds, so results add up
hand by hand in big blinds. Cards come from a seeded deck per hand; the table's players decide
through ``engine.bots.decide`` (or a scripted policy), and the hands are played by
``engine.hand.Hand`` with its own checks.

- Heads-up ("A-B"): each deck is played twice, the second time with the seats swapped, so both
  players get the same cards in the same positions once; A's result is the mean of its two.
- Six seats ("six-max"): the tested seat is played by the hard bot, then the same decks are
  played again with the medium bot in that seat; the five scripted opponents start the replay
  with fresh memories and the same random seeds, so only the tested seat's decisions differ.

Hands are grouped in sessions (a game: the bots' memory of their opponents starts empty at each
session and grows with it). The 95% interval is over the sessions' bb/100, so it allows for the
dependence between hands of one session. Sessions run on ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from engine.actions import Action, ActionKind
from engine.bots import decide
from engine.bots import preflop as preflop_table
from engine.bots.base import Spot, bet_to, check_or_call, fold_or_check, read_spot
from engine.bots.combos import COMBO_INDEX, board_strength
from engine.bots.ranges import open_width
from engine.cards import shuffled_deck
from engine.hand import Hand, HandSettings
from engine.views import hand_view

BIG_BLIND = 20
SMALL_BLIND = 10
STACK = 100 * BIG_BLIND

View = Mapping[str, Any]
Past = list[dict[str, Any]]
Policy = Callable[[View, Sequence[Mapping[str, Any]], random.Random], Action]


# ------------------------------------------------------------------ scripted players
def _strength(spot: Spot) -> float:
    """Made-hand (and draw) percentile of the hole cards on the board, against all combos."""
    strength, _ = board_strength(spot.board)
    return float(strength[COMBO_INDEX[spot.hole[0], spot.hole[1]]])


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
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if pct <= 0.03 and spot.level() <= 2:
            return bet_to(spot, 3 * max(spot.current_bet, bb))
        if spot.legal["check"]:
            return check_or_call(spot)
        if (pct <= 0.65 and spot.to_call <= 10 * bb) or pct <= 0.1:
            return check_or_call(spot)
        return fold_or_check(spot)
    s = _strength(spot)
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
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if pct <= 0.08 and spot.level() <= 2:
            return bet_to(spot, 3 * max(spot.current_bet, bb))
        if spot.legal["check"]:
            return check_or_call(spot)
        if (pct <= 0.12 and spot.to_call <= 8 * bb) or pct <= 0.03:
            return check_or_call(spot)
        return fold_or_check(spot)
    s = _strength(spot)
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
    s = _strength(spot)
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
    s = _strength(spot)
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
}
REMEMBERS = {"hard"}  # players that read ``past`` (the others get an empty list)


# ------------------------------------------------------------------ playing
def play_hand(
    number: int,
    seats: Sequence[int],
    button: int,
    deck_seed: int,
    players: Mapping[int, str],
    pasts: Mapping[int, Past],
    seeds: Mapping[int, int],
) -> dict[int, int]:
    """Play one hand at 100 big blinds each; returns each seat's net chips."""
    settings = HandSettings(
        hand_number=number,
        seats=tuple(seats),
        stacks=tuple(STACK for _ in seats),
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
        past = pasts[seat] if name in REMEMBERS else []
        action = PLAYERS[name](view, past, rngs[seat])
        hand.act(action.seat, action.kind, action.amount)
    for seat in seats:
        if players[seat] in REMEMBERS:
            pasts[seat].append(hand_view(hand, seat))
    return {s: hand.stack[i] - STACK for i, s in enumerate(hand.seats)}


@dataclass(frozen=True, slots=True)
class Task:
    kind: str  # "heads-up" or "six-max"
    first: str  # A (heads-up) or the bot in the tested seat
    second: str  # B (heads-up) or the bot replacing it
    session: int
    hands: int
    seed: int


SIX_MAX_OPPONENTS = ("loose-caller", "tight-folder", "maniac", "solid", "loose-caller")


def run_session(task: Task) -> tuple[float, float]:
    """Chips won per run of one session: (A's total, B's total) heads-up as the mean of the two
    seatings; at six seats (tested seat with ``first``, same seat with ``second``)."""
    base = task.seed * 1_000_003 + task.session * 10_007
    if task.kind == "heads-up":
        totals = {task.first: 0.0, task.second: 0.0}
        for swap in (False, True):
            players = {0: task.second, 1: task.first} if swap else {0: task.first, 1: task.second}
            pasts: dict[int, Past] = {0: [], 1: []}
            for h in range(task.hands):
                seeds = {0: base + 7 * h + 1, 1: base + 7 * h + 2}
                if swap:
                    seeds = {0: seeds[1], 1: seeds[0]}
                net = play_hand(h + 1, (0, 1), h % 2, base + h, players, pasts, seeds)
                for seat, chips in net.items():
                    totals[players[seat]] += chips / 2
        return totals[task.first], totals[task.second]
    results = []
    for tested in (task.first, task.second):
        players = {0: tested, **{i + 1: name for i, name in enumerate(SIX_MAX_OPPONENTS)}}
        pasts = {s: [] for s in players}
        total = 0.0
        for h in range(task.hands):
            seeds = {s: base + 11 * h + s for s in players}
            net = play_hand(h + 1, tuple(players), h % 6, base + h, players, pasts, seeds)
            total += net[0]
        results.append(total)
    return results[0], results[1]


# ------------------------------------------------------------------ statistics
@dataclass(frozen=True, slots=True)
class Result:
    name: str
    deals: int
    sessions: int
    first: float  # bb/100
    second: float
    diff: float  # bb/100 of first minus second (heads-up: A's result, the mirror of B's)
    half_width: float  # 95% interval half-width of diff
    seconds: float

    @property
    def low(self) -> float:
        return self.diff - self.half_width

    @property
    def high(self) -> float:
        return self.diff + self.half_width


def summarise(name: str, per_session: Sequence[tuple[float, float]], hands: int, kind: str,
              seconds: float) -> Result:
    scale = 100.0 / (BIG_BLIND * hands)
    if kind == "heads-up":
        diffs = [a * scale for a, _ in per_session]
    else:
        diffs = [(a - b) * scale for a, b in per_session]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("inf")
    first = sum(a for a, _ in per_session) * scale / n
    second = sum(b for _, b in per_session) * scale / n
    return Result(name, n * hands, n, first, second, mean, half, seconds)


MATCHES: dict[str, tuple[str, str, str]] = {
    "hard-medium": ("heads-up", "hard", "medium"),
    "medium-easy": ("heads-up", "medium", "easy"),
    "hard-easy": ("heads-up", "hard", "easy"),
    "easy-always-call": ("heads-up", "easy", "always-call"),
    "medium-always-call": ("heads-up", "medium", "always-call"),
    "hard-always-call": ("heads-up", "hard", "always-call"),
    "easy-random": ("heads-up", "easy", "random"),
    "medium-random": ("heads-up", "medium", "random"),
    "hard-random": ("heads-up", "hard", "random"),
    "six-max-hard-vs-medium": ("six-max", "hard", "medium"),
}


def run_match(name: str, deals: int, session: int, workers: int, seed: int) -> Result:
    kind, first, second = MATCHES[name]
    sessions = max(2, math.ceil(deals / session))
    tasks = [Task(kind, first, second, s, session, seed) for s in range(sessions)]
    started = time.time()
    if workers > 1:
        with Pool(workers) as pool:
            per_session = pool.map(run_session, tasks, chunksize=1)
    else:
        per_session = [run_session(t) for t in tasks]
    return summarise(name, per_session, session, kind, time.time() - started)


def report(result: Result) -> str:
    kind, first, second = MATCHES[result.name]
    if kind == "heads-up":
        return (
            f"{result.name:26s} {first} vs {second}: {result.diff:+8.1f} bb/100 for {first}, "
            f"95% CI [{result.low:+.1f}, {result.high:+.1f}]; {result.deals} deals x 2 seatings "
            f"= {2 * result.deals} hands, {result.sessions} sessions, {result.seconds:.0f} s"
        )
    return (
        f"{result.name:26s} tested seat: {first} {result.first:+.1f} bb/100, "
        f"{second} {result.second:+.1f} bb/100; difference {result.diff:+.1f} bb/100, "
        f"95% CI [{result.low:+.1f}, {result.high:+.1f}]; {result.deals} deals x 2 "
        f"= {2 * result.deals} hands, {result.sessions} sessions, {result.seconds:.0f} s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", nargs="*", default=list(MATCHES), choices=list(MATCHES))
    parser.add_argument("--hands", type=int, default=4000, help="deals per match")
    parser.add_argument("--session", type=int, default=100, help="hands per session (game)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.match:
        result = run_match(name, args.hands, args.session, args.workers, args.seed)
        print(report(result), flush=True)


if __name__ == "__main__":
    main()
