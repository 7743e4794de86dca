"""R22-R24 (pots, side pots, split pots and odd chips) and R28-R30 (the showdown).

R25-R27, the value of a hand, are proven in test_evaluator.py.
"""

from __future__ import annotations

import json

import pytest

from engine.actions import ActionError, ActionKind
from engine.events import AWARD, MUCK, SHOW
from engine.hand import Hand
from engine.pots import Pot, build_pots, split_pot
from engine.views import hand_view
from tests.engine.helpers import check_down, events_of, make_hand, play

ROYAL_BOARD = "AsKsQsJsTs"  # everyone plays the board: every showdown is a tie


def pots_by_seat(hand: Hand) -> list[tuple[int, list[int]]]:
    return [(p.amount, [hand.seats[i] for i in p.eligible]) for p in hand.pots]


def awards(hand: Hand) -> list[tuple[int, int, int]]:
    """(pot, seat, amount) of every award event, in the order they happened."""
    return [(e.pot, e.seat, e.amount) for e in events_of(hand, AWARD)]


# ---------------------------------------------------------------- R22
def test_r22_example_asha_200_all_in_bikash_and_chandra_500_each() -> None:
    asha, bikash, chandra = 0, 1, 2
    hand = make_hand({asha: 200, bikash: 1000, chandra: 1000}, button=asha,
                     holes={asha: "AsAd", bikash: "KsKd", chandra: "QsQd"}, board="2c7h9d3cJh")
    play(hand, "0 all_in", "1 raise 500", "2 call")
    check_down(hand)
    assert hand.total == [200, 500, 500]
    assert pots_by_seat(hand) == [(600, [asha, bikash, chandra]), (600, [bikash, chandra])]
    assert awards(hand) == [(1, bikash, 600), (0, asha, 600)]
    assert hand.final_stacks == {asha: 600, bikash: 1100, chandra: 500}


def test_r22_the_pot_builder_gives_the_example_exactly() -> None:
    assert build_pots([200, 500, 500], [False, False, False]) == [
        Pot(600, (0, 1, 2)),
        Pot(600, (1, 2)),
    ]


def test_r22_several_all_ins_make_several_side_pots() -> None:
    hand = make_hand({0: 100, 1: 250, 2: 600, 3: 1000}, button=3,
                     holes={0: "AsAd", 1: "KsKd", 2: "QsQd", 3: "JsJd"}, board="2c7h9d3c4h")
    play(hand, "2 all_in", "3 call", "0 all_in", "1 all_in")
    assert hand.finished
    assert pots_by_seat(hand) == [
        (400, [0, 1, 2, 3]),
        (450, [1, 2, 3]),
        (700, [2, 3]),
    ]
    assert hand.final_stacks == {0: 400, 1: 450, 2: 700, 3: 400}
    assert sum(hand.final_stacks.values()) == 1950


def test_r22_folded_chips_stay_in_the_pots_but_a_folded_player_wins_none() -> None:
    hand = make_hand({0: 1000, 1: 200, 2: 1000, 3: 1000}, button=0,
                     holes={0: "7c2d", 1: "KsKd", 2: "QsQd", 3: "AsAd"}, board="2c7h9d3cJh")
    # Seat 0 puts in 300 and folds with the best hand on the board so far (two pair).
    play(hand, "3 raise 300", "0 call", "1 all_in", "2 call", "2 check", "3 check", "0 fold")
    check_down(hand)
    assert hand.total == [300, 200, 300, 300]
    pots = pots_by_seat(hand)
    assert pots == [(800, [1, 2, 3]), (300, [2, 3])]
    assert all(0 not in seats for _, seats in pots)
    assert hand.final_stacks == {0: 700, 1: 0, 2: 700, 3: 1800}


# ---------------------------------------------------------------- R23
def test_r23_side_pots_are_awarded_first_and_the_main_pot_last() -> None:
    hand = make_hand({0: 100, 1: 250, 2: 600, 3: 1000}, button=3,
                     holes={0: "AsAd", 1: "KsKd", 2: "QsQd", 3: "JsJd"}, board="2c7h9d3c4h")
    play(hand, "2 all_in", "3 call", "0 all_in", "1 all_in")
    assert awards(hand) == [(2, 2, 700), (1, 1, 450), (0, 0, 400)]
    assert [a.pot for a in hand.awards] == [2, 1, 0]
    last_show = max(i for i, e in enumerate(hand.events) if e.kind == SHOW)
    first_award = min(i for i, e in enumerate(hand.events) if e.kind == AWARD)
    assert last_show < first_award


