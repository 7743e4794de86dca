"""Helpers of the computer players' tests: benchmarks/bots_match.py loaded, a hard player's memory
against a scripted opponent (at the table of benchmarks/bots_table.py), spots on a board and the
rate of an answer over them."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.bots_table import play_hand
from engine.actions import Action, ActionKind
from engine.bots import decide
from engine.bots.combos import COMBO_CLASS, COMBO_INDEX, COMBOS, board_strength
from engine.cards import ALL_CARDS, parse_cards
from engine.game import Game, GameSettings
from engine.views import game_view, hand_view
from tests.engine.helpers import make_hand, play

ROOT = Path(__file__).resolve().parents[2]


def load_match() -> ModuleType:
    """benchmarks/bots_match.py: the scripted players and the match runner."""
    name = "bots_match"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "bots_match.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def history(opponent: str, hands: int = 60) -> list[dict[str, Any]]:
    """The hard player's memory (seat 0) after heads-up hands against a scripted opponent."""
    players = {0: "hard", 1: opponent}
    pasts: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    for h in range(hands):
        play_hand(h + 1, (0, 1), h % 2, 500 + h, players, pasts, {0: h, 1: 1000 + h})
    return pasts[0]


Spot = tuple[dict[int, str], str, tuple[str, ...]]  # holes, board, actions before the bot's turn


def text(card_id: int) -> str:
    return str(ALL_CARDS[card_id])


# ------------------------------------------------------------------ medium's preflop plan
def one_combo_per_class() -> list[tuple[int, int]]:
    first: dict[int, tuple[int, int]] = {}
    for index, cls in enumerate(COMBO_CLASS):
        first.setdefault(int(cls), (int(COMBOS[index][0]), int(COMBOS[index][1])))
    return [first[c] for c in sorted(first)]


# ------------------------------------------------------------------ hard adapts
@cache
def memory(opponent: str) -> tuple[dict[str, Any], ...]:
    return tuple(history(opponent, 80))


def rate(level: str, opponent: str, spots: Sequence[Spot], wanted: Callable[[Action, int], float]
         ) -> float:
    """Mean of ``wanted(action, pot)`` for the bot in seat 0 (the button) heads-up."""
    total = 0.0
    for holes, board, actions in spots:
        hand = make_hand({0: 2000, 1: 2000}, button=0, holes=holes, board=board)
        play(hand, *actions)
        assert hand.seat_to_act == 0
        action = decide(level, {"hand": hand_view(hand, 0)}, list(memory(opponent)),
                        random.Random(5))
        total += wanted(action, sum(hand.total))
    return total / len(spots)


def spots_by_strength(board: str, street: int, low: float, high: float,
                      actions: tuple[str, ...], count: int = 50) -> list[Spot]:
    """Hands for the bot whose strength on the board up to ``street`` lies in [low, high)."""
    ids = [c.id for c in parse_cards(board)]
    strength, _ = board_strength(tuple(ids[: street + 2]))
    free = [c for c in range(52) if c not in ids]
    rng = random.Random(11)
    out: list[Spot] = []
    while len(out) < count:
        a, b, c, d = rng.sample(free, 4)
        if low <= strength[COMBO_INDEX[a, b]] < high:
            out.append(({0: text(a) + text(b), 1: text(c) + text(d)}, board, actions))
    return out


BOARD = "Ks9d4c2h7s"


def bets(action: Action, pot: int) -> float:
    return float(action.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN))


def continues(action: Action, pot: int) -> float:
    return float(action.kind != ActionKind.FOLD)


Choose = Callable[[int, str, dict[str, Any], list[dict[str, Any]], random.Random], Action]


def bot_game(seed: int, levels: dict[int, str], hands: int, choose: Choose) -> None:
    """A game at fast blinds among computer seats (seat -> level), up to ``hands`` hands: each
    turn's action is ``choose(seat, level, view, past, rng)`` (the game's one generator), and
    goes through ``Game.act``, which raises ActionError on anything illegal."""
    rng = random.Random(seed)
    game = Game(GameSettings(blind_every=5), dict.fromkeys(levels, False), rng=random.Random(seed))
    pasts: dict[int, list[dict[str, Any]]] = {s: [] for s in levels}
    while not game.finished and game.hand_number < hands:
        hand = game.start_hand(seed=rng.randrange(2**32))
        while not hand.finished:
            seat = hand.seat_to_act
            assert seat is not None
            action = choose(seat, levels[seat], game_view(game, seat), pasts[seat], rng)
            game.act(action.seat, action.kind, action.amount)
        for seat in hand.seats:
            pasts[seat].append(hand_view(hand, seat))
