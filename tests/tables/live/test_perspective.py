"""Whose eyes a frame looks through, for one phone holding several seats (pass and play)."""

from __future__ import annotations

from engine.game import Game, GameSettings
from tables.cache import SeatInfo, Snapshot
from tables.live.perspective import PassState, hide, perspective, reveal


def snapshot_of(game: Game, version: int = 1) -> Snapshot:
    seats = {
        s: SeatInfo(s, name, False, "", False, f"hash{s}")
        for s, name in enumerate(["Asha", "Bikash", "Chandra"])
    }
    return Snapshot(
        id=1, code="K7Q4MX", mode="local", status="playing", version=version, seat_count=3,
        max_hands=None, blind_every=10, computer_level="easy", turn_seconds=30,
        host_position=0, next_deadline=None, deadline_kind="turn", paused=False,
        closed_reason="", next_code=None, seats=seats, game=game,
    )


def new_game() -> Game:
    game = Game(GameSettings(), {0: True, 1: True, 2: True}, rng=None)
    game.start_hand(seed=3)
    return game


def to_act(game: Game) -> int:
    assert game.hand is not None and game.hand.seat_to_act is not None
    return game.hand.seat_to_act


def test_a_phone_with_one_seat_always_sees_that_seat() -> None:
    game = new_game()
    view = perspective(snapshot_of(game), [1], PassState())
    assert (view.viewer, view.handoff) == (1, None)


def test_a_watcher_sees_no_seat() -> None:
    view = perspective(snapshot_of(new_game()), [], PassState())
    assert (view.viewer, view.home, view.handoff) == (None, None, None)


def test_the_turn_of_another_seat_on_this_phone_starts_with_a_hand_off() -> None:
    game = new_game()
    state = PassState()
    seat = to_act(game)
    view = perspective(snapshot_of(game), [0, 1, 2], state)
    assert (view.viewer, view.handoff) == (None, seat)
    assert reveal(snapshot_of(game), [0, 1, 2], state, seat)
    view = perspective(snapshot_of(game), [0, 1, 2], state)
    assert (view.viewer, view.handoff) == (seat, None)


def test_after_acting_the_cards_hide_and_the_next_person_gets_a_hand_off() -> None:
    game = new_game()
    state = PassState()
    mine = [0, 1, 2]
    first = to_act(game)
    reveal(snapshot_of(game), mine, state, first)
    game.act(first, "call")
    view = perspective(snapshot_of(game, 2), mine, state)
    assert view.viewer is None and view.handoff == to_act(game) != first


def test_after_acting_with_nobody_here_to_act_the_table_shows_from_their_place_hidden() -> None:
    game = new_game()
    state = PassState()
    mine = [to_act(game)]
    others = [s for s in (0, 1, 2) if s not in mine]
    phone = [mine[0], 9]  # a second seat of this phone that is not dealt in
    reveal(snapshot_of(game), phone, state, mine[0])
    game.act(mine[0], "call")
    assert to_act(game) in others
    view = perspective(snapshot_of(game, 2), phone, state)
    assert (view.viewer, view.handoff, view.home) == (None, None, mine[0])


def test_a_person_can_only_reveal_their_own_seat_and_not_during_another_local_turn() -> None:
    game = new_game()
    state = PassState()
    seat = to_act(game)
    other = next(s for s in (0, 1, 2) if s != seat)
    assert not reveal(snapshot_of(game), [0, 1, 2], state, other)
    assert not reveal(snapshot_of(game), [seat], state, other)
    assert not reveal(snapshot_of(game), [0, 1, 2], state, None)


def test_hiding_and_a_new_hand_hide_the_cards() -> None:
    game = new_game()
    state = PassState()
    seat = to_act(game)
    phone = [seat, 9]
    reveal(snapshot_of(game), phone, state, seat)
    hide(state)
    assert perspective(snapshot_of(game), phone, state).viewer is None
    reveal(snapshot_of(game), phone, state, seat)
    state.hand_number = 0  # as if the hand had changed since
    assert perspective(snapshot_of(game), phone, state).viewer is None


def test_the_state_survives_a_round_trip_through_the_session() -> None:
    state = PassState(revealed=2, revealed_acts=1, hand_number=4, home=2)
    assert PassState.from_dict(state.to_dict()) == state
    assert PassState.from_dict({"revealed": "2", "hand_number": "x"}) == PassState()
    assert PassState.from_dict(None) == PassState()
