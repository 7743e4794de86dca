"""Monte Carlo equity, and the cross-check that phevaluator orders hands exactly as we do."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from phevaluator import evaluate_cards

from engine.cards import ALL_CARDS, Card, parse_cards
from engine.equity import equity
from engine.evaluator import evaluate, rank_ids


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def combo(text: str) -> tuple[Card, Card]:
    first, second = parse_cards(text)
    return first, second


def pheval(ids: Sequence[int]) -> int:
    # phevaluator numbers suits c, d, h, s; we number them s, h, d, c: the ranks agree.
    return int(evaluate_cards(*(i ^ 3 for i in ids)))


def assert_reverse_order(hands: Iterable[Sequence[int]]) -> None:
    """Our values and phevaluator's sort the hands in exactly opposite orders, ties kept."""
    pairs = {(rank_ids(ids), pheval(ids)) for ids in hands}
    ours = sorted(pairs)
    assert len({o for o, _ in ours}) == len({t for _, t in ours}) == len(ours)
    theirs = [t for _, t in ours]
    assert all(a > b for a, b in pairwise(theirs))


def one_hand_per_class() -> list[list[int]]:
    """A five-card hand of each of the 7,462 distinct values."""
    hands: list[list[int]] = []
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue
        # Suits s, h, d, c in turn: never five of one suit, never one card twice.
        hands.append([rank * 4 + i % 4 for i, rank in enumerate(ranks)])
    for ranks in combinations(range(13), 5):
        hands.append([rank * 4 for rank in ranks])
    return hands


def test_phevaluator_orders_every_hand_class_as_we_do() -> None:
    hands = one_hand_per_class()
    assert len({rank_ids(h) for h in hands}) == 7_462
    assert_reverse_order(hands)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_phevaluator_orders_random_hands_as_we_do(size: int) -> None:
    rng = random.Random(size)
    assert_reverse_order(rng.sample(range(52), size) for _ in range(30_000))


# --- sanity values --------------------------------------------------------------------------


def test_aces_win_about_85_percent_against_one_random_hand() -> None:
    # Pocket aces against one random hand: 85.2% (pot share, ties split).
    result = equity(cards("As Ah"), [], 1, 20_000, random.Random(1))
    assert result == pytest.approx(0.852, abs=0.015)


def test_aces_against_kings() -> None:
    kings = [combo("Ks Kh")]
    assert equity(cards("Ad Ac"), [], 1, 20_000, random.Random(2), ranges=[kings]) == (
        pytest.approx(0.82, abs=0.015)
    )


@pytest.mark.parametrize(
    ("hole", "other", "share"),
    [("Ks Kd", "Qs Qd", 1.0), ("Qs Qd", "Ks Kd", 0.0), ("2s 3d", "2h 3c", 0.5)],
)
def test_r24_r25_river_against_a_known_hand_is_exact(hole: str, other: str, share: float) -> None:
    board = cards("Ah Jc 8d 7s 4h")
    result = equity(cards(hole), board, 1, 500, random.Random(3), ranges=[[combo(other)]])
    assert result == share


def test_three_way_tie_on_the_river_shares_in_three() -> None:
    board = cards("Ah Qd Qc 9s 6h")  # R27: K-9, 9-6 and 9-3 all play Q-Q-9-9-A
    ranges = [[combo("9h 6c")], [combo("9c 3d")]]
    assert equity(cards("Kc 9d"), board, 2, 200, random.Random(4), ranges=ranges) == (
        pytest.approx(1 / 3)
    )


def test_turn_against_a_known_hand_matches_counting_the_rivers() -> None:
    hero, villain, board = cards("Ah Kh"), cards("Qs Qc"), cards("Qh 7h 2c 5d")
    share = 0.0
    rivers = [c for c in ALL_CARDS if c not in (*hero, *villain, *board)]
    for river in rivers:
        mine = evaluate([*hero, *board, river])
        theirs = evaluate([*villain, *board, river])
        share += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    exact = share / len(rivers)
    estimate = equity(hero, board, 1, 20_000, random.Random(5), ranges=[[combo("Qs Qc")]])
    assert estimate == pytest.approx(exact, abs=0.015)


