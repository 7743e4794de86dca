"""R31-R35: eliminations, game length, the end of a game, final standings, and what this table
does not play."""

from __future__ import annotations

import random

import pytest

from engine.actions import ActionError, ActionKind
from engine.events import ACTION, DEAL_HOLE, POST_BIG_BLIND, POST_SMALL_BLIND
from engine.game import Game, GameSettings
from engine.seats import GameError
from engine.views import game_view
from tests.engine.helpers import a_game, deal, fold_to_big_blind, make_hand, next_hand_deck, play


def standings(game: Game) -> list[tuple[int, int, int]]:
    """(place, seat, chips) from the game's standings."""
    return [(s.place, s.seat, s.chips) for s in game.standings()]


def bust_two(stack_0: int, stack_1: int) -> Game:
    """Seats 0 and 1 go all in and lose to seat 2 in one hand; seat 3 folds and survives."""
    game = a_game({0: False, 1: False, 2: True, 3: True}, button=3)
    game.seats[0].stack = stack_0
    game.seats[1].stack = stack_1
    game.seats[2].stack = 2000
    game.seats[3].stack = 1200
    deal(game, {0: "7c2d", 1: "8c3d", 2: "AsAd", 3: "KsKd"}, "KhQh9s5c4d")
    play(game, "2 all_in", "3 fold", "0 call", "1 call")
    assert game.seats[0].stack == game.seats[1].stack == 0
    return game


# ---------------------------------------------------------------- R31
def test_r31_a_player_without_chips_leaves_the_table() -> None:
    game = bust_two(300, 500)
    view = game_view(game, 2)
    assert [s["out"] for s in view["seats"]] == [True, True, False, False]
    nxt = game.start_hand(seed=1)
    assert nxt.seats == (2, 3)
    assert (game.seats[0].out_hand, game.seats[1].out_hand) == (1, 1)


def test_r31_out_in_the_same_hand_the_smaller_starting_stack_finishes_lower() -> None:
    game = bust_two(300, 500)
    game.end_now()
    assert standings(game) == [(1, 2, 2800), (2, 3, 1200), (3, 1, 0), (4, 0, 0)]
    game = bust_two(500, 300)
    game.end_now()
    assert standings(game) == [(1, 2, 2800), (2, 3, 1200), (3, 0, 0), (4, 1, 0)]


def test_r31_out_in_the_same_hand_with_equal_starting_stacks_share_the_place() -> None:
    game = bust_two(400, 400)
    game.end_now()
    assert standings(game) == [(1, 2, 2800), (2, 3, 1200), (3, 0, 0), (3, 1, 0)]


# ---------------------------------------------------------------- R32
@pytest.mark.parametrize("length", [30, 60])
def test_r32_a_game_of_n_hands_ends_after_exactly_n_hands(length: int) -> None:
    game = Game(GameSettings(max_hands=length), {0: True, 1: False, 2: False},
                rng=random.Random(4))
    for _ in range(length - 1):
        fold_to_big_blind(game)
        assert not game.finished
    fold_to_big_blind(game)
    assert game.finished and game.hand_number == length
    with pytest.raises(GameError):
        game.start_hand(seed=1)
    chips = sorted((st.stack for st in game.seats.values()), reverse=True)
    assert [s.chips for s in game.standings()] == chips
    assert game.standings()[0].place == 1


def test_r32_only_30_60_or_until_one_player_holds_every_chip() -> None:
    assert GameSettings().max_hands is None
    for bad in (0, 10, 45, 100):
        with pytest.raises(GameError):
            GameSettings(max_hands=bad)


def test_r32_the_biggest_stack_wins_and_equal_stacks_share_the_place() -> None:
    # Heads-up, everyone folding to the big blind: after 30 hands each player has won the
    # same blinds 15 times, so both end level on 1,000 and share first place.
    game = Game(GameSettings(max_hands=30), {0: True, 1: False}, rng=random.Random(4))
    for _ in range(30):
        fold_to_big_blind(game)
    assert game.finished
    assert standings(game) == [(1, 0, 1000), (1, 1, 1000)]
    game = Game(GameSettings(max_hands=30), {0: True, 1: False, 2: False, 3: False},
                rng=random.Random(4))
    for seat, stack in {0: 900, 1: 1300, 2: 900, 3: 900}.items():
        game.seats[seat].stack = stack
    game.end_now()
    assert standings(game) == [(1, 1, 1300), (2, 0, 900), (2, 2, 900), (2, 3, 900)]


def test_r32_without_a_length_the_game_runs_until_one_player_holds_every_chip() -> None:
    game = Game(GameSettings(blind_every=5), {0: True, 1: False, 2: False},
                rng=random.Random(8))
    rng = random.Random(8)
    while not game.finished:
        hand = game.start_hand(seed=rng.randrange(10**9))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.bet_or_raise and rng.random() < 0.3:
                game.act(legal.seat, "all_in")
            else:
                game.act(legal.seat, "check" if legal.can_check else "call")
        assert game.total_chips() == 3000
        if game.seats[0].stack == 0:  # the only person is out: R33 ends it earlier
            break
    assert game.finished
    if game.seats[0].stack > 0:
        assert game.seats[0].stack == 3000
        assert len(game.players_with_chips) == 1
    assert game.standings()[0].chips == max(st.stack for st in game.seats.values())


