"""Face-up odds (engine.odds) and the run-out of a hand turned face up (engine.runout, R21).

Exact figures are checked against phevaluator (an independent evaluator, compiled C) counting
the same boards one by one, and against published equities.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from phevaluator import evaluate_cards

from engine.actions import ActionKind
from engine.cards import ALL_CARDS, Card, parse_cards
from engine.odds import EXACT, SIMULATED, exact_odds, main, simulated_odds, table_odds
from engine.runout import runout, runout_dict
from tests.engine.helpers import make_hand


def hands(*texts: str) -> list[list[Card]]:
    return [parse_cards(t) for t in texts]


def by_phevaluator(
    holes: Sequence[Sequence[Card]], board: Sequence[Card]
) -> tuple[list[float], list[float]]:
    """Win and split shares counted one board at a time with phevaluator (lower is better)."""
    used = {c for h in holes for c in h} | set(board)
    rest = [str(c) for c in ALL_CARDS if c not in used]
    wins = [0] * len(holes)
    ties = [0] * len(holes)
    total = 0
    for extra in combinations(rest, 5 - len(board)):
        full = [str(c) for c in board] + list(extra)
        values = [evaluate_cards(*(str(c) for c in h), *full) for h in holes]
        best = min(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
        total += 1
    return [w / total for w in wins], [t / total for t in ties]


def test_aces_against_kings_on_a_flop_match_a_board_by_board_count() -> None:
    holes, board = hands("AhAs", "KdKc"), parse_cards("2c7d9h")
    result = exact_odds(holes, board)
    win, split = by_phevaluator(holes, board)
    assert result.method == EXACT and result.boards == 990
    assert result.win == pytest.approx(win, abs=1e-12)
    assert result.split == pytest.approx(split, abs=1e-12)


def test_random_flop_and_turn_spots_of_two_to_six_hands_agree_with_phevaluator() -> None:
    rng = random.Random(27)
    for k in range(60):
        players = 2 + k % 5
        board_size = 3 if k % 2 else 4
        cards = rng.sample(ALL_CARDS, 2 * players + board_size)
        holes = [cards[2 * i : 2 * i + 2] for i in range(players)]
        board = cards[2 * players :]
        result = exact_odds(holes, board)
        win, split = by_phevaluator(holes, board)
        assert result.win == pytest.approx(win, abs=1e-12)
        assert result.split == pytest.approx(split, abs=1e-12)
        assert sum(result.share) == pytest.approx(1.0)  # every pot goes somewhere
        assert all(w <= s <= w + t for w, s, t in zip(result.win, result.share, result.split,
                                                     strict=True))


def test_a_full_board_has_one_outcome_and_a_chopped_one_splits() -> None:
    result = exact_odds(hands("AhKd", "AsKc"), parse_cards("2c7d9hQsJd"))
    assert result.boards == 1
    assert result.win == (0.0, 0.0) and result.split == (1.0, 1.0)


@pytest.mark.slow
def test_aces_against_kings_preflop_count_every_board_as_phevaluator_does() -> None:
    holes = hands("AhAs", "KdKc")
    result = exact_odds(holes)
    win, split = by_phevaluator(holes, [])
    assert result.boards == 1_712_304
    assert result.win == pytest.approx(win, abs=1e-12)
    assert result.split == pytest.approx(split, abs=1e-12)
    # The published figure: aces about 81%, kings about 18.5%, a split under half a percent.
    assert result.win[0] == pytest.approx(0.8106, abs=5e-4)
    assert result.split[0] == pytest.approx(0.0038, abs=5e-4)


@pytest.mark.slow
def test_ace_king_suited_against_queens_preflop_is_the_published_coin_flip() -> None:
    result = exact_odds(hands("AhKh", "QsQd"))
    # Published: AKs against QQ, about 46% to 54% with a split under half a percent.
    assert result.win[0] == pytest.approx(0.46, abs=0.005)
    assert result.win[1] == pytest.approx(0.536, abs=0.005)


def test_the_simulation_lands_within_its_stated_margin_of_the_exact_figure() -> None:
    holes = hands("AhAs", "KdKc")
    sim = simulated_odds(holes, trials=40_000, seed=3)
    assert sim.method == SIMULATED and sim.boards == 40_000
    assert 0 < sim.margin < 0.5
    # Exact: 81.065% and 0.382% (the slow test counts them).
    assert abs(sim.win[0] * 100 - 81.065) <= sim.margin
    assert abs(sim.split[0] * 100 - 0.382) <= sim.margin
    assert simulated_odds(holes, trials=40_000, seed=3) == sim  # seeded: the same figures


def test_a_simulated_three_way_preflop_spot_is_within_its_margin_of_the_exact_count() -> None:
    holes = hands("AhAs", "KdKc", "7s8s")
    exact = exact_odds(holes)
    sim = simulated_odds(holes, trials=40_000, seed=1)
    for e, s in zip((*exact.win, *exact.split), (*sim.win, *sim.split), strict=True):
        assert abs(e - s) * 100 <= sim.margin


def test_table_odds_are_exact_after_the_flop_and_simulated_before() -> None:
    holes = hands("AhAs", "KdKc")
    assert table_odds(holes, parse_cards("2c7d9h")).method == EXACT
    pre = table_odds(holes)
    assert pre.method == SIMULATED and pre is table_odds(hands("AhAs", "KdKc"))


def test_bad_input_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="twice"):
        exact_odds(hands("AhAs", "AhKc"))
    with pytest.raises(ValueError, match="2 to 10"):
        exact_odds(hands("AhAs"))
    with pytest.raises(ValueError, match="0, 3, 4 or 5"):
        exact_odds(hands("AhAs", "KdKc"), parse_cards("2c7d"))


def test_the_command_line_prints_one_line_per_hand_and_the_method(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["AhAs", "KdKc", "--board", "2c7d9h"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("AhAs") and "win  91.6%" in out[0] and "split   0.0%" in out[0]
    assert out[1].startswith("KdKc") and "win   8.4%" in out[1]
    assert out[2] == "exact: every one of the 990 boards left"
    assert main(["AhAs", "KdKc", "--trials", "2000"]) == 0
    assert "simulated: 2,000 random boards" in capsys.readouterr().out
    assert main(["AhAs", "Ah"]) == 2


def test_r21_an_all_in_preflop_gives_odds_preflop_on_the_flop_and_on_the_turn() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000}, button=1, holes={1: "AhAs", 2: "KdKc"}, board="2c7d9h3s4d"
    )
    hand.act(1, ActionKind.ALL_IN)
    hand.act(2, ActionKind.CALL)
    assert hand.finished
    seats, stages = runout(hand)
    assert seats == [2, 1] or seats == [1, 2]
    assert [s.board for s in stages] == [0, 3, 4]
    flop = stages[1].odds
    aces = seats.index(1)
    assert flop.method == EXACT and flop.win[aces] == pytest.approx(0.9162, abs=5e-4)
    data = runout_dict(hand)
    assert data is not None and data["seats"] == seats
    assert data["stages"][1]["win"][aces] == 916


def test_r21_an_all_in_on_the_turn_gives_the_turn_only_and_a_showdown_gives_none() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000}, button=1, holes={1: "AhAs", 2: "KdKc"}, board="2c7d9h3s4d"
    )
    hand.act(1, ActionKind.CALL)
    hand.act(2, ActionKind.CHECK)
    for _street in range(1):  # the flop checked through; all in on the turn
        hand.act(2, ActionKind.CHECK)
        hand.act(1, ActionKind.CHECK)
    hand.act(2, ActionKind.ALL_IN)
    hand.act(1, ActionKind.CALL)
    _, stages = runout(hand)
    assert [s.board for s in stages] == [4]

    checked = make_hand(
        {1: 1000, 2: 1000}, button=1, holes={1: "AhAs", 2: "KdKc"}, board="2c7d9h3s4d"
    )
    checked.act(1, ActionKind.CALL)
    checked.act(2, ActionKind.CHECK)
    for _street in range(3):
        checked.act(2, ActionKind.CHECK)
        checked.act(1, ActionKind.CHECK)
    assert checked.finished and runout(checked) == ([], []) and runout_dict(checked) is None


def test_a_folded_hand_is_never_part_of_the_run_out() -> None:
    hand = make_hand(
        {1: 1000, 2: 1000, 3: 1000}, button=1,
        holes={1: "AhAs", 2: "KdKc", 3: "7s2h"}, board="2c7d9h3s4d",
    )
    first = hand.seat_to_act
    assert first is not None and first != 3
    hand.act(first, ActionKind.ALL_IN)
    while not hand.finished:
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(seat, ActionKind.FOLD if seat == 3 else ActionKind.CALL)
    seats, stages = runout(hand)
    assert 3 not in seats and len(stages[0].odds.win) == 2


@pytest.mark.slow
def test_two_thousand_random_all_in_spots_agree_with_phevaluator_to_the_board() -> None:
    rng = random.Random(2027)
    for k in range(2000):
        players = 2 + k % 5
        board_size = (3, 4, 5)[k % 3]
        cards = rng.sample(ALL_CARDS, 2 * players + board_size)
        holes = [cards[2 * i : 2 * i + 2] for i in range(players)]
        board = cards[2 * players :]
        result = exact_odds(holes, board)
        win, split = by_phevaluator(holes, board)
        assert result.win == pytest.approx(win, abs=1e-12), (holes, board)
        assert result.split == pytest.approx(split, abs=1e-12), (holes, board)
