"""R11-R21 and P1: the deal, the order of play, every action, the size of raises, when the
betting is closed or reopened, uncalled bets, fold wins and all-in run-outs. The readable errors
of refused actions are tests/engine/test_rules_refusals.py."""

from __future__ import annotations

import pytest

from engine.actions import ActionError, ActionKind
from engine.cards import new_deck
from engine.events import ACTION, AWARD, BOARD, BURN, DEAL_HOLE, MUCK, SHOW, UNCALLED
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.views import hand_view
from tests.engine.helpers import check_down, events_of, make_hand, play, refused

FIVE = {0: 1000, 1: 1000, 2: 1000, 3: 1000, 4: 1000}


def kinds(hand: Hand) -> list[str]:
    return [e.kind for e in hand.events]


# ---------------------------------------------------------------- R11
def test_r11_hole_cards_one_at_a_time_from_left_of_the_button_with_three_burns() -> None:
    deck = new_deck()  # 2s 2h 2d 2c 3s 3h ... in a known order, nothing stacked
    settings = HandSettings(1, (0, 1, 2), (1000, 1000, 1000), button=0, small_blind=10,
                            big_blind=20)
    hand = Hand(settings, deck)
    # Seats 1, 2, 0 get cards 0, 1, 2, then 3, 4, 5.
    assert hand.hole == [(deck[2], deck[5]), (deck[0], deck[3]), (deck[1], deck[4])]
    assert [e.seat for e in events_of(hand, DEAL_HOLE)] == [1, 2, 0]
    check_down(hand)
    assert hand.burnt == [deck[6], deck[10], deck[12]]
    assert hand.board == [deck[7], deck[8], deck[9], deck[11], deck[13]]
    streets = [(e.kind, e.street, len(e.cards)) for e in hand.events if e.kind in (BURN, BOARD)]
    assert streets == [
        (BURN, "flop", 0), (BOARD, "flop", 3),
        (BURN, "turn", 0), (BOARD, "turn", 1),
        (BURN, "river", 0), (BOARD, "river", 1),
    ]


# ---------------------------------------------------------------- R12
def test_r12_preflop_left_of_the_big_blind_first_and_the_big_blind_last_with_its_option() -> None:
    hand = make_hand(FIVE, button=0)
    order = []
    for _ in range(4):
        order.append(hand.seat_to_act)
        hand.act(hand.seat_to_act or 0, "call")
    assert order == [3, 4, 0, 1]
    assert hand.street == 0 and hand.seat_to_act == 2
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.can_check, legal.call, legal.bet_or_raise, legal.min_to) == (
        True, 0, ActionKind.RAISE, 40,
    )
    play(hand, "2 raise 60")
    assert [hand.seat_to_act] == [3]  # the option raise reopens the round


def test_r12_heads_up_the_button_acts_first_preflop() -> None:
    hand = make_hand({2: 1000, 5: 1000}, button=5)
    assert hand.seat_to_act == 5
    play(hand, "5 call")
    assert hand.seat_to_act == 2  # the big blind still has its option
    play(hand, "2 check")
    assert hand.street == 1


# ---------------------------------------------------------------- R13
def test_r13_after_the_flop_the_first_player_left_of_the_button_acts_first() -> None:
    hand = make_hand(FIVE, button=3)
    play(hand, "1 call", "2 call", "3 call", "4 call", "0 check")
    assert hand.street == 1 and hand.seat_to_act == 4


def test_r13_folded_and_all_in_players_are_skipped() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 300}, button=0)
    # Seat 1 (small blind) folds; seat 2 is all in before the flop.
    play(hand, "3 all_in", "0 call", "1 fold", "2 call")
    assert hand.street == 1
    assert hand.seat_to_act == 2  # the big blind is the first one still in after the button
    hand = make_hand({0: 1000, 1: 300, 2: 1000, 3: 1000}, button=0)
    play(hand, "3 call", "0 call", "1 all_in", "2 call", "3 call", "0 call")
    assert hand.street == 1 and hand.seat_to_act == 2  # seat 1 is all in: skipped