# ---------------------------------------------------------------- R33
def test_r33_the_game_ends_when_every_person_is_out() -> None:
    game = a_game({0: True, 1: False, 2: False}, button=0, stacks={0: 300})
    deal(game, {0: "7c2d", 1: "AsAd", 2: "KsKd"}, "KhQh9s5c4d")
    play(game, "0 all_in", "1 call", "2 fold")
    assert game.finished
    assert len(game.players_with_chips) == 2  # computers still have chips, but nobody to watch
    with pytest.raises(GameError):
        game.start_hand(seed=1)
    assert standings(game) == [(1, 1, 1320), (2, 2, 980), (3, 0, 0)]


def test_r33_a_computer_player_going_out_does_not_end_the_game() -> None:
    game = a_game({0: False, 1: True, 2: True}, button=0, stacks={0: 300})
    deal(game, {0: "7c2d", 1: "AsAd", 2: "KsKd"}, "KhQh9s5c4d")
    play(game, "0 all_in", "1 call", "2 fold")
    assert game.seats[0].stack == 0 and not game.finished
    assert game.start_hand(seed=1).seats == (1, 2)


def test_r33_the_game_ends_when_the_last_person_of_several_is_out() -> None:
    game = a_game({0: True, 1: True, 2: False, 3: False}, button=3, stacks={0: 100})
    deal(game, {0: "7c2d", 2: "AsAd"}, "KhQh9s5c4d")
    play(game, "2 all_in", "3 fold", "0 call", "1 fold")
    assert game.seats[0].stack == 0 and not game.finished  # seat 1 is a person still in


# ---------------------------------------------------------------- R34
def test_r34_standings_are_players_still_in_by_chips_then_the_last_out_first() -> None:
    game = a_game({0: True, 1: True, 2: True, 3: True}, button=3)
    for seat, stack in {0: 100, 1: 1500, 2: 1000, 3: 1000}.items():
        game.seats[seat].stack = stack
    # Hand 1: seat 0 (small blind, 100 chips) goes out to seat 2.
    game.start_hand(deck=next_hand_deck(game, {0: "7c2d", 2: "AsAd"}, "KhQh9s5c4d"))
    play(game, "2 raise 100", "3 fold", "0 call", "1 fold")
    assert game.seats[0].stack == 0
    # Hand 2 (button 1, blinds 2 and 3): seat 3 goes all in and loses to seat 1.
    game.start_hand(deck=next_hand_deck(game, {1: "AsAd", 3: "7c2d"}, "KhQh9s5c4d"))
    assert game.hand is not None and game.hand.settings.button == 1
    play(game, "1 all_in", "2 fold", "3 call")
    assert game.seats[3].stack == 0
    game.end_now()
    chips = {s: st.stack for s, st in game.seats.items()}
    assert chips[1] > chips[2] > 0
    assert [(s.place, s.seat, s.out_hand) for s in game.standings()] == [
        (1, 1, None), (2, 2, None), (3, 3, 2), (4, 0, 1),
    ]
    assert game_view(game, 1)["standings"] == [s.to_dict() for s in game.standings()]


# ---------------------------------------------------------------- R35
def test_r35_no_antes_and_no_straddles() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0)
    posts = [e for e in hand.events if e.kind not in (DEAL_HOLE,)]
    assert [(e.kind, e.seat, e.amount) for e in posts] == [
        (POST_SMALL_BLIND, 1, 10), (POST_BIG_BLIND, 2, 20),
    ]
    assert hand.stack == [1000, 990, 980, 1000]
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call) == (3, 20)  # nobody straddled
    for kind in ("straddle", "ante", "post", "show", "rebuy"):
        with pytest.raises(ActionError) as err:
            hand.act(3, kind, 40)
        assert err.value.code == "unknown_action"
    assert {k.value for k in ActionKind} == {"fold", "check", "call", "bet", "raise", "all_in"}


def test_r35_no_limit_bets_far_above_the_pot_and_any_size_in_between() -> None:
    hand = make_hand({0: 5000, 1: 5000, 2: 5000}, button=0)
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (40, 5000)
    play(hand, "0 raise 4321")  # 144 times the 30 in the pot, an odd size: no pot or fixed limit
    assert [e.to for e in hand.events if e.kind == ACTION] == [4321]
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (5000, 5000)
    play(hand, "1 raise 5000")  # all in, less than a full raise
    assert hand.bet[1] == 5000


def test_r35_no_rebuys_a_player_who_went_out_stays_out() -> None:
    game = a_game({0: False, 1: True, 2: True}, button=0, stacks={0: 300})
    deal(game, {0: "7c2d", 1: "AsAd", 2: "KsKd"}, "KhQh9s5c4d")
    play(game, "0 all_in", "1 call", "2 fold")
    for _ in range(12):
        hand = fold_to_big_blind(game)
        assert 0 not in hand.seats
    assert game.seats[0].stack == 0
    assert not [name for name in dir(Game) if "buy" in name or "add_chips" in name]


def test_r35_the_button_is_never_dead() -> None:
    # R7 proves where the button goes; here: in a whole game it is always on a live player.
    game = Game(GameSettings(blind_every=5), {0: True, 1: False, 2: False, 3: False},
                rng=random.Random(3))
    rng = random.Random(3)
    while not game.finished:
        hand = game.start_hand(seed=rng.randrange(10**9))
        assert hand.settings.button in hand.seats
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            game.act(legal.seat, "all_in" if legal.bet_or_raise and rng.random() < 0.2 else
                     ("check" if legal.can_check else "call"))
