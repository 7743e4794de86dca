"""Computer players: the contract, no cheating, only legal actions, repeatable with a seed."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.bots import LEVELS, decide, new_rng
from engine.bots.combos import COMBO_INDEX, board_strength
from engine.bots.sim import deal, uniform_range
from engine.cards import parse_cards
from engine.equity import equity
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.views import game_view, hand_view
from tests.engine.bot_spots import bot_game
from tests.engine.helpers import make_hand, play, stacked_deck

BOTS = Path(__file__).resolve().parents[2] / "engine" / "bots"

# What a bot may import from the engine: card and action types, the evaluator, equity, and its
# own package. Not the hand or game state machines (they hold the deck), nor history or views.
# engine.events: the event vocabulary and the preflop count the reads share with the statistics
# (no hand, no deck).
ALLOWED_ENGINE_IMPORTS = {
    "engine.actions", "engine.cards", "engine.evaluator", "engine.equity", "engine.events",
}


def engine_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            if node.module == "engine":
                found |= {f"engine.{a.name}" for a in node.names}
            else:
                found.add(node.module)
    return found


def test_bots_import_nothing_that_holds_the_deck() -> None:
    sources = sorted(BOTS.glob("*.py"))
    assert len(sources) >= 8
    for source in sources:
        for module in engine_imports(source):
            if module.startswith("engine.bots"):
                continue
            assert module in ALLOWED_ENGINE_IMPORTS, f"{source.name} imports {module}"


def test_bot_source_never_mentions_deck_or_burns_of_a_hand() -> None:
    for source in sorted(BOTS.glob("*.py")):
        text = source.read_text()
        for word in (".deck", ".burnt", ".hole[", "hand_record", "to_dict()"):
            assert word not in text, f"{source.name} mentions {word}"


def two_deals_that_look_the_same_from_seat_0() -> tuple[Hand, Hand]:
    """Same cards for seat 0 and the same flop; different hands for the others, other burns and
    another order for the undealt cards."""
    stacks = {0: 2000, 1: 2000, 2: 2000}
    first = make_hand(stacks, button=2, holes={0: "AhQh", 1: "KcKd", 2: "7s2d"}, board="Qd9h4c")
    deck = stacked_deck((0, 1, 2), 2, {0: "AhQh", 1: "3c3d", 2: "JsTs"}, "Qd9h4c")
    tail = deck[14:]
    random.Random(9).shuffle(tail)
    deck[14:] = tail
    second = Hand(first.settings, deck)
    assert second.hole[1] != first.hole[1] and second.deck != first.deck
    for hand in (first, second):
        play(hand, "2 call", "0 raise 60", "1 call", "2 call", "0 check", "1 bet 100", "2 call")
    return first, second


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_decides_the_same_whatever_the_hidden_cards(level: str) -> None:
    first, second = two_deals_that_look_the_same_from_seat_0()
    views = [{"hand": hand_view(h, 0)} for h in (first, second)]
    assert json.dumps(views[0], sort_keys=True) == json.dumps(views[1], sort_keys=True)
    actions = [decide(level, v, [], random.Random(4)) for v in views]
    assert actions[0] == actions[1]
    assert actions[0].seat == 0


def test_the_view_a_bot_gets_holds_no_hidden_card() -> None:
    first, _ = two_deals_that_look_the_same_from_seat_0()
    text = json.dumps(hand_view(first, 0))
    seen = {*first.hole[0], *first.board}
    hidden = [c for c in first.deck if c not in seen]
    assert len(hidden) == 52 - 5 and set(first.burnt) <= set(hidden)
    for card in hidden:
        assert f'"{card}"' not in text


def test_decide_refuses_an_unknown_level_and_a_seat_not_to_act() -> None:
    first, _ = two_deals_that_look_the_same_from_seat_0()
    with pytest.raises(ValueError, match="unknown computer level"):
        decide("expert", {"hand": hand_view(first, 0)}, [], random.Random(1))
    with pytest.raises(ValueError, match="not to act"):
        decide("easy", {"hand": hand_view(first, 1)}, [], random.Random(1))


def test_new_rng_is_seeded_from_the_secure_source() -> None:
    a, b = new_rng(), new_rng()
    assert isinstance(a, random.Random)
    assert [a.random() for _ in range(4)] != [b.random() for _ in range(4)]


# ------------------------------------------------------------------ legal actions only
def random_policy(view: dict[str, Any], rng: random.Random) -> Action:
    legal = view["hand"]["legal"]
    seat = legal["seat"]
    roll = rng.random()
    if legal["bet_or_raise"] and roll < 0.25:
        return Action(seat, ActionKind(legal["bet_or_raise"]),
                      rng.randint(legal["min_to"], legal["max_to"]))
    if legal["bet_or_raise"] and roll < 0.32:
        return Action(seat, ActionKind.ALL_IN)
    if roll < 0.45 and not legal["check"]:
        return Action(seat, ActionKind.FOLD)
    return Action(seat, ActionKind.CHECK if legal["check"] else ActionKind.CALL)


def play_game(seed: int, levels: dict[int, str], max_hands: int = 30) -> dict[str, int]:
    """A whole game at fast blinds with these players; every action goes through Game.act, which
    raises ActionError on anything illegal. Returns decisions made per level."""
    made: dict[str, int] = {}

    def choose(
        seat: int, level: str, view: dict[str, Any], past: list[dict[str, Any]],
        rng: random.Random,
    ) -> Action:
        if level == "random":
            action = random_policy(view, rng)
        else:
            action = decide(level, view, past, random.Random(rng.random()))
            assert action.seat == seat
        made[level] = made.get(level, 0) + 1
        return action

    bot_game(seed, levels, max_hands, choose)
    return made


@pytest.mark.parametrize("seed", range(8))
def test_every_bot_decision_is_accepted_by_the_hand(seed: int) -> None:
    rng = random.Random(seed)
    seats = sorted(rng.sample(range(6), rng.randint(2, 6)))
    choices = [*LEVELS, "random"]
    levels = {s: choices[(i + seed) % len(choices)] for i, s in enumerate(seats)}
    made = play_game(seed, levels)
    assert sum(n for level, n in made.items() if level != "random") > 0


def test_bots_handle_short_stacks_side_pots_and_all_ins() -> None:
    made: dict[str, int] = {}
    for seed in range(3):
        for level, n in play_game(100 + seed, {0: "hard", 1: "medium", 2: "easy", 3: "random",
                                               4: "random", 5: "hard"}, max_hands=60).items():
            made[level] = made.get(level, 0) + n
    assert all(made.get(level, 0) > 50 for level in LEVELS)


# ------------------------------------------------------------------ repeatable
def test_same_seed_same_decisions_for_every_level() -> None:
    levels = {0: "easy", 1: "medium", 2: "hard", 3: "hard"}

    def actions(seed: int) -> list[tuple[int, str, int | None]]:
        rng = random.Random(seed)
        game = Game(GameSettings(), dict.fromkeys(levels, False), rng=random.Random(1))
        pasts: dict[int, list[dict[str, Any]]] = {s: [] for s in levels}
        out = []
        for _ in range(12):
            hand = game.start_hand(seed=77 + game.hand_number)
            while not hand.finished:
                seat = hand.seat_to_act
                assert seat is not None
                a = decide(levels[seat], game_view(game, seat), pasts[seat], rng)
                game.act(a.seat, a.kind, a.amount)
                out.append((a.seat, a.kind.value, a.amount))
            for s in hand.seats:
                pasts[s].append(hand_view(hand, s))
        return out

    assert actions(5) == actions(5)


def test_randomness_comes_from_the_injected_generator() -> None:
    hand = make_hand({0: 2000, 1: 2000}, button=0, holes={0: "9c8c", 1: "AdKs"}, board="Kh7c2d")
    play(hand, "0 raise 50", "1 call", "1 check")
    view = {"hand": hand_view(hand, 0)}
    for level in LEVELS:
        seen = {decide(level, view, [], random.Random(s)) for s in range(40)}
        again = {decide(level, view, [], random.Random(s)) for s in range(40)}
        assert seen == again


# ------------------------------------------------------------------ the bots' simulation
def test_bot_simulation_agrees_with_engine_equity() -> None:
    rng = random.Random(3)
    for hole, board, opponents in (("AsKd", "", 1), ("7h7d", "Ah8h2c", 2), ("Qh2h", "AhKh3c9s", 1)):
        mine = parse_cards(hole)
        shared = parse_cards(board) if board else []
        ids = [c.id for c in shared]
        ours = deal([c.id for c in mine], ids, [uniform_range()] * opponents, 40_000, rng)
        theirs = equity(mine, shared, opponents, 40_000, rng)
        assert abs(ours.equity() - theirs) < 0.012
    # A range of one combo is always dealt that combo; a range of two, each about half the time.
    weights = uniform_range() * 0
    weights[COMBO_INDEX[51, 50]] = 1.0  # AsAh
    weights[COMBO_INDEX[47, 46]] = 1.0  # KsKh
    dealt = deal([0, 1], [], [weights], 2000, rng)
    assert set(dealt.picks[:, 0]) == {COMBO_INDEX[51, 50], COMBO_INDEX[47, 46]}
    assert 0.4 < (dealt.picks[:, 0] == COMBO_INDEX[51, 50]).mean() < 0.6
    assert dealt.equity() < 0.2  # deuces against aces or kings


def test_board_strength_orders_made_hands_and_counts_draws() -> None:
    board = tuple(c.id for c in parse_cards("Ah7h2c"))
    strength, blocked = board_strength(board)

    def of(text: str) -> float:
        a, b = (c.id for c in parse_cards(text))
        return float(strength[COMBO_INDEX[a, b]])

    assert blocked.sum() == 1326 - 1176  # combos holding a board card
    assert of("AsAd") > of("AsKd") > of("KsKd") > of("8s6d")
    assert of("Kh5h") > 0.6 > of("Ks5d")  # the flush draw counts as a fair hand