def test_r13_heads_up_the_big_blind_acts_first_after_the_flop() -> None:
    hand = make_hand({2: 1000, 5: 1000}, button=5)
    play(hand, "5 call", "2 check")
    assert hand.seat_to_act == 2
    play(hand, "2 check", "5 check")
    assert hand.street == 2 and hand.seat_to_act == 2


# ---------------------------------------------------------------- R14
def test_r14_fold_is_always_allowed_and_folded_chips_stay_in_the_pot() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 call", "1 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.can_check and legal.can_fold
    play(hand, "2 fold")  # folding where a check was free is still allowed
    assert hand.folded == [False, False, True]
    play(hand, "1 bet 100", "0 fold")
    assert hand.finished
    assert hand.final_stacks == {0: 980, 1: 1040, 2: 980}


def test_r14_check_only_when_there_is_nothing_to_call() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    err = refused(hand, 0, "check")
    assert err.code == "cannot_check" and "20" in err.message
    play(hand, "0 call", "1 call")
    err = refused(hand, 2, "call")
    assert err.code == "nothing_to_call"
    play(hand, "2 check")
    assert hand.street == 1


def test_r14_a_call_for_less_puts_the_player_all_in_for_what_they_matched() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 70}, button=0,
                     holes={0: "KsKd", 1: "QsQd", 2: "AsAd"}, board="2c7d9hJc3s")
    play(hand, "0 raise 200", "1 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert (legal.call, legal.call_all_in, legal.bet_or_raise) == (50, True, None)
    play(hand, "2 call")
    assert hand.stack[2] == 0 and hand.is_all_in(2)
    (event,) = [e for e in events_of(hand, ACTION) if e.seat == 2]
    assert (event.action, event.amount, event.to, event.all_in) == ("call", 50, 70, True)
    check_down(hand)
    # Seat 2 wins only what it matched (70 from each of the three); the kings take the rest.
    assert [(p.amount, p.eligible) for p in hand.pots] == [(210, (0, 1, 2)), (260, (0, 1))]
    assert hand.final_stacks == {0: 1060, 1: 800, 2: 210}


def test_r14_a_bet_is_at_least_the_big_blind_and_a_raise_has_no_upper_limit() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 call", "1 call", "2 check")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert (legal.bet_or_raise, legal.min_to, legal.max_to) == (ActionKind.BET, 20, 980)
    assert refused(hand, 1, "bet", 19).code == "below_minimum"
    assert refused(hand, 1, "raise", 50).code == "raise_not_allowed"  # nothing to raise yet
    assert refused(hand, 1, "bet", 981).code == "above_stack"
    play(hand, "1 bet 20")
    assert refused(hand, 2, "bet", 100).code == "bet_not_allowed"  # a bet exists: raise it
    legal = hand.legal_actions()
    assert legal is not None and (legal.min_to, legal.max_to) == (40, 980)
    play(hand, "2 raise 980")  # the whole stack, far above the pot: no limit
    assert hand.stack[2] == 0


def test_r14_an_all_in_is_allowed_below_the_minimum_bet() -> None:
    hand = make_hand({0: 1000, 1: 35, 2: 1000}, button=0)
    play(hand, "0 call", "1 call", "2 check")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1
    assert (legal.all_in_to, legal.min_to, legal.max_to) == (15, 15, 15)
    assert refused(hand, 1, "bet", 14).code == "below_minimum"
    play(hand, "1 all_in")
    (event,) = [e for e in events_of(hand, ACTION) if e.seat == 1 and e.street == "flop"]
    assert (event.action, event.to, event.all_in) == ("bet", 15, True)
    # The under-size bet does not change the minimum raise: 15 + the big blind.
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.min_to) == (2, 15, 35)


def test_r14_amounts_are_to_amounts_for_the_round() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 call", "1 call", "2 raise 60")  # the big blind adds 40 to its 20
    (event,) = [e for e in events_of(hand, ACTION) if e.seat == 2]
    assert (event.action, event.amount, event.to) == ("raise", 40, 60)
    assert hand.stack[2] == 940
    play(hand, "0 raise 200")  # the button adds 180 to its 20
    assert hand.stack[0] == 800 and hand.bet[0] == 200


