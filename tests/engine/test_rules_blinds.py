"""R5-R10: the button, the blinds (short ones included) and the blind levels."""

from __future__ import annotations

import random
import secrets
from collections import Counter

import pytest

from engine.blinds import BLIND_LEVELS, level_for_hand
from engine.events import POST_BIG_BLIND, POST_SMALL_BLIND
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.seats import GameError
from tests.engine.helpers import (
    a_game,
    check_down,
    deal,
    events_of,
    fold_to_big_blind,
    make_hand,
    play,
)


def blind_seats(hand: Hand) -> tuple[int, int, int]:
    """(button, small blind seat, big blind seat) from the posting events."""
    (sb,) = events_of(hand, POST_SMALL_BLIND)
    (bb,) = events_of(hand, POST_BIG_BLIND)
    return hand.settings.button, sb.seat, bb.seat


# ---------------------------------------------------------------- R5
def test_r5_the_first_button_is_drawn_at_random_among_the_seated_players() -> None:
    seats = {0: True, 2: False, 3: False, 5: False}
    drawn = Counter(
        Game(GameSettings(), seats, rng=random.Random(seed)).button for seed in range(400)
    )
    assert set(drawn) == set(seats)
    assert all(60 < n < 140 for n in drawn.values())  # about 100 each
    game = Game(GameSettings(), seats, rng=random.Random(9))
    first = game.button
    assert game.start_hand(seed=1).settings.button == first


def test_r5_the_draw_uses_a_secure_source_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    class Spy:
        def choice(self, options: list[int]) -> int:
            calls.append(list(options))
            return options[-1]

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    game = Game(GameSettings(), {1: True, 4: False, 5: False})
    assert calls == [[1, 4, 5]]
    assert game.button == 5


# ---------------------------------------------------------------- R6
def test_r6_the_two_players_left_of_the_button_post_the_blinds() -> None:
    hand = make_hand({0: 1000, 2: 1000, 4: 1000, 5: 1000}, button=4)
    assert blind_seats(hand) == (4, 5, 0)
    sb, bb = events_of(hand, POST_SMALL_BLIND)[0], events_of(hand, POST_BIG_BLIND)[0]
    assert (sb.amount, bb.amount) == (10, 20)
    assert hand.stack == [980, 1000, 1000, 990]
    assert hand.seat_to_act == 2


def test_r6_heads_up_the_button_posts_the_small_blind() -> None:
    hand = make_hand({1: 1000, 3: 1000}, button=3)
    assert blind_seats(hand) == (3, 3, 1)
    hand = make_hand({1: 1000, 3: 1000}, button=1)
    assert blind_seats(hand) == (1, 1, 3)


def test_r6_the_blinds_skip_players_without_chips() -> None:
    game = a_game({0: True, 1: False, 2: False, 3: False}, button=3)
    game.seats[0].stack = 0  # out of the game, left of the button
    game.seats[0].out_hand = 0
    hand = game.start_hand(seed=1)
    assert blind_seats(hand) == (3, 1, 2)


# ---------------------------------------------------------------- R7
def test_r7_the_button_moves_one_player_left_every_hand() -> None:
    game = a_game({0: True, 2: False, 3: False, 5: False}, button=3)
    buttons = [fold_to_big_blind(game).settings.button for _ in range(6)]
    assert buttons == [3, 5, 0, 2, 3, 5]


def test_r7_no_dead_button_the_button_skips_a_player_who_went_out() -> None:
    # Hand 1: button 0, small blind 1 (goes out), big blind 2. A dead-button rule would leave
    # the button on the empty seat 1; here it moves to seat 2, the next player with chips.
    game = a_game({0: True, 1: False, 2: False, 3: False}, button=0, stacks={1: 50})
    hand = deal(game, {1: "7c2d", 3: "AsAd"}, "KhQh9s5c3d")
    assert blind_seats(hand) == (0, 1, 2)
    play(game, "3 raise 100", "0 fold", "1 call", "2 fold")
    assert game.seats[1].stack == 0
    nxt = game.start_hand(seed=2)
    assert nxt.seats == (0, 2, 3)
    assert blind_seats(nxt) == (2, 3, 0)


