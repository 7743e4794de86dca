"""Watch a whole game in the terminal, every seat played by the computer.

    python -m engine.demo [--seed N] [--players 4] [--hands N] [--delay S]

Each hand is told as it happens: the button and the blinds, everyone's hole cards (this is a
demonstration: at a real table nobody sees them), every action, the board, the showdown, the
pots and who wins them, players going out, and the final standings. The same seed always
plays the same game.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from engine import events as kinds
from engine.actions import ActionError
from engine.bots import LEVELS, decide
from engine.events import Event
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.views import game_view


def chips(amount: int) -> str:
    return f"{amount:,}"


def pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def describe(event: Event, hand: Hand) -> str | None:
    """One line of English for an event, or None for events the story leaves out."""
    who = f"Seat {event.seat}"
    cards = " ".join(event.cards)
    all_in = " and is all in" if event.all_in else ""
    if event.kind == kinds.POST_SMALL_BLIND:
        return f"{who} posts the small blind of {chips(event.amount)}{all_in}"
    if event.kind == kinds.POST_BIG_BLIND:
        return f"{who} posts the big blind of {chips(event.amount)}{all_in}"
    if event.kind == kinds.DEAL_HOLE:
        return f"{who} is dealt {cards}"
    if event.kind == kinds.BOARD:
        board = " ".join(str(c) for c in hand.board[: _board_size(event.street)])
        if event.street == "flop":
            return f"Flop: {cards}"
        return f"{event.street.capitalize()}: {cards}   (board {board})"
    if event.kind == kinds.ACTION:
        return _describe_action(event, who, all_in)
    if event.kind == kinds.UNCALLED:
        return f"{who} takes back {chips(event.amount)} that nobody called"
    if event.kind == kinds.SHOW:
        named = f" ({event.hand})" if event.hand else ""
        return f"{who} shows {cards}{named}"
    if event.kind == kinds.MUCK:
        return f"{who} cannot win and mucks"
    if event.kind == kinds.AWARD:
        return _describe_award(event, hand, who, cards)
    return None


def _describe_action(event: Event, who: str, all_in: str) -> str:
    if event.action == "fold":
        return f"{who} folds"
    if event.action == "check":
        return f"{who} checks"
    if event.action == "call":
        return f"{who} calls {chips(event.amount)}{all_in}"
    if event.action == "bet":
        return f"{who} bets {chips(event.to)}{all_in}"
    return f"{who} raises to {chips(event.to)}{all_in}"


def _describe_award(event: Event, hand: Hand, who: str, cards: str) -> str:
    if not event.cards:
        alone = "everyone else folded" if not hand.shown else "nobody else could win it"
        return f"{who} wins {chips(event.amount)} from {pot_name(event.pot)} ({alone})"
    return (
        f"{who} wins {chips(event.amount)} from {pot_name(event.pot)} "
        f"with {event.hand}: {cards}"
    )


def _board_size(street: str) -> int:
    return {"flop": 3, "turn": 4, "river": 5}.get(street, 0)


class Demo:
    """Plays and narrates one game. All randomness comes from one seeded generator."""

    def __init__(
        self, seed: int, players: int, hands: int | None, delay: float, out: TextIO
    ) -> None:
        self.rng = random.Random(seed)
        self.out = out
        self.delay = delay
        self.max_hands = hands
        self.levels = {seat: LEVELS[seat % len(LEVELS)] for seat in range(players)}
        self.game = Game(
            GameSettings(),
            {seat: False for seat in range(players)},
            rng=random.Random(self.rng.randrange(2**32)),
        )
        self.bot_rng = random.Random(self.rng.randrange(2**32))

    def say(self, line: str = "", indent: int = 2) -> None:
        print(" " * indent + line if line else "", file=self.out)

    def pause(self) -> None:
        if self.delay > 0:
            self.out.flush()
            time.sleep(self.delay)

    def run(self) -> None:
        game = self.game
        self.say(f"{len(game.seats)} computer players, {chips(game.settings.starting_stack)} "
                 "chips each. Blinds rise every "
                 f"{game.settings.blind_every} hands.", indent=0)
        for seat, level in self.levels.items():
            self.say(f"Seat {seat}: computer player ({level})")
        while not game.finished:
            if self.max_hands is not None and game.hand_number >= self.max_hands:
                self.say()
                self.say(f"Stopping after {game.hand_number} hands, as asked.", indent=0)
                game.end_now()
                break
            self.play_hand()
        self.standings()

    def play_hand(self) -> None:
        game = self.game
        hand = game.start_hand(seed=self.rng.randrange(2**63))
        s = hand.settings
        self.say()
        self.say(
            f"Hand {s.hand_number}: blinds {chips(s.small_blind)}/{chips(s.big_blind)}, "
            f"button seat {s.button}",
            indent=0,
        )
        told = self.tell(hand, 0)
        while not hand.finished:
            seat = hand.seat_to_act
            assert seat is not None
            action = decide(self.levels[seat], game_view(game, seat), [], self.bot_rng)
            try:
                game.act(action.seat, action.kind, action.amount)
            except ActionError as refusal:
                # A computer player must never stall the table: the refused choice becomes what
                # a person's clock would do (P1), and the demo says so.
                self.say(f"(Seat {seat} tried something the rules refuse: {refusal.message})")
                fallback = hand.timeout_action()
                game.act(fallback.seat, fallback.kind, fallback.amount)
            told = self.tell(hand, told)
            self.pause()
        stacks = ", ".join(
            f"seat {seat} {chips(st.stack)}" for seat, st in game.seats.items() if st.stack > 0
        )
        self.say(f"Stacks: {stacks}")
        for seat in hand.seats:
            if game.seats[seat].stack == 0:
                self.say(f"Seat {seat} has no chips left and leaves the table.")

    def tell(self, hand: Hand, start: int) -> int:
        for event in hand.events[start:]:
            line = describe(event, hand)
            if line is not None:
                self.say(line)
        return len(hand.events)

    def standings(self) -> None:
        self.say()
        self.say("Final standings", indent=0)
        for standing in self.game.standings():
            if standing.chips > 0:
                detail = f"{chips(standing.chips)} chips"
            else:
                detail = f"out in hand {standing.out_hand}"
            self.say(f"{standing.place}. Seat {standing.seat}, {detail}")


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("give a whole number above zero")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m engine.demo",
        description="Watch a game of no-limit hold'em played by computer players.",
    )
    parser.add_argument("--seed", type=int, default=None,
                        help="replay the same game: the same seed gives the same game")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7),
                        metavar="{2..6}", help="how many seats (default 4)")
    parser.add_argument("--hands", type=_positive, default=None,
                        help="stop after this many hands (default: play until one player "
                             "has every chip)")
    parser.add_argument("--delay", type=float, default=None,
                        help="seconds to wait after each action (default 0.3 in a terminal, "
                             "0 otherwise)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = parse_args(argv)
    stream = out if out is not None else sys.stdout
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    delay = args.delay if args.delay is not None else (0.3 if stream.isatty() else 0.0)
    print(f"Seed {seed} (run again with --seed {seed} to watch the same game).", file=stream)
    try:
        Demo(seed, args.players, args.hands, max(delay, 0.0), stream).run()
    except KeyboardInterrupt:
        print("\nStopped.", file=stream)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