# ---------------------------------------------------------------- R24
def test_r24_equal_hands_split_a_pot_equally() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0, board=ROYAL_BOARD)
    play(hand, "0 call", "1 call", "2 check")
    check_down(hand)
    assert awards(hand) == [(0, 1, 20), (0, 2, 20), (0, 0, 20)]
    assert hand.final_stacks == {0: 1000, 1: 1000, 2: 1000}


def test_r24_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    # Blinds 15/30; the small blind folds: 75 between the button and the big blind.
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0, blinds=(15, 30), board=ROYAL_BOARD)
    play(hand, "0 call", "1 fold", "2 check")
    check_down(hand)
    assert awards(hand) == [(0, 2, 38), (0, 0, 37)]


def test_r24_odd_chips_go_one_at_a_time_from_the_left_of_the_button() -> None:
    # Blinds 50/100; the small blind folds: 350 between three winners, 116 each and 2 odd
    # chips, one for each of the first two winners left of the button (2, then 3).
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0, blinds=(50, 100),
                     board=ROYAL_BOARD)
    play(hand, "3 call", "0 call", "1 fold", "2 check")
    check_down(hand)
    assert sorted(awards(hand)) == [(0, 0, 116), (0, 2, 117), (0, 3, 117)]
    assert hand.final_stacks == {0: 1016, 1: 950, 2: 1017, 3: 1017}


def test_r24_the_order_wraps_round_the_button() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=2, blinds=(50, 100),
                     board=ROYAL_BOARD)
    # Button 2, small blind 3 folds, big blind 0: winners left of the button are 0, 1, 2.
    play(hand, "1 call", "2 call", "3 fold", "0 check")
    check_down(hand)
    assert hand.final_stacks == {0: 1017, 1: 1017, 2: 1016, 3: 950}


def test_r24_split_pot_hands_out_the_remainder_in_the_given_order() -> None:
    assert split_pot(11, [4, 1, 3]) == {4: 4, 1: 4, 3: 3}
    assert split_pot(12, [4, 1, 3]) == {4: 4, 1: 4, 3: 4}
    assert split_pot(7, [5]) == {5: 7}


# ---------------------------------------------------------------- R28
def showdown(hand: Hand) -> list[tuple[str, int | None, tuple[str, ...]]]:
    return [(e.kind, e.seat, e.cards) for e in hand.events if e.kind in (SHOW, MUCK)]


def test_r28_the_last_river_aggressor_shows_first_and_a_beaten_hand_is_mucked() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "QhQd"}, board="2c7s9d3cJs")
    play(hand, "0 call", "1 call", "2 check")
    play(hand, "1 check", "2 check", "0 check")  # flop
    play(hand, "1 check", "2 check", "0 check")  # turn
    play(hand, "1 bet 100", "2 call", "0 call")  # river: seat 1 bets
    assert showdown(hand) == [
        (SHOW, 1, ("Kh", "Kd")),
        (MUCK, 2, ()),  # queens cannot beat the kings shown
        (SHOW, 0, ("Ah", "Ad")),
    ]
    assert awards(hand) == [(0, 0, 360)]


def test_r28_a_checked_river_starts_with_the_first_player_left_of_the_button() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0,
                     holes={0: "Ah9d", 1: "KhKd", 2: "AdTc", 3: "QhQd"}, board="2c7s9cAs3h")
    play(hand, "3 call", "0 call", "1 fold", "2 check")
    play(hand, "2 check", "3 check", "0 check")  # flop
    play(hand, "2 check", "3 bet 50", "0 call", "2 call")  # turn: seat 3 bets
    play(hand, "2 check", "3 check", "0 check")  # river checked round
    # Seat 1 folded: seat 2 is the first still in left of the button. Seat 3's queens cannot
    # beat its aces and are mucked; seat 0 has aces and nines, better, and shows.
    assert showdown(hand) == [
        (SHOW, 2, ("Ad", "Tc")),
        (MUCK, 3, ()),
        (SHOW, 0, ("Ah", "9d")),
    ]
    assert awards(hand) == [(0, 0, 220)]


def test_r28_a_hand_as_good_as_the_best_shown_is_shown_and_splits() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "2h3h", 1: "4d5d", 2: "6c8c"}, board=ROYAL_BOARD)
    play(hand, "0 call", "1 call", "2 check")
    check_down(hand)
    assert [k for k, _, _ in showdown(hand)] == [SHOW, SHOW, SHOW]
    assert [s for _, s, _ in showdown(hand)] == [1, 2, 0]


