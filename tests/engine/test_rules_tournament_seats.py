"""A tournament's table in the engine: players taken in and let go between hands (README T7),
the newcomer's seat (T4) and the tournament's blind level (T8)."""

from __future__ import annotations

import json
import random

import pytest

from engine.blinds import BLIND_LEVELS
from engine.game import Game, GameSettings
from engine.history import hand_record, replay
from engine.seats import ARRIVE, DEPART, GameError
from engine.tournament import Player, TableState, worst_position

TABLE = GameSettings(stand_alone=False)


Played = list[tuple[int, str, int | None]]


def play_hand(game: Game, rng: random.Random, deck_seed: int | None = None) -> Played:
    """Deal (a seeded deck) and play one hand with random legal actions; the actions taken."""
    game.start_hand(seed=rng.getrandbits(32) if deck_seed is None else deck_seed)
    taken: list[tuple[int, str, int | None]] = []
    while game.hand_running:
        assert game.hand is not None
        legal = game.hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        action: tuple[int, str, int | None]
        if legal.bet_or_raise is not None and legal.min_to is not None and roll < 0.25:
            action = (legal.seat, legal.bet_or_raise, rng.randint(legal.min_to,
                                                                    legal.max_to or legal.min_to))
        elif not legal.can_check and roll < 0.45:
            action = (legal.seat, "fold", None)
        elif roll < 0.5 and legal.bet_or_raise is not None:
            action = (legal.seat, "all_in", None)
        else:
            action = (legal.seat, "check" if legal.can_check else "call", None)
        game.act(*action)
        taken.append(action)
    return taken


def test_t7_a_player_arrives_between_hands_with_their_chips_and_is_dealt_in_next() -> None:
    game = Game(TABLE, {0: True, 1: True, 2: False}, rng=random.Random(3))
    play_hand(game, random.Random(1))
    change = game.arrive(4, 2500)
    assert (change.kind, change.seat, change.stack, change.after_hand) == (ARRIVE, 4, 2500, 1)
    assert game.total_chips() == game.chips_expected() == 3000 + 2500
    game.start_hand(seed=5)
    assert game.hand is not None and 4 in game.hand.seats
    assert game.hand.settings.stacks[game.hand.seats.index(4)] == 2500


def test_t7_a_departing_player_takes_their_chips_and_the_total_follows() -> None:
    game = Game(TABLE, {s: True for s in range(4)}, rng=random.Random(2))
    play_hand(game, random.Random(2))
    leaving = max(game.players_with_chips, key=lambda s: game.seats[s].stack)
    stack = game.seats[leaving].stack
    change = game.depart(leaving)
    assert (change.kind, change.stack) == (DEPART, stack)
    assert leaving not in game.seats
    assert game.total_chips() == game.chips_expected() == 4000 - stack
    if game.can_deal:
        game.start_hand(seed=9)
        assert game.hand is not None and leaving not in game.hand.seats


def test_t7_nobody_arrives_or_leaves_in_the_middle_of_a_hand() -> None:
    game = Game(TABLE, {0: True, 1: True, 2: True}, rng=random.Random(1))
    game.start_hand(seed=1)
    assert not game.can_arrive(3, 1000) and not game.can_depart(0)
    with pytest.raises(GameError, match="between hands"):
        game.arrive(3, 1000)
    with pytest.raises(GameError, match="between hands"):
        game.depart(0)
    assert game.seat_changes == []


def test_t7_a_seat_must_be_free_and_the_chips_whole() -> None:
    game = Game(TABLE, {s: True for s in range(6)}, rng=random.Random(1))
    with pytest.raises(GameError, match="taken"):
        game.arrive(2, 1000)
    game.depart(5)
    for seat, stack in ((6, 1000), (5, 0), (5, -3)):
        with pytest.raises(GameError):
            game.arrive(seat, stack)
    with pytest.raises(GameError, match="nobody"):
        game.depart(5)
    game.arrive(5, 1000)
    with pytest.raises(GameError):
        game.arrive(5, 1000)


