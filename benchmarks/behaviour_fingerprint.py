"""A hash of what the engine decides and counts, to show that a refactoring changed nothing.

    .venv/bin/python benchmarks/behaviour_fingerprint.py [--hands 300]

Plays ``--hands`` seeded hands at five tables (six easy, six medium, six hard players, a mixed
six, hard against medium heads-up; one hand in three heads-up at the six-seat tables), stacks
drawn between 8 and 150 big blinds, every seat remembering the hands it saw. It hashes every
decision and its reason (``decide_explained``), each hand's statistics (``engine.stats``) and
their totals, and how each computer player describes its opponents at the end; then equities
(``engine.equity``, with and without ranges), exact, simulated and table odds, a batch of
evaluator values and a few boards' strengths for the bots, all from fixed seeds.

Prints one hash per part and the hash of everything: run it before and after a change; equal
hashes mean the same decisions, counts and numbers. The hashes of floats are exact (``repr``).
"""

from __future__ import annotations

import argparse
import hashlib
import random
from typing import Any

import numpy as np

from engine import stats
from engine.bots import decide_explained, describe_opponents
from engine.bots.combos import board_strength
from engine.cards import new_deck, parse_cards
from engine.equity import equity
from engine.evaluator import rank_many
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.odds import exact_odds, simulated_odds, table_odds
from engine.views import game_view, hand_view

TABLES = (
    ("easy",) * 6,
    ("medium",) * 6,
    ("hard",) * 6,
    ("hard", "easy", "medium", "hard", "easy", "medium"),
    ("hard", "medium"),
)


class Fingerprint:
    def __init__(self) -> None:
        self.all = hashlib.sha256()
        self.parts: dict[str, Any] = {}

    def feed(self, part: str, item: object) -> None:
        text = repr(item).encode()
        self.all.update(text)
        self.parts.setdefault(part, hashlib.sha256()).update(text)


def play(levels: tuple[str, ...], hands: int, seed: int, out: Fingerprint) -> None:
    rng = random.Random(seed)
    pasts: dict[int, list[dict[str, Any]]] = {}
    summaries = []
    for number in range(1, hands + 1):
        players = len(levels) if number % 3 else 2
        seats = tuple(range(players))
        game = Game(GameSettings(), dict.fromkeys(seats, False), rng=random.Random(number))
        stacks = tuple(rng.randint(8, 150) * 20 for _ in seats)
        deck = new_deck()
        rng.shuffle(deck)
        hand = Hand(HandSettings(number, seats, stacks, seats[number % players], 10, 20), deck)
        game.hand = hand
        while not hand.finished:
            seat = hand.seat_to_act
            assert seat is not None
            past = pasts.setdefault(seat + 10 * players, [])
            action, reason = decide_explained(levels[seat], game_view(game, seat), past, rng)
            out.feed("decisions", (action.seat, action.kind, action.amount))
            out.feed("reasons", reason)
            hand.act(action.seat, action.kind, action.amount)
        for seat in seats:
            pasts.setdefault(seat + 10 * players, []).append(hand_view(hand, seat))
        summary = stats.summarize(stats.PublicHand.of(hand))
        summaries.append(summary)
        out.feed("stats", stats.summary_to_dict(summary))
    out.feed("totals", sorted((k, v.to_dict()) for k, v in stats.total(summaries).items()))
    for seat in range(len(levels)):
        out.feed("describe", describe_opponents(pasts.get(seat + 10 * len(levels), []), seat))


def numbers(out: Fingerprint) -> None:
    for s in range(6):
        deck = new_deck()
        random.Random(s).shuffle(deck)
        board = deck[2 : 2 + s % 4 + (s % 4 > 0) * 2]
        out.feed("equity", equity(deck[:2], board, 1 + s % 3, 3000, random.Random(s)))
        queens, jacks = parse_cards("QsQd"), parse_cards("JcJd")
        pairs = [(queens[0], queens[1]), (jacks[0], jacks[1])]
        ranged = equity(deck[:2], deck[2:5], 2, 2000, random.Random(s), ranges=[pairs, None])
        out.feed("equity_ranges", ranged)
        holes = [deck[7:9], deck[9:11], deck[11:13]]
        out.feed("exact", exact_odds(holes, deck[13:16]))
        out.feed("exact_turn", exact_odds(holes[:2], deck[13:17]))
        out.feed("simulated", simulated_odds(holes, (), 20000, s))
        out.feed("table", table_odds(holes[:2], ()))
    gen = np.random.default_rng(7)
    rows = np.array([gen.permutation(52)[:7] for _ in range(20000)])
    out.feed("rank_many", rank_many(rows).tolist())
    out.feed("rank_many_five", rank_many(rows[:, :5]).tolist())
    for ids in ((0, 5, 10), (12, 25, 38, 51), (3, 7, 11, 15, 19)):
        strength, draws = board_strength(ids)
        out.feed("strength", (strength.round(12).tolist(), draws.tolist()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands at each table")
    args = parser.parse_args()
    out = Fingerprint()
    for seed, levels in enumerate(TABLES, start=1):
        play(levels, args.hands, seed, out)
    numbers(out)
    for part, digest in out.parts.items():
        print(f"{part:16} {digest.hexdigest()[:16]}")
    print("all", out.all.hexdigest())


if __name__ == "__main__":
    main()