# ---------------------------------------------------------------- R15
def test_r15_example_min_raise_to_40_then_after_a_raise_to_100_at_least_180() -> None:
    hand = make_hand(FIVE, button=0)
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.bet_or_raise, legal.min_to) == (
        3, ActionKind.RAISE, 40,
    )
    err = refused(hand, 3, "raise", 39)
    assert err.code == "below_minimum" and "40" in err.message
    play(hand, "3 raise 100")
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.min_to) == (4, 180)
    err = refused(hand, 4, "raise", 179)
    assert err.code == "below_minimum" and "180" in err.message
    play(hand, "4 raise 180")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_to == 260


def test_r15_a_full_raise_on_a_later_street_sets_the_new_minimum() -> None:
    hand = make_hand(FIVE, button=0)
    play(hand, "3 call", "4 fold", "0 fold", "1 fold", "2 check")
    play(hand, "2 bet 50")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_to == 100
    play(hand, "3 raise 300")  # adds 250
    legal = hand.legal_actions()
    assert legal is not None and legal.min_to == 550


# ---------------------------------------------------------------- R16
def test_r16_a_short_all_in_does_not_reopen_the_betting_for_players_who_acted() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000, 4: 150}, button=0)
    play(hand, "3 raise 100", "4 all_in")  # 150: adds 50, less than the 80 of the last raise
    # Seat 0 has not acted yet: it may raise, by at least the last full raise.
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 0
    assert (legal.bet_or_raise, legal.min_to) == (ActionKind.RAISE, 230)
    play(hand, "0 call", "1 call", "2 call")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert (legal.call, legal.bet_or_raise, legal.min_to) == (50, None, None)
    assert "reopened" in legal.reason
    assert refused(hand, 3, "raise", 300).code == "raise_not_allowed"
    assert refused(hand, 3, "all_in").code == "raise_not_allowed"
    play(hand, "3 call")
    assert hand.street == 1


def test_r16_two_short_all_ins_that_add_a_full_raise_together_reopen_the_betting() -> None:
    hand = make_hand({0: 200, 1: 1000, 2: 1000, 3: 1000, 4: 150}, button=0)
    play(hand, "3 raise 100", "4 all_in", "0 all_in")  # 150 (+50), then 200 (+50): 100 >= 80
    play(hand, "1 call", "2 fold")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert (legal.call, legal.bet_or_raise, legal.min_to) == (100, ActionKind.RAISE, 280)
    play(hand, "3 raise 280")
    assert hand.seat_to_act == 1


def test_r16_two_short_all_ins_that_add_less_than_a_full_raise_do_not_reopen() -> None:
    hand = make_hand({0: 160, 1: 1000, 2: 1000, 3: 1000, 4: 130}, button=0)
    play(hand, "3 raise 100", "4 all_in", "0 all_in")  # 130 (+30), 160 (+30): 60 < 80
    play(hand, "1 call", "2 fold")
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.bet_or_raise) == (3, 60, None)
    assert refused(hand, 3, "raise", 400).code == "raise_not_allowed"


def test_r16_a_short_all_in_after_a_bet_lets_the_next_player_raise_but_not_the_bettor() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 150}, button=0)
    play(hand, "3 call", "0 call", "1 call", "2 check")
    play(hand, "1 bet 100", "2 call", "3 all_in")  # 130: adds 30 to the 100 bet
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.bet_or_raise, legal.min_to) == (
        0, ActionKind.RAISE, 230,
    )
    play(hand, "0 call")
    for seat in (1, 2):
        legal = hand.legal_actions()
        assert legal is not None and (legal.seat, legal.bet_or_raise) == (seat, None)
        play(hand, f"{seat} call")
    assert hand.street == 2