def test_t7_a_tournament_table_never_ends_by_itself() -> None:
    game = Game(TABLE, {0: True, 1: False}, rng=random.Random(4))
    rng = random.Random(4)
    while len(game.players_with_chips) == 2:
        play_hand(game, rng)
    assert not game.finished and not game.can_deal  # one player left: it waits for more
    (loser,) = [s for s in game.seats if game.seats[s].stack == 0]
    game.depart(loser)
    game.arrive(3, 1000)
    assert game.can_deal
    game.start_hand(seed=1)
    game.cancel_hand()
    game.end_now()
    assert game.finished


def test_t7_a_game_is_rebuilt_from_its_first_seats_its_hands_and_its_seat_changes() -> None:
    """The log is replayable: the first seats, each hand's deck and actions, and the seat
    changes at the moments they happened rebuild the very same game, chips conserved
    after every step."""
    for seed in range(25):
        rng = random.Random(seed)
        first = {s: s % 2 == 0 for s in range(2 + seed % 4)}
        game = Game(TABLE, first, rng=random.Random(seed))
        hands: list[tuple[int, Played]] = []
        for _ in range(12):
            for seat in [s for s in game.seats if game.seats[s].stack == 0]:
                game.depart(seat)  # out: the seat is freed
            if rng.random() < 0.4 and len(game.seats) > 2:
                game.depart(rng.choice(sorted(game.seats)))
            free = [s for s in range(6) if s not in game.seats]
            if free and rng.random() < 0.5:
                stack = rng.randint(1, 3000)
                game.arrive(rng.choice(free), stack, rng.random() < 0.5)
            assert game.total_chips() == game.chips_expected()
            if not game.can_deal:
                break
            deck_seed = rng.getrandbits(32)
            hands.append((deck_seed, play_hand(game, rng, deck_seed)))
            assert game.total_chips() == game.chips_expected()
        rebuilt = Game(TABLE, first, rng=random.Random(seed))
        changes = list(game.seat_changes)
        for number, (deck_seed, actions) in enumerate(hands, start=1):
            for change in [c for c in changes if c.after_hand == number - 1]:
                rebuilt.apply_seat_change(change)
            rebuilt.start_hand(seed=deck_seed)
            for action in actions:
                rebuilt.act(*action)
        for change in [c for c in changes if c.after_hand == len(hands)]:
            rebuilt.apply_seat_change(change)
        assert rebuilt.to_dict() == game.to_dict()
        assert json.loads(json.dumps(game.to_dict())) == Game.from_dict(game.to_dict()).to_dict()


def test_t7_a_hands_record_replays_unchanged_after_seat_changes() -> None:
    rng = random.Random(11)
    game = Game(TABLE, {0: True, 2: True, 4: False}, rng=random.Random(11))
    records = []
    for _ in range(6):
        for seat in [s for s in game.seats if game.seats[s].stack == 0]:
            game.depart(seat)
        free = [s for s in range(6) if s not in game.seats]
        if free:
            game.arrive(free[0], 700)
        play_hand(game, rng)
        assert game.hand is not None
        records.append(hand_record(game.hand))
        rebuilt = replay(json.loads(json.dumps(records[-1])))
        assert [e.to_dict() for e in rebuilt.events] == [e.to_dict() for e in game.hand.events]
        assert rebuilt.final_stacks == game.hand.final_stacks
        assert set(records[-1]) == {"version", "settings", "deck", "actions", "salt_key"}


def test_t7_a_game_saved_before_seat_changes_loads_as_before() -> None:
    game = Game(GameSettings(), {0: True, 1: False, 2: False}, rng=random.Random(5))
    play_hand(game, random.Random(5))
    state = game.to_dict()
    assert "seat_changes" not in state and "shared_level" not in state
    assert "stand_alone" not in state["settings"]
    loaded = Game.from_dict(json.loads(json.dumps(state)))
    assert loaded.to_dict() == state and loaded.seat_changes == []
    assert loaded.chips_expected() == 3000 == loaded.total_chips()