def test_r7_the_big_blind_going_out_does_not_leave_a_dead_small_blind() -> None:
    game = a_game({0: True, 1: False, 2: False, 3: False}, button=0, stacks={2: 20})
    hand = deal(game, {2: "7c2d", 3: "AsAd"}, "KhQh9s5c3d")
    assert hand.stack[hand.big_blind_index] == 0  # all in with the big blind
    play(game, "3 call", "0 fold", "1 fold")
    assert game.seats[2].stack == 0
    nxt = game.start_hand(seed=2)
    # Button 1, small blind 3 (skipping the empty seat 2), big blind 0: all live.
    assert blind_seats(nxt) == (1, 3, 0)


# ---------------------------------------------------------------- R8
def test_r8_going_heads_up_nobody_posts_the_big_blind_twice_in_a_row() -> None:
    # Hand 1: button 0 (goes out), small blind 1, big blind 2. Moving the button one seat would
    # put it on 1 and make 2 post the big blind again; it moves one seat further, to 2.
    game = a_game({0: False, 1: False, 2: True}, button=0, stacks={0: 200})
    hand = deal(game, {0: "7c2d", 2: "AsAd"}, "KhQh9s5c3d")
    assert blind_seats(hand) == (0, 1, 2)
    play(game, "0 all_in", "1 fold", "2 call")
    assert game.seats[0].stack == 0
    nxt = game.start_hand(seed=3)
    assert blind_seats(nxt) == (2, 2, 1)
    # From then on the button simply alternates and the big blind with it.
    while not nxt.finished:
        game.act(nxt.seat_to_act or 0, "fold")
    assert blind_seats(game.start_hand(seed=4)) == (1, 1, 2)


def test_r8_no_extra_move_when_the_big_blind_already_changes_hands() -> None:
    # Hand 1: button 0, small blind 1 (goes out), big blind 2. The button moves to 2, which now
    # posts the small blind; seat 0 posts the big blind, so no extra move is needed.
    game = a_game({0: False, 1: False, 2: True}, button=0, stacks={1: 10})
    deal(game, {1: "7c2d", 2: "AsAd"}, "KhQh9s5c3d")
    play(game, "0 fold")  # the all-in small blind is then called for what it posted (R17)
    assert game.seats[1].stack == 0
    assert blind_seats(game.start_hand(seed=3)) == (2, 2, 0)


def test_r8_heads_up_from_the_start_the_button_alternates() -> None:
    game = a_game({0: True, 4: False}, button=4)
    seen = [blind_seats(fold_to_big_blind(game)) for _ in range(4)]
    assert seen == [(4, 4, 0), (0, 0, 4), (4, 4, 0), (0, 0, 4)]


# ---------------------------------------------------------------- R9
def test_r9_a_short_small_blind_posts_everything_and_is_all_in() -> None:
    hand = make_hand({0: 1000, 1: 6, 2: 1000}, button=0)
    (sb,) = events_of(hand, POST_SMALL_BLIND)
    assert (sb.seat, sb.amount, sb.all_in) == (1, 6, True)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.min_to) == (0, 20, 40)
    play(hand, "0 call")
    # The all-in small blind does not act; the big blind keeps the option.
    assert hand.seat_to_act == 2
    play(hand, "2 check")
    assert hand.street == 1
    assert hand.total == [20, 6, 20]