def test_r28_with_anyone_all_in_every_hand_is_shown_even_one_that_cannot_win() -> None:
    hand = make_hand({0: 1000, 1: 300, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "4h3d"}, board="2c7s9dQcJs")
    play(hand, "0 call", "1 all_in", "2 call", "0 call")
    play(hand, "2 check", "0 check", "2 check", "0 check", "2 check", "0 check")
    assert [(k, s) for k, s, _ in showdown(hand)] == [(SHOW, 1), (SHOW, 2), (SHOW, 0)]
    assert not events_of(hand, MUCK)
    assert awards(hand) == [(0, 0, 900)]


def test_r28_heads_up_checked_river_the_big_blind_shows_first() -> None:
    hand = make_hand({0: 1000, 1: 1000}, button=0,
                     holes={0: "KhKd", 1: "QhQd"}, board="2c7s9d3cJs")
    play(hand, "0 call")
    check_down(hand)
    assert showdown(hand) == [(SHOW, 1, ("Qh", "Qd")), (SHOW, 0, ("Kh", "Kd"))]


# ---------------------------------------------------------------- R29
def test_r29_the_award_names_the_five_cards_of_the_winning_hand() -> None:
    hand = make_hand({0: 1000, 1: 1000}, button=0,
                     holes={0: "AhKh", 1: "QcQd"}, board="QhJhTh2c3d")
    play(hand, "0 call")
    check_down(hand)
    (award,) = events_of(hand, AWARD)
    assert award.seat == 0
    assert sorted(award.cards) == sorted(["Ah", "Kh", "Qh", "Jh", "Th"])
    assert award.hand == "Royal flush"
    assert [str(c) for c in hand.awards[0].hand.cards] == list(award.cards)  # type: ignore[union-attr]


def test_r29_each_winner_of_a_split_has_its_own_five_cards() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AcQd", 1: "AdQs", 2: "2h3h"}, board="AhKs9c8d4c")
    play(hand, "0 call", "1 call", "2 check")
    check_down(hand)
    got = {e.seat: set(e.cards) for e in events_of(hand, AWARD)}
    assert got == {
        1: {"Ad", "Ah", "Ks", "Qs", "9c"},
        0: {"Ac", "Ah", "Ks", "Qd", "9c"},
    }
    view = hand_view(hand, None)
    assert {a["seat"]: set(a["cards"]) for a in view["awards"]} == got


# ---------------------------------------------------------------- R30
def test_r30_there_is_no_action_to_show_a_hand() -> None:
    assert {k.value for k in ActionKind} == {"fold", "check", "call", "bet", "raise", "all_in"}
    hand = make_hand({0: 1000, 1: 1000}, button=0)
    play(hand, "0 call", "1 fold")
    with pytest.raises(ActionError):
        hand.act(0, "show")
    hand = make_hand({0: 1000, 1: 1000}, button=0)
    with pytest.raises(ActionError) as err:
        hand.act(0, "show")
    assert err.value.code == "unknown_action"


def test_r30_an_uncontested_winners_cards_never_appear_to_anyone_else() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "QhQd"}, board="2c7s9d3cJs")
    play(hand, "0 raise 100", "1 fold", "2 fold")
    for viewer in (1, 2, None):
        text = json.dumps(hand_view(hand, viewer))
        assert '"Ah"' not in text and '"Ad"' not in text


def test_r30_a_mucked_or_folded_hand_never_appears_in_any_other_view() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "QhQd", 3: "5c4c"},
                     board="2c7s9d3dJs")
    play(hand, "3 call", "0 call", "1 call", "2 check")
    play(hand, "1 check", "2 check", "3 bet 100", "0 call", "1 call", "2 fold")
    play(hand, "1 check", "3 check", "0 check")
    play(hand, "1 bet 200", "3 call", "0 call")
    mucked = {seat for kind, seat, _ in showdown(hand) if kind == MUCK}
    assert mucked == {3}  # seat 1 shows kings first; seat 3's five high cannot win
    assert {s for k, s, _ in showdown(hand) if k == SHOW} == {1, 0}
    for viewer in (0, 1, 2, None):
        text = json.dumps(hand_view(hand, viewer))
        assert '"5c"' not in text and '"4c"' not in text  # the mucked hand
        if viewer != 2:
            assert '"Qh"' not in text and '"Qd"' not in text  # the folded hand
    assert '"5c"' in json.dumps(hand_view(hand, 3))  # its owner still sees it
