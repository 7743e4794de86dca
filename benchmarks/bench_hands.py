"""Complete random 6-player hands per second: our engine against PokerKit, same run.

    .venv/bin/python benchmarks/bench_hands.py [--ours N] [--pokerkit N] [--profile]

Both engines play the same policy from the same random numbers: with nothing to call, check
(75%), bet the minimum (20%) or go all in (5%); facing a bet, fold (F), call, raise the
minimum (16%) or go all in (4%). Two tables are measured: "calling" (F = 15%: nearly every
hand reaches a showdown, PokerKit's slow case) and "folding" (F = 60%: many hands end early).
Six players, 1,000 chips each, blinds 10/20, a fresh shuffled deck every hand (ours from
``secrets`` as at the table, seeded as in simulations, or shuffled beforehand to time the
engine alone; PokerKit's own shuffle). A hand counts
from creating it to its end (pots awarded). ``--profile`` prints where our engine spends its
time (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import Automation, HoleCardsShowingOrMucking, NoLimitTexasHoldem

from engine.actions import ActionKind
from engine.cards import shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings

PLAYERS = 6
STACK = 1000
BLINDS = (10, 20)
SETTINGS = HandSettings(1, tuple(range(PLAYERS)), (STACK,) * PLAYERS, 0, *BLINDS)

PK_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


FOLD = {"calling": 0.15, "folding": 0.60}


def decide(r: float, can_check: bool, can_raise: bool, fold: float) -> str:
    """The shared policy: "fold", "passive" (check or call), "min" (raise) or "all_in"."""
    if can_check:
        if r < 0.75 or not can_raise:
            return "passive"
        return "min" if r < 0.95 else "all_in"
    if r < fold:
        return "fold"
    if r < 0.80 or not can_raise:
        return "passive"
    return "min" if r < 0.96 else "all_in"


READY_DECKS = [shuffled_deck(seed) for seed in range(1000)]


def play_ours(rng: random.Random, decks: str, fold: float) -> tuple[int, bool]:
    """One hand on our engine; returns (actions, reached showdown). ``decks``: "secrets" (a
    secure shuffle per hand), "seeded" (a seeded shuffle per hand) or "ready" (decks shuffled
    beforehand: the engine alone)."""
    if decks == "ready":
        deck = READY_DECKS[rng.randrange(len(READY_DECKS))]
    else:
        deck = shuffled_deck(rng.getrandbits(32) if decks == "seeded" else None)
    hand = Hand(SETTINGS, deck)
    actions = 0
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        choice = decide(rng.random(), legal.can_check, legal.min_to is not None, fold)
        if choice == "fold":
            hand.act(legal.seat, ActionKind.FOLD)
        elif choice == "passive":
            hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        elif choice == "min":
            assert legal.bet_or_raise is not None
            hand.act(legal.seat, legal.bet_or_raise, legal.min_to)
        else:
            hand.act(legal.seat, ActionKind.ALL_IN)
        actions += 1
    return actions, bool(hand.shown)


def play_pokerkit(rng: random.Random, fold: float) -> tuple[int, bool]:
    """One hand on PokerKit with the same policy."""
    state = NoLimitTexasHoldem.create_state(
        PK_AUTOMATIONS, True, 0, BLINDS, BLINDS[1], (STACK,) * PLAYERS, PLAYERS
    )
    actions = 0
    while state.status:
        assert state.actor_index is not None  # every automation is on: only players wait
        amount = state.checking_or_calling_amount
        can_raise = state.can_complete_bet_or_raise_to()
        choice = decide(rng.random(), amount == 0, can_raise, fold)
        if choice == "fold":
            state.fold()
        elif choice == "passive":
            state.check_or_call()
        elif choice == "min":
            state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
        else:
            state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
        actions += 1
    showdown = any(isinstance(op, HoleCardsShowingOrMucking) for op in state.operations)
    return actions, showdown


ROUNDS = 10  # the engines take turns, so a busy machine slows both alike


def measure(
    players: dict[str, Callable[[random.Random], tuple[int, bool]]], hands: dict[str, int]
) -> dict[str, float]:
    """Hands per second of each player function, measured in alternating rounds."""
    rngs = {name: random.Random(1) for name in players}
    elapsed = dict.fromkeys(players, 0.0)
    actions = dict.fromkeys(players, 0)
    showdowns = dict.fromkeys(players, 0)
    for _ in range(ROUNDS):
        for name, play in players.items():
            rng = rngs[name]
            start = time.perf_counter()
            for _ in range(hands[name] // ROUNDS):
                a, s = play(rng)
                actions[name] += a
                showdowns[name] += s
            elapsed[name] += time.perf_counter() - start
    rates = {}
    for name in players:
        count = hands[name] // ROUNDS * ROUNDS
        rates[name] = count / elapsed[name]
        print(
            f"   {name:<42} {count:>7,} hands in {elapsed[name]:6.2f} s = "
            f"{rates[name]:>8,.0f} hands/s ({actions[name] / count:.1f} actions/hand, "
            f"{showdowns[name] / count:.0%} to showdown)"
        )
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", type=int, default=20_000)
    parser.add_argument("--pokerkit", type=int, default=1_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    print(f"{PLAYERS} players, {STACK} chips each, blinds {BLINDS[0]}/{BLINDS[1]}, same policy")
    for table, fold in FOLD.items():
        print(f"-- {table} table (fold {fold:.0%} facing a bet)")
        pk, ours, seeded, ready = (
            "PokerKit 0.7",
            "ours (secrets shuffle, as at the table)",
            "ours (seeded shuffle, as in simulations)",
            "ours (decks shuffled beforehand)",
        )
        rates = measure(
            {
                pk: partial(play_pokerkit, fold=fold),
                ours: partial(play_ours, decks="secrets", fold=fold),
                seeded: partial(play_ours, decks="seeded", fold=fold),
                ready: partial(play_ours, decks="ready", fold=fold),
            },
            {pk: args.pokerkit, ours: args.ours, seeded: args.ours, ready: args.ours},
        )
        print(
            f"   ratio ours/PokerKit: {rates[ours] / rates[pk]:.1f}x (secrets shuffle), "
            f"{rates[seeded] / rates[pk]:.1f}x (seeded shuffle), "
            f"{rates[ready] / rates[pk]:.1f}x (engine alone); target >= 10x"
        )

    if args.profile:
        rng = random.Random(2)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.ours // 4):
            play_ours(rng, "seeded", FOLD["calling"])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