def test_r9_a_short_big_blind_does_not_lower_the_price() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 15}, button=0,
                     holes={0: "KsKd", 1: "QsQd", 2: "AsAd"}, board="2c7d9hJc3s")
    (bb,) = events_of(hand, POST_BIG_BLIND)
    assert (bb.seat, bb.amount, bb.all_in) == (2, 15, True)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.can_check, legal.min_to) == (0, 20, False, 40)
    play(hand, "0 call")
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call) == (1, 10)
    play(hand, "1 call")
    assert hand.street == 1  # the all-in big blind has nothing to decide
    check_down(hand)
    assert [(p.amount, [hand.seats[i] for i in p.eligible]) for p in hand.pots] == [
        (45, [0, 1, 2]),
        (10, [0, 1]),
    ]
    assert hand.final_stacks == {0: 990, 1: 980, 2: 45}


def test_r9_a_short_big_blind_is_called_for_what_it_posted_when_nobody_else_can_bet() -> None:
    # R17 then decides: with only the all-in big blind left to face, a call matches the 15
    # actually put in.
    hand = make_hand({0: 1000, 1: 1000, 2: 15}, button=0,
                     holes={0: "KsKd", 1: "QsQd", 2: "AsAd"}, board="2c7d9hJc3s")
    play(hand, "0 fold")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert (legal.call, legal.can_check, legal.bet_or_raise) == (5, False, None)
    play(hand, "1 call")
    assert hand.finished
    assert hand.total == [0, 15, 15]
    assert hand.final_stacks == {0: 1000, 1: 985, 2: 30}


def test_r9_heads_up_a_short_big_blind_gets_the_difference_back_to_the_button() -> None:
    hand = make_hand({0: 1000, 1: 5}, button=0, holes={0: "KsKd", 1: "AsAd"},
                     board="2c7d9hJc3s")
    assert hand.finished  # nobody can bet and nothing is owed: no decision at all
    assert hand.total == [5, 5]
    assert hand.final_stacks == {0: 995, 1: 10}


# ---------------------------------------------------------------- R10
def test_r10_the_blind_levels_are_exactly_the_rule_book_list() -> None:
    assert BLIND_LEVELS == (
        (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300),
        (200, 400), (300, 600), (400, 800), (500, 1000), (750, 1500), (1000, 2000),
        (1500, 3000), (2000, 4000), (3000, 6000),
    )


@pytest.mark.parametrize("every", [5, 10, 20])
def test_r10_the_level_rises_every_n_hands_and_the_last_level_stays(every: int) -> None:
    levels = [level_for_hand(h, every) for h in range(1, 20 * every + 1)]
    expected = [min(k // every, 15) for k in range(20 * every)]
    assert levels == expected
    assert level_for_hand(every, every) == 0
    assert level_for_hand(every + 1, every) == 1
    assert level_for_hand(10_000, every) == 15


def test_r10_the_default_is_ten_hands_and_other_speeds_are_refused() -> None:
    assert GameSettings().blind_every == 10
    for bad in (0, 1, 7, 15, 30):
        with pytest.raises(GameError):
            GameSettings(blind_every=bad)


def test_r10_a_game_posts_each_level_for_n_hands_then_stays_at_the_last() -> None:
    game = Game(GameSettings(blind_every=5, starting_stack=10**7), {0: True, 1: False, 2: False},
                rng=random.Random(2))
    posted = []
    for _ in range(16 * 5 + 7):
        hand = fold_to_big_blind(game)
        posted.append((hand.settings.small_blind, hand.settings.big_blind))
        assert events_of(hand, POST_BIG_BLIND)[0].amount == hand.settings.big_blind
    assert posted == [BLIND_LEVELS[min(k // 5, 15)] for k in range(87)]
    assert posted[-12:] == [(3000, 6000)] * 12
    assert game.hands_to_next_level() is None


def test_r10_hands_to_the_next_level_counts_down() -> None:
    game = Game(GameSettings(blind_every=5), {0: True, 1: False}, rng=random.Random(2))
    left = []
    for _ in range(6):
        fold_to_big_blind(game)
        left.append((game.level, game.hands_to_next_level()))
    assert left == [(0, 4), (0, 3), (0, 2), (0, 1), (0, 0), (1, 4)]
