"""R14: the readable errors of refused actions (an unknown seat or action, out of turn, a check
facing a bet, a bet or raise outside its sizes, amounts that are not whole chips, anything after
the hand ended), each with its stable code, and a refused action changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.hand import Hand
from tests.engine.helpers import make_hand, play, refused


def started() -> Hand:
    return make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)


ERRORS: list[tuple[str, Callable[[], Hand], int, Any, Any, str]] = [
    ("unknown seat", started, 5, "fold", None, "unknown_seat"),
    ("not your turn", started, 1, "call", None, "not_your_turn"),
    ("no such action", started, 0, "show", None, "unknown_action"),
    ("a straddle", started, 0, "straddle", 40, "unknown_action"),
    ("check facing a bet", started, 0, "check", None, "cannot_check"),
    ("raise below the minimum", started, 0, "raise", 39, "below_minimum"),
    ("raise above the stack", started, 0, "raise", 1001, "above_stack"),
    ("bet facing a bet", started, 0, "bet", 100, "bet_not_allowed"),
    ("fraction", started, 0, "raise", 60.5, "bad_amount"),
    ("negative", started, 0, "raise", -60, "bad_amount"),
    ("zero", started, 0, "raise", 0, "bad_amount"),
    ("absurd", started, 0, "raise", 10**30, "bad_amount"),
    ("text", started, 0, "raise", "60", "bad_amount"),
    ("bool", started, 0, "raise", True, "bad_amount"),
    ("no amount", started, 0, "raise", None, "bad_amount"),
    ("amount on a call", started, 0, "call", 20, "bad_amount"),
    ("bool seat", started, True, "fold", None, "bad_seat"),
]


@pytest.mark.parametrize(
    ("make", "seat", "kind", "amount", "code"),
    [e[1:] for e in ERRORS],
    ids=[e[0] for e in ERRORS],
)
def test_r14_a_refused_action_gives_a_readable_error_and_changes_nothing(
    make: Callable[[], Hand], seat: Any, kind: Any, amount: Any, code: str
) -> None:
    hand = make()
    assert refused(hand, seat, kind, amount).code == code


def test_r14_an_action_after_the_hand_ended_is_refused() -> None:
    hand = started()
    play(hand, "0 fold", "1 fold")
    assert hand.finished
    for seat, kind in ((2, "check"), (0, "fold"), (1, "call")):
        err = refused(hand, seat, kind)
        assert err.code == "hand_over" and "over" in err.message


def test_r14_error_messages_name_what_is_allowed() -> None:
    hand = started()
    assert refused(hand, 1, "call").message == "It is not your turn: seat 0 is to act."
    assert "fold, check, call, bet, raise or all_in" in refused(hand, 0, "show").message
    assert "20" in refused(hand, 0, "check").message
    assert "40" in refused(hand, 0, "raise", 30).message
    assert "1000" in refused(hand, 0, "raise", 5000).message
    assert "whole" in refused(hand, 0, "raise", 60.5).message
    err = refused(hand, 0, "raise", 60.5)
    assert err.to_dict() == {"code": "bad_amount", "message": err.message}
