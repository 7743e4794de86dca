"""P5: what would have come, from the hand's own deck, with a card burnt before each street."""

from __future__ import annotations

import pytest

from engine.actions import ActionKind
from engine.cards import parse_cards
from engine.rest_of_board import RestOfBoardError, rest_of_board, rest_of_hand
from tests.engine.helpers import check_down, make_hand, stacked_deck

STACKS = {0: 1000, 2: 1000, 4: 1000}
HOLES = {0: "2c3d", 2: "7h8h", 4: "KdKc"}
BOARD = "As Ks Qs Js Ts"




def test_p5_the_fixed_deck_gives_the_rest_of_the_board_with_burns() -> None:
    deck = stacked_deck(sorted(STACKS), 0, HOLES, BOARD)
    # Three players: holes are cards 0..5, burn 6, flop 7-9, burn 10, turn 11, burn 12, river 13.
    assert rest_of_board(deck, 3, 0) == [deck[7], deck[8], deck[9], deck[11], deck[13]]
    assert rest_of_board(deck, 3, 0) == parse_cards(BOARD)
    assert rest_of_board(deck, 3, 3) == parse_cards("Js Ts")
    assert rest_of_board(deck, 3, 4) == parse_cards("Ts")
    burns = {deck[6], deck[10], deck[12]}
    holes = set(deck[:6])
    for dealt in (0, 3, 4):
        shown = set(rest_of_board(deck, 3, dealt))
        assert not shown & burns and not shown & holes


@pytest.mark.parametrize("folded_at", [0, 3, 4])
def test_p5_the_rest_is_what_the_deal_would_really_have_put_there(folded_at: int) -> None:
    # The same deck played to the river deals exactly the board the rest completes.
    played = make_hand(STACKS, 0, holes=HOLES, board=BOARD)
    check_down(played)
    assert len(played.board) == 5
    ended = make_hand(STACKS, 0, holes=HOLES, board=BOARD)
    while len(ended.board) < folded_at:
        legal = ended.legal_actions()
        assert legal is not None
        ended.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    while not ended.finished:
        legal = ended.legal_actions()
        assert legal is not None
        ended.act(legal.seat, ActionKind.FOLD if len(ended.in_hand) > 1 else ActionKind.CHECK)
    assert len(ended.board) == folded_at
    assert ended.board + rest_of_hand(ended) == played.board


def test_p5_nothing_would_have_come_after_a_full_board_or_during_the_hand() -> None:
    running = make_hand(STACKS, 0, holes=HOLES, board=BOARD)
    assert rest_of_hand(running) == []  # not over: nothing
    check_down(running)
    assert rest_of_hand(running) == []  # the river was dealt: nothing
    with pytest.raises(RestOfBoardError):
        rest_of_board(running.deck, 3, 5)
    with pytest.raises(RestOfBoardError):
        rest_of_board(running.deck, 1, 0)
