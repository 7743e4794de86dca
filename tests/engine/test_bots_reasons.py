"""Computer players who say why (issue 27): ``decide_explained`` takes ``decide``'s action for the
same generator, with a reason drawn from the bot's own decision."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.bots import LEVELS, decide, decide_explained
from engine.bots.base import read_spot
from engine.bots.reasons import MOTIVES, SITUATIONS, STRENGTHS, Reason, strength_of
from engine.cards import parse_card
from engine.views import hand_view
from tests.engine.bot_spots import bot_game
from tests.engine.helpers import make_hand, play


def spots(seed: int, levels: dict[int, str], hands: int) -> list[tuple[str, Any, list[Any], int]]:
    """Every decision of a game played by bots: (level, view, past, seed of its generator)."""
    out = []

    def choose(
        seat: int, level: str, view: dict[str, Any], past: list[dict[str, Any]],
        rng: random.Random,
    ) -> Action:
        bot_seed = rng.randrange(2**32)
        out.append((level, view, list(past), bot_seed))
        return decide(level, view, past, random.Random(bot_seed))

    bot_game(seed, levels, hands, choose)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_decide_and_decide_explained_agree_over_many_seeded_spots(seed: int) -> None:
    levels = {0: "hard", 1: "medium", 2: "easy", 3: "hard", 4: "medium"}
    found = spots(40 + seed, levels, hands=30)
    assert len(found) > 100
    reasons: list[Reason] = []
    for level, view, past, bot_seed in found:
        plain = decide(level, view, past, random.Random(bot_seed))
        explained, reason = decide_explained(level, view, past, random.Random(bot_seed))
        assert explained == plain, (level, bot_seed)
        assert reason.seat == plain.seat and reason.action == plain.kind.value
        reasons.append(reason)
    motives = {r.motive for r in reasons}
    assert motives <= set(MOTIVES) and len(motives) >= 6
    assert {r.situation for r in reasons} <= set(SITUATIONS)
    assert {r.strength for r in reasons} <= set(STRENGTHS)


def test_the_generator_is_left_where_decide_leaves_it() -> None:
    levels = {0: "hard", 1: "medium", 2: "easy"}
    for level, view, past, bot_seed in spots(7, levels, hands=4)[:40]:
        a, b = random.Random(bot_seed), random.Random(bot_seed)
        decide(level, view, past, a)
        decide_explained(level, view, past, b)
        assert a.random() == b.random()


def test_a_hard_player_quotes_its_read_of_the_player_it_bets_into() -> None:
    levels = {0: "hard", 1: "hard", 2: "medium"}
    found = spots(3, levels, hands=16)
    quoted = []
    for level, view, past, bot_seed in found:
        if level != "hard" or view["hand"]["street"] == "preflop":
            continue
        action, reason = decide_explained(level, view, past, random.Random(bot_seed))
        if action.kind in (ActionKind.BET, ActionKind.ALL_IN) and reason.to_call == 0:
            quoted += [r for r in reason.reads if r.stat == "fold_to_bet"]
            assert reason.fold_chance is not None and 0.0 <= reason.fold_chance <= 1.0
    assert quoted, "no bet after the flop quoted how often the player folds to bets"
    for read in quoted:
        assert read.hands > 0 and 0.0 < read.rate < 1.0


def test_a_call_gives_the_price_and_the_bots_share_of_the_pot() -> None:
    hand = make_hand({0: 2000, 1: 2000}, button=0, holes={0: "AhKh", 1: "7c2d"}, board="Kd9h4c")
    play(hand, "0 raise 60", "1 call", "1 bet 100")
    view = {"hand": hand_view(hand, 0)}
    _, reason = decide_explained("medium", view, [], random.Random(3))
    assert reason.situation in ("call", "raise")
    assert reason.to_call == 100 and reason.pot == 220
    assert reason.price == pytest.approx(100 / 320)
    assert reason.equity is not None and reason.equity > 0.6  # top pair, top kicker
    assert reason.strength in ("very_strong", "strong")
    assert reason.position == "in_position"
    assert reason.motive in ("price_call", "value", "whim")


def test_the_public_part_holds_no_card_no_motive_no_strength_and_no_equity() -> None:
    hand = make_hand({0: 2000, 1: 2000}, button=0, holes={0: "AhKh", 1: "7c2d"}, board="Kd9h4c")
    play(hand, "0 raise 60", "1 call", "1 check")
    view = {"hand": hand_view(hand, 0)}
    _, reason = decide_explained("hard", view, [], random.Random(5))
    public = reason.public()
    text = json.dumps(public)
    assert "Ah" not in text and "Kh" not in text
    assert not {"motive", "strength", "equity", "options"} & set(public)
    full = reason.as_dict()
    assert full["equity"] == round(reason.equity or 0, 3) and full["motive"] == reason.motive


def test_the_public_part_is_the_same_whatever_the_bots_cards_when_it_checks() -> None:
    """Bots that check the same spot with very different hands say the same in public."""
    said: dict[str, dict[str, Any]] = {}
    strengths = set()
    for holes in ("6h6c", "QhTh", "Ts5s", "3s2c"):
        hand = make_hand({0: 2000, 1: 2000, 2: 2000}, button=0,
                         holes={0: "QcJc", 1: holes, 2: "8c7c"}, board="Kd9h4c")
        play(hand, "0 call", "1 call", "2 check")
        view = {"hand": hand_view(hand, 1)}
        assert read_spot(view).to_call == 0
        for seed in range(40):
            action, reason = decide_explained("medium", view, [], random.Random(seed))
            if action.kind is ActionKind.CHECK:
                said[holes] = reason.public()
                strengths.add(reason.strength)
                break
    assert len(said) >= 2 and len(strengths) >= 2
    first = next(iter(said.values()))
    assert all(public == first for public in said.values())


def test_strength_words_come_from_the_cards_and_the_board() -> None:
    def ids(text: str) -> tuple[int, ...]:
        return tuple(parse_card(text[i:i + 2]).id for i in range(0, len(text), 2))

    aces = ids("AhAs")
    assert strength_of((aces[0], aces[1]), ()) == "very_strong"
    low = ids("7c2d")
    assert strength_of((low[0], low[1]), ()) == "weak"
    set_ = ids("9c9d")
    assert strength_of((set_[0], set_[1]), ids("9hKd4c")) == "very_strong"
    assert strength_of((low[0], low[1]), ids("AhKdQs")) == "weak"


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_explains_a_preflop_open(level: str) -> None:
    hand = make_hand({0: 2000, 1: 2000, 2: 2000}, button=0, holes={0: "AhAd", 1: "7c2d",
                                                                   2: "8s3c"})
    view = {"hand": hand_view(hand, 0)}
    action, reason = decide_explained(level, view, [], random.Random(1))
    assert action.kind in (ActionKind.RAISE, ActionKind.ALL_IN)
    assert reason.situation == "open" and reason.position == "button"
    assert reason.motive == "premium" and reason.strength == "very_strong"
    assert reason.behind == 2
