"""R1-R4: the table, the cards, the chips and the direction of play."""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter

import pytest

import engine.cards as cards_module
from engine.actions import ActionError
from engine.blinds import STARTING_STACK
from engine.cards import (
    ALL_CARDS,
    RANKS,
    SUITS,
    deck_from_index,
    deck_from_text,
    new_deck,
    shuffled_deck,
)
from engine.game import Game, GameSettings
from engine.hand_settings import HandSettings
from engine.seats import GameError
from engine.views import game_view
from tests.engine.helpers import (
    a_game,
    deal,
    deal_order,
    make_hand,
    play,
    stacked_deck,
)


# ---------------------------------------------------------------- R1
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_r1_a_table_seats_two_to_six_players(count: int) -> None:
    game = Game(GameSettings(), {s: s == 0 for s in range(count)}, rng=random.Random(1))
    assert sorted(game.seats) == list(range(count))
    hand = game.start_hand(seed=1)
    assert len(hand.seats) == count


@pytest.mark.parametrize("count", [0, 1, 7, 8])
def test_r1_fewer_than_two_or_more_than_six_players_is_refused(count: int) -> None:
    with pytest.raises(GameError):
        Game(GameSettings(), {s: True for s in range(count)}, rng=random.Random(1))


def test_r1_seats_not_held_by_a_person_are_computer_players() -> None:
    game = Game(GameSettings(), {0: True, 2: False, 4: False}, rng=random.Random(1))
    assert {s: st.is_person for s, st in game.seats.items()} == {0: True, 2: False, 4: False}
    view = game_view(game, 0)
    assert [(s["seat"], s["is_person"]) for s in view["seats"]] == [
        (0, True), (2, False), (4, False),
    ]
    # A person leaving hands the seat, with its chips, to a computer player.
    game.set_person(0, False)
    assert game.seats[0].is_person is False
    assert game.seats[0].stack == STARTING_STACK


# ---------------------------------------------------------------- R2
def test_r2_one_deck_of_52_distinct_cards_no_jokers() -> None:
    deck = new_deck()
    assert len(deck) == 52 == len(set(deck)) == len(ALL_CARDS)
    assert {str(c)[0] for c in deck} == set(RANKS)
    assert {c.suit for c in deck} == set(SUITS)
    assert Counter(c.rank for c in deck) == {r: 4 for r in range(2, 15)}
    with pytest.raises(ValueError):
        deck_from_text([str(c) for c in deck[:51]])  # a deck missing a card is refused
    with pytest.raises(ValueError):
        deck_from_text([str(c) for c in deck[:51]] + ["Xx"])  # nothing but the 52 cards


def test_r2_aces_are_high_and_also_low_in_the_wheel() -> None:
    # The evaluator's own tests cover R25-R27; here only the ace's two roles.
    from engine.cards import parse_cards
    from engine.evaluator import evaluate

    wheel = evaluate(parse_cards("As 2d 3c 4h 5s"))
    six_high = evaluate(parse_cards("2c 3d 4s 5h 6c"))
    broadway = evaluate(parse_cards("As Kd Qc Jh Ts"))
    assert wheel.category == six_high.category == broadway.category
    assert wheel.value < six_high.value < broadway.value
    ace_high = evaluate(parse_cards("As 9d 7c 4h 2s"))
    king_high = evaluate(parse_cards("Ks Qd Jc 9h 7s"))
    assert ace_high.value > king_high.value


def test_r2_the_shuffle_uses_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    used = []
    real = secrets.randbits

    def spy(bits: int) -> int:
        used.append(bits)
        return real(bits)

    monkeypatch.setattr(secrets, "randbits", spy)
    deck = shuffled_deck()
    assert used and all(bits >= 226 for bits in used)  # enough entropy for all 52! orders
    assert sorted(deck, key=lambda c: c.id) == new_deck()


def test_r2_every_deck_order_has_its_own_number() -> None:
    from math import factorial

    assert deck_from_index(0) == new_deck()
    assert deck_from_index(factorial(52) - 1) == new_deck()[::-1]
    assert deck_from_index(1)[:3] == [new_deck()[1], new_deck()[0], new_deck()[2]]
    # Rejection keeps the draw uniform: accepted draws are a whole number of copies of 52!.
    assert cards_module._ACCEPT_BELOW % factorial(52) == 0
    assert cards_module._ACCEPT_BELOW > 2**cards_module._DRAW_BITS * 0.96


def test_r2_a_seed_gives_a_reproducible_deck_for_tests_only() -> None:
    assert shuffled_deck(7) == shuffled_deck(7)
    assert shuffled_deck(7) != shuffled_deck(8)