def test_t7_a_newcomer_never_sees_the_cards_the_seats_last_player_held() -> None:
    game = Game(TABLE, {0: True, 1: True, 2: True}, rng=random.Random(6))
    play_hand(game, random.Random(6))
    assert game.hand is not None
    game.depart(1)
    game.arrive(1, 1000)
    assert game.hand is None  # the finished hand is put away, not shown to seat 1's newcomer


def test_t4_a_newcomer_at_the_worst_position_posts_the_big_blind_soonest() -> None:
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        seats = sorted(rng.sample(range(6), rng.randint(2, 5)))
        game = Game(TABLE, {s: True for s in seats}, rng=random.Random(seed))
        for _ in range(rng.randint(0, 3)):
            if game.can_deal:
                play_hand(game, rng)
        for seat in [s for s in game.seats if game.seats[s].stack == 0]:
            game.depart(seat)
        if len(game.players_with_chips) < 2:
            continue
        blinds = game.next_blinds()
        assert blinds is not None
        _button, small, big = blinds
        table = TableState(
            1, {s: Player(str(s), game.seats[s].stack) for s in game.seats},
            next_small_blind=small, next_big_blind=big, free_order=tuple(game.worst_seats()),
        )
        newcomer = worst_position(table)
        free = [s for s in range(6) if s not in game.seats]
        waits = {s: game.hands_before_big_blind(s) for s in free}
        assert waits[newcomer] == min(waits.values())
        game.arrive(newcomer, 1000)
        for _ in range(waits[newcomer]):
            game.start_hand(seed=seed)
            assert game.hand is not None and game.hand.big_blind_index is not None
            assert game.hand.seats[game.hand.big_blind_index] != newcomer
            game.cancel_hand()  # (every chip back: the order of the blinds goes on)
        game.start_hand(seed=seed)
        hand = game.hand
        assert hand is not None
        assert hand.seats[hand.big_blind_index] == newcomer, (seats, small, newcomer)
        checked += waits[newcomer] == 0
    assert checked > 10  # mostly at once: a free seat between the blinds


def test_t4_next_blinds_names_the_seats_that_post_next_hand() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        game = Game(TABLE, {s: True for s in range(2 + seed % 5)}, rng=random.Random(seed))
        for _ in range(5):
            if not game.can_deal:
                break
            blinds = game.next_blinds()
            game.start_hand(seed=rng.getrandbits(32))
            hand = game.hand
            assert hand is not None and blinds == (
                hand.settings.button, hand.seats[hand.small_blind_index],
                hand.seats[hand.big_blind_index],
            )
            assert game.next_blinds() is None or not game.hand_running
            if rng.random() < 0.2:
                game.cancel_hand()
            while game.hand_running:
                legal = hand.legal_actions()
                assert legal is not None
                game.act(legal.seat, "check" if legal.can_check else "call")


def test_t8_the_tournaments_level_sets_the_blinds_of_the_next_hand_only() -> None:
    game = Game(TABLE, {0: True, 1: True, 2: True}, rng=random.Random(7))
    game.start_hand(seed=1)
    game.set_level(3)
    assert game.hand is not None and game.hand.settings.big_blind == BLIND_LEVELS[0][1]
    game.cancel_hand()
    game.start_hand(seed=2)
    assert game.hand is not None
    assert (game.hand.settings.small_blind, game.hand.settings.big_blind) == BLIND_LEVELS[3]
    assert game.hands_to_next_level() is None  # the tournament says when it rises
    assert Game.from_dict(game.to_dict()).level == 3
    with pytest.raises(GameError):
        game.set_level(len(BLIND_LEVELS))