# ---------------------------------------------------------------- R17
def test_r17_no_raise_when_everyone_else_still_in_is_all_in() -> None:
    hand = make_hand({0: 300, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 all_in", "1 fold")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2
    assert (legal.call, legal.bet_or_raise, legal.min_to) == (280, None, None)
    assert "answer" in legal.reason
    assert refused(hand, 2, "raise", 600).code == "raise_not_allowed"
    assert refused(hand, 2, "all_in").code == "raise_not_allowed"
    play(hand, "2 call")
    assert hand.finished and len(hand.board) == 5


def test_r17_a_call_matches_only_the_chips_actually_put_in() -> None:
    # Blinds 10/20, the big blind has 15. With everyone else gone, calling it costs 5, not 10.
    hand = make_hand({0: 1000, 1: 1000, 2: 15}, button=0,
                     holes={0: "KsKd", 1: "QsQd", 2: "AsAd"}, board="2c7d9hJc3s")
    play(hand, "0 fold")
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.can_check) == (1, 5, False)
    play(hand, "1 call")
    assert hand.total == [0, 15, 15]
    assert not events_of(hand, UNCALLED)


def test_r17_a_bigger_stack_calling_an_all_in_puts_in_only_the_all_in_amount() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 450}, button=0)
    play(hand, "0 fold", "1 raise 300", "2 all_in")
    legal = hand.legal_actions()
    assert legal is not None and (legal.seat, legal.call, legal.bet_or_raise) == (1, 150, None)
    play(hand, "1 call")
    assert hand.total == [0, 450, 450]


def test_r17_no_betting_at_all_with_nothing_to_call_and_nobody_able_to_answer() -> None:
    hand = make_hand({0: 1000, 1: 300, 2: 1000}, button=0,
                     holes={0: "KsKd", 1: "QsQd", 2: "AsAd"}, board="2c7d9hJc3s")
    play(hand, "0 fold", "1 all_in", "2 call")
    # Only seat 2 has chips: no flop, turn or river decisions are asked for.
    assert hand.finished
    assert [e.street for e in events_of(hand, ACTION)] == ["preflop"] * 3
    hand = make_hand({0: 1000, 1: 1000}, button=0)
    assert hand.seat_to_act == 0
    hand = make_hand({0: 1000, 1: 10}, button=0)  # the big blind is all in for the small one
    assert hand.finished and not events_of(hand, ACTION)


# ---------------------------------------------------------------- R18
def test_r18_the_round_ends_when_everyone_has_acted_and_matched() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0)
    play(hand, "3 call", "0 call", "1 call")
    assert hand.street == 0  # the big blind has not acted yet
    play(hand, "2 raise 80")
    # Everyone who called must act again after the full raise.
    for seat in (3, 0, 1):
        assert hand.seat_to_act == seat and hand.street == 0
        play(hand, f"{seat} call")
    assert hand.street == 1 and hand.seat_to_act == 1
    play(hand, "1 check", "2 check", "3 bet 100", "0 call", "1 fold")
    assert hand.street == 1 and hand.seat_to_act == 2
    play(hand, "2 call")
    assert hand.street == 2


def test_r18_the_round_ends_when_the_others_are_all_in() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000, 3: 500}, button=0)
    play(hand, "3 call", "0 call", "1 call", "2 check")
    play(hand, "1 bet 100", "2 fold", "3 all_in", "0 call")
    assert hand.street == 1 and hand.seat_to_act == 1  # 480 to call after the all in
    play(hand, "1 call")
    assert hand.street == 2 and hand.seat_to_act == 1


# ---------------------------------------------------------------- R19
def test_r19_a_bet_nobody_calls_goes_back_to_its_owner() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 call", "1 call", "2 check", "1 bet 300", "2 fold", "0 fold")
    (back,) = events_of(hand, UNCALLED)
    assert (back.seat, back.amount) == (1, 300)
    (award,) = events_of(hand, AWARD)
    assert (award.seat, award.amount) == (1, 60)
    assert hand.final_stacks == {0: 980, 1: 1040, 2: 980}