def test_dead_cards_are_never_dealt() -> None:
    hero, board = cards("As Ah"), cards("Kd 9c 7s 4h 2d")
    left = [combo("Kh Ks")]  # the only two cards not known: the opponent must hold them
    dead = [c for c in ALL_CARDS if c not in (*hero, *board, *left[0])]
    assert equity(hero, board, 1, 300, random.Random(6), dead=dead) == 0.0


def test_weights_pick_combos() -> None:
    board = cards("Ah Jc 8d 7s 4h")
    weighted = {combo("Ks Kd"): 3.0, combo("2s 3d"): 1.0, combo("As Ad"): 0.0}
    result = equity(cards("Qs Qd"), board, 1, 20_000, random.Random(7), ranges=[weighted])
    assert result == pytest.approx(0.25, abs=0.015)


def test_ranges_are_dealt_together_not_one_after_the_other() -> None:
    # Opponent 1 holds aces or 3-5, opponent 2 aces or 3-8; they cannot both hold the aces.
    # Of the three possible deals, only (3-5, 3-8) lets the kings win: 1/3. Dealing opponent 1
    # first and then opponent 2 from what is left would give 1/4.
    board = cards("2h 7s 9d Jc 4h")
    first = [combo("As Ah"), combo("3c 5d")]
    second = [combo("As Ah"), combo("3d 8c")]
    result = equity(cards("Kc Kd"), board, 2, 30_000, random.Random(8), ranges=[first, second])
    assert result == pytest.approx(1 / 3, abs=0.015)


def test_ranges_drop_combos_that_use_known_cards() -> None:
    board = cards("Ah Jc 8d 7s 4h")
    blocked_or_not = [combo("Ah Ad"), combo("2c 3c")]  # the ace of hearts is on the board
    result = equity(cards("Qs Qd"), board, 1, 500, random.Random(9), ranges=[blocked_or_not])
    assert result == 1.0


def test_random_and_ranged_opponents_mix() -> None:
    hole, board = cards("As Kd"), cards("Kh 7c 2d")
    everyone = list(combinations(ALL_CARDS, 2))
    as_ranges = equity(hole, board, 3, 20_000, random.Random(10), ranges=[None, everyone, None])
    random_only = equity(hole, board, 3, 20_000, random.Random(11))
    assert as_ranges == pytest.approx(random_only, abs=0.02)


# --- determinism and checks -----------------------------------------------------------------


def test_same_seed_same_equity() -> None:
    hole, board = cards("As Kd"), cards("Kh 7c 2d")
    first = equity(hole, board, 5, 2_000, random.Random(42))
    assert equity(hole, board, 5, 2_000, random.Random(42)) == first
    assert equity(hole, board, 5, 2_000, random.Random(43)) != first


def test_same_seed_same_equity_with_ranges() -> None:
    hole = cards("As Kd")
    ranges = [[combo("Qs Qh"), combo("Jd Tc")], None]
    first = equity(hole, [], 2, 2_000, random.Random(1), ranges=ranges)
    assert equity(hole, [], 2, 2_000, random.Random(1), ranges=ranges) == first


def test_equity_advances_the_random_generator() -> None:
    rng = random.Random(5)
    hole = cards("As Kd")
    assert equity(hole, [], 1, 1_000, rng) != equity(hole, [], 1, 1_000, rng)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hole": cards("As")}, "two hole cards"),
        ({"board": cards("2c 3c 4c 5c 6c 7c")}, "at most five"),
        ({"dead": cards("Ks")}, "appears twice"),
        ({"opponents": 0}, "at least one opponent"),
        ({"trials": 0}, "at least one trial"),
        ({"opponents": 23}, "not enough cards"),
        ({"ranges": [None, None]}, "2 ranges for 1 opponents"),
        ({"ranges": [[combo("Ks Kh")]]}, "no combo left"),
        ({"ranges": [{combo("Qs Qh"): -1.0}]}, "negative weight"),
        ({"ranges": [[(Card(12, "s"), Card(12, "s"))]]}, "twice in one combo"),
    ],
)
def test_equity_refuses_bad_input(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "hole": cards("Ks Kd"),
        "board": [],
        "opponents": 1,
        "trials": 10,
        "rng": random.Random(0),
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        equity(**args)  # type: ignore[arg-type]


def test_ranges_that_cannot_be_dealt_together_are_refused() -> None:
    same = [combo("As Ah")]
    with pytest.raises(ValueError, match="overlap"):
        equity(cards("Ks Kd"), [], 2, 10, random.Random(0), ranges=[same, same])
