"""A player's own decisions in figures (engine.advice): pot odds, outs, the chance against the
hands shown or against ranges, and never anything read from a hand the player did not see."""

from __future__ import annotations

import random

import pytest

from engine.actions import ActionKind
from engine.advice import decisions, hand_help, outs
from engine.bots.base import read_spot
from engine.cards import parse_cards
from engine.hand import Hand
from engine.views import hand_view
from tests.engine.helpers import make_hand


def play(hand: Hand, script: dict[int, list[tuple[ActionKind, int | None]]]) -> Hand:
    """Each seat takes its scripted actions in turn; a seat out of script checks or calls."""
    while not hand.finished:
        seat = hand.seat_to_act
        legal = hand.legal_actions()
        assert seat is not None and legal is not None
        if script.get(seat):
            kind, amount = script[seat].pop(0)
            hand.act(seat, kind, amount)
        else:
            hand.act(seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    return hand


def test_a_flush_draw_has_nine_outs_and_about_35_percent_by_the_river() -> None:
    (draw,) = outs(parse_cards("AhKh"), parse_cards("2h7h9c"))
    assert draw.kind == "flush" and draw.outs == 9
    assert draw.by_river == pytest.approx(0.35, abs=0.005)
    (turn,) = outs(parse_cards("AhKh"), parse_cards("2h7h9c3d"))
    assert turn.outs == 9 and turn.by_river == pytest.approx(9 / 46)


def test_straight_draws_are_named_by_their_outs_and_made_hands_have_none() -> None:
    assert [(d.kind, d.outs) for d in outs(parse_cards("8s9d"), parse_cards("TcJh2s"))] == [
        ("open_ended", 8)
    ]
    assert [(d.kind, d.outs) for d in outs(parse_cards("8s9d"), parse_cards("TcQh2s"))] == [
        ("gutshot", 4)
    ]
    assert outs(parse_cards("8s9d"), parse_cards("TcJhQs")) == []  # a straight already
    assert outs(parse_cards("AhKh"), []) == []


def test_pot_odds_are_the_call_over_the_pot_after_it() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000}, button=1, holes={1: "AhKh", 2: "QsQd"}, board="2h7h9c3s4d"
    )
    hand.act(1, ActionKind.CALL)
    hand.act(2, ActionKind.CHECK)
    hand.act(2, ActionKind.BET, 40)  # 40 into 40: Asha calls 40 to win 80
    spot = read_spot(hand_view(hand, 1))
    help_ = hand_help(spot, {}, None, random.Random(1), trials=500)
    assert help_.to_call == 40 and help_.pot == 80
    assert help_.need == pytest.approx(40 / 120)
    assert help_.against == "range" and help_.ranged == [2]
    assert [d.kind for d in help_.draws] == ["flush"]


def test_every_decision_is_explained_and_shown_hands_are_counted_exactly() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000}, button=1, holes={1: "AhKh", 2: "QsQd"}, board="2h7h9c3s4d"
    )
    bet = (ActionKind.BET, 40)
    play(hand, {2: [(ActionKind.CHECK, None), bet, bet, bet]})
    found = decisions(hand, 1)
    assert [d.action for d in found] == ["call", "call", "call", "call"]
    flop = found[1].help
    # QQ was shown at the showdown: AKs with the flush draw against it, counted board by board.
    assert flop.against == "shown" and flop.equity == pytest.approx(0.5, abs=0.1)
    river = found[-1].help
    assert river.equity == 0.0 and river.street == "river"  # no flush came: the queens win


def test_the_figures_never_depend_on_a_hand_the_player_did_not_see() -> None:
    """Chandra folds; Bikash's hand is mucked at the showdown. Dealing them other cards (the
    same board, the same actions) changes nothing Asha is told."""
    def explained(chandra: str, bikash: str) -> list[dict[str, object]]:
        hand = make_hand(
            {1: 1000, 2: 1000, 3: 1000}, button=1,
            holes={1: "AsAd", 2: bikash, 3: chandra}, board="Ah7c2d5s9h",
        )
        # Asha bets the river, shows first, and Bikash's losing hand is mucked (R28).
        check = (ActionKind.CHECK, None)
        play(hand, {
            1: [(ActionKind.CALL, None), check, check, (ActionKind.BET, 40)],
            3: [(ActionKind.FOLD, None)],
        })
        assert 2 not in hand.shown_seats() and 3 not in hand.shown_seats()
        return [d.help.to_dict() | {"event": d.event} for d in decisions(hand, 1)]

    assert explained("KcQc", "Td6h") == explained("JdTc", "Jc3s")