def test_r19_the_part_of_an_all_in_above_the_callers_stack_goes_back() -> None:
    hand = make_hand({0: 1000, 1: 400, 2: 1000}, button=0,
                     holes={0: "KsKd", 1: "AsAd", 2: "2h3h"}, board="2c7d9hJc4s")
    play(hand, "0 all_in", "1 call", "2 fold")
    (back,) = events_of(hand, UNCALLED)
    assert (back.seat, back.amount) == (0, 600)
    assert kinds(hand).index(UNCALLED) < kinds(hand).index(SHOW)
    assert hand.total == [400, 400, 20]
    assert hand.final_stacks == {0: 600, 1: 820, 2: 980}


def test_r19_everyone_folding_to_the_big_blind_returns_its_uncalled_part() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 fold", "1 fold")
    (back,) = events_of(hand, UNCALLED)
    assert (back.seat, back.amount) == (2, 10)
    assert hand.final_stacks == {0: 1000, 1: 990, 2: 1010}


# ---------------------------------------------------------------- R20
def test_r20_when_everyone_else_folds_the_last_player_takes_the_pot_and_shows_nothing() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "7c2d", 1: "AsAd", 2: "KsKd"}, board="2c7d9hJc4s")
    play(hand, "0 raise 60", "1 call", "2 call", "1 check", "2 check", "0 bet 100",
         "1 fold", "2 fold")
    assert hand.finished
    assert not events_of(hand, SHOW) and not events_of(hand, MUCK)
    (award,) = events_of(hand, AWARD)
    assert (award.seat, award.amount, award.cards, award.hand) == (0, 180, (), "")
    assert [(a.seat, a.amount, a.hand) for a in hand.awards] == [(0, 180, None)]
    for viewer in (1, 2, None):
        view = hand_view(hand, viewer)
        assert view["players"][0]["cards"] is None
        assert "7c" not in str(view) and "2d" not in str(view)


# ---------------------------------------------------------------- R21
def test_r21_an_all_in_and_call_turns_every_hand_up_and_deals_the_rest() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AsAd", 1: "KsKd", 2: "QcJc"}, board="2c7d9hJs4s")
    play(hand, "0 raise 100", "1 call", "2 call", "1 check", "2 check", "0 all_in",
         "1 call", "2 fold")
    k = kinds(hand)
    shows = events_of(hand, SHOW)
    assert [(e.seat, e.cards) for e in shows] == [(1, ("Ks", "Kd")), (0, ("As", "Ad"))]
    # Both hands are face up before the turn and the river are dealt.
    turn = [i for i, e in enumerate(hand.events) if e.kind == BOARD and e.street == "turn"]
    assert max(i for i, kind in enumerate(k) if kind == SHOW) < turn[0]
    assert len(hand.board) == 5
    assert [e.street for e in events_of(hand, ACTION)][-3:] == ["flop"] * 3
    assert hand.final_stacks == {0: 2100, 1: 0, 2: 900}


def test_r21_betting_goes_on_between_the_players_who_still_have_chips() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 100}, button=0,
                     holes={0: "AsAd", 1: "KsKd", 2: "QcJc"}, board="2c7d9hJs4s")
    play(hand, "0 call", "1 call", "2 all_in", "0 call", "1 call")
    assert hand.street == 1 and hand.seat_to_act == 1
    play(hand, "1 check", "0 bet 100", "1 fold")
    # Seat 1 folded; seat 0 and the all-in seat 2 show down without more betting.
    assert hand.finished
    assert {e.seat for e in events_of(hand, SHOW)} == {0, 2}
    assert len(hand.board) == 5


# ---------------------------------------------------------------- P1
def test_p1_a_timed_out_player_checks_when_possible() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    play(hand, "0 call", "1 call")
    action = hand.timeout_action()
    assert (action.seat, action.kind) == (2, ActionKind.CHECK)
    hand.act(action.seat, action.kind, action.amount)
    assert hand.street == 1 and not any(hand.folded)


def test_p1_a_timed_out_player_folds_when_a_check_is_not_possible() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    action = hand.timeout_action()
    assert (action.seat, action.kind) == (0, ActionKind.FOLD)
    hand.act(action.seat, action.kind, action.amount)
    assert hand.folded == [True, False, False]
    play(hand, "1 fold")
    with pytest.raises(ActionError) as err:
        hand.timeout_action()
    assert err.value.code == "hand_over"