def test_r2_every_card_is_equally_likely_on_top() -> None:
    # 10,400 secure shuffles: 200 expected per card; 100..300 is more than seven deviations.
    tops = Counter(shuffled_deck()[0] for _ in range(10_400))
    assert set(tops) == set(ALL_CARDS)
    assert all(100 < n < 300 for n in tops.values())


def test_r2_the_deck_order_never_reaches_a_view_before_the_hand_is_over() -> None:
    game = Game(GameSettings(), {0: True, 1: False, 2: False}, rng=random.Random(3))
    hand = game.start_hand(seed=11)
    dealt_to_others = {str(c) for i, s in enumerate(hand.seats) if s != 0 for c in hand.hole[i]}
    undealt = {str(c) for c in hand.deck[2 * hand.n :]}
    for viewer in (0, None):
        text = json.dumps(game_view(game, viewer))
        assert not any(f'"{c}"' in text for c in undealt)
        assert not any(f'"{c}"' in text for c in dealt_to_others)


# ---------------------------------------------------------------- R3
def test_r3_every_player_starts_with_1000_chips() -> None:
    game = Game(GameSettings(), {0: True, 3: False, 5: False}, rng=random.Random(1))
    assert STARTING_STACK == 1000
    assert [st.stack for st in game.seats.values()] == [1000, 1000, 1000]
    hand = game.start_hand(seed=2)
    assert hand.settings.stacks == (1000, 1000, 1000)
    assert game.total_chips() == 3000


def test_r3_chips_are_whole_numbers() -> None:
    with pytest.raises(ValueError):
        HandSettings(1, (0, 1), (1000, 999.5), 0, 10, 20)  # type: ignore[arg-type]
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    with pytest.raises(ActionError) as err:
        hand.act(0, "raise", 40.5)
    assert err.value.code == "bad_amount"
    hand.act(0, "raise", 40.0)  # a whole number written as a float is still whole
    assert hand.bet[0] == 40 and isinstance(hand.bet[0], int)


# ---------------------------------------------------------------- R4
def test_r4_play_goes_left_in_increasing_seat_order_skipping_empty_seats() -> None:
    stacks = {1: 1000, 3: 1000, 4: 1000, 8: 1000}
    hand = make_hand(stacks, button=4)
    # Small blind 8, big blind 1 (wrapping), then 3 and 4 act.
    assert hand.seats[hand.small_blind_index] == 8
    assert hand.seats[hand.big_blind_index] == 1
    seen = []
    for _ in range(4):
        seen.append(hand.seat_to_act)
        assert hand.seat_to_act is not None
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(hand.seat_to_act, "check" if legal.can_check else "call")
    assert seen == [3, 4, 8, 1]
    assert deal_order(list(stacks), 4) == [8, 1, 3, 4]


def test_r4_players_out_of_the_game_are_skipped() -> None:
    game = a_game({0: True, 1: False, 2: False, 3: False}, button=3, stacks={1: 100})
    # Seat 1 (big blind) goes all in and loses to seat 2.
    hand = deal(game, {1: "7c2d", 2: "AsAd"}, "KhQh9s5c3d")
    assert hand.seats[hand.big_blind_index] == 1
    play(game, "2 raise 1000", "3 fold", "0 fold", "1 call")
    assert game.hand is hand and hand.finished
    assert game.seats[1].stack == 0
    next_hand = game.start_hand(seed=5)
    assert 1 not in next_hand.seats
    assert next_hand.seats == (0, 2, 3)
    # The button moved from 3 to 0; the small blind is 2, skipping the empty seat 1.
    assert next_hand.settings.button == 0
    assert next_hand.seats[next_hand.small_blind_index] == 2
    assert next_hand.seats[next_hand.big_blind_index] == 3
    assert next_hand.seat_to_act == 0


def test_r4_the_stacked_deck_helper_follows_the_engine_deal() -> None:
    # Guard for every other test: the helper and the engine agree on who gets which card.
    deck = stacked_deck([0, 2, 5], 2, {0: "AsKd", 2: "7h7c", 5: "2s3s"}, "QhJhTh9c8c")
    hand = make_hand({0: 500, 2: 500, 5: 500}, 2, holes={0: "AsKd", 2: "7h7c", 5: "2s3s"},
                     board="QhJhTh9c8c")
    assert list(hand.deck) == deck
    assert [" ".join(str(c) for c in h) for h in hand.hole] == ["As Kd", "7h 7c", "2s 3s"]
