"""Hand values: the rule book's examples (R25-R27, R29), names, and whole-deck counts."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, Card, parse_cards
from engine.evaluator import (
    CATEGORY_SHIFT,
    Category,
    HandValue,
    evaluate,
    hand_values,
    rank_ids,
    rank_many,
)


def hand(text: str) -> HandValue:
    return evaluate(parse_cards(text))


def texts(value: HandValue) -> list[str]:
    return [str(c) for c in value.cards]


hands_of = st.integers(min_value=5, max_value=7).flatmap(
    lambda n: st.lists(st.sampled_from(ALL_CARDS), min_size=n, max_size=n, unique=True)
)


# --- R25: best five of seven, category order ------------------------------------------------

ONE_OF_EACH = [
    ("7s 5h 4d 3c 2s", Category.HIGH_CARD),
    ("2s 2h 5d 4c 3s", Category.PAIR),
    ("3s 3h 2d 2c 4s", Category.TWO_PAIR),
    ("2s 2h 2d 4c 3s", Category.THREE_OF_A_KIND),
    ("5s 4h 3d 2c As", Category.STRAIGHT),
    ("7h 5h 4h 3h 2h", Category.FLUSH),
    ("2s 2h 2d 3c 3s", Category.FULL_HOUSE),
    ("2s 2h 2d 2c 3s", Category.FOUR_OF_A_KIND),
    ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH),
]


def test_r25_each_category_beats_every_lower_one() -> None:
    # The weakest hand of each category still beats the best hand of the category below.
    values = [hand(text) for text, _ in ONE_OF_EACH]
    assert [v.category for v in values] == [c for _, c in ONE_OF_EACH]
    strongest_below = [
        "Ah Kh Qh Jh 9s",  # best high card
        "As Ah Kd Qc Js",  # best pair
        "As Ah Kd Kc Qs",  # best two pair
        "As Ah Ad Kc Qs",  # best trips
        "As Kh Qd Jc Ts",  # best straight
        "Ah Kh Qh Jh 9h",  # best flush
        "As Ah Ad Kc Ks",  # best full house
        "As Ah Ad Ac Ks",  # best four of a kind
    ]
    for weakest_above, best_below in zip(values[1:], strongest_below, strict=True):
        assert weakest_above > hand(best_below)


def test_r25_royal_flush_is_the_best_hand() -> None:
    royal = hand("As Ks Qs Js Ts")
    assert royal.name == "Royal flush"
    assert royal.category is Category.STRAIGHT_FLUSH
    assert royal > hand("Kh Qh Jh Th 9h") > hand("As Ah Ad Ac Ks")


def test_r25_board_can_play_for_everyone() -> None:
    board = "Ts Js Qs Ks As"
    assert hand(f"2c 3d {board}") == hand(f"4h 5h {board}")
    assert texts(hand(f"2c 3d {board}")) == ["As", "Ks", "Qs", "Js", "Ts"]


def test_r25_one_or_both_hole_cards_can_play() -> None:
    one = hand("Ah 2c Kd 8s 8h 5c 3d")  # one hole card: the ace kicker
    assert one.name == "Pair of eights"
    assert texts(one) == ["8s", "8h", "Ah", "Kd", "5c"]
    both = hand("9c 9d Kd 8s 8h 5c 3d")  # both: the pocket nines
    assert both.name == "Two pair, nines and eights"
    assert texts(both) == ["9c", "9d", "8s", "8h", "Kd"]


# --- R26: straights -------------------------------------------------------------------------


def test_r26_broadway_is_the_highest_straight() -> None:
    assert hand("As Kh Qd Jc Ts") > hand("Ks Qh Jd Tc 9s")
    assert hand("As Kh Qd Jc Ts").name == "Straight, ace high"


def test_r26_wheel_is_the_lowest_straight() -> None:
    wheel = hand("5s 4h 3d 2c As")
    assert wheel.category is Category.STRAIGHT
    assert wheel.name == "Straight, five high"
    assert wheel < hand("6s 5h 4d 3c 2s")
    assert wheel > hand("As Ah Ad Kc Qs")
    assert texts(wheel) == ["5s", "4h", "3d", "2c", "As"]


def test_r26_steel_wheel_is_the_lowest_straight_flush() -> None:
    steel = hand("Ah 2h 3h 4h 5h")
    assert steel.name == "Straight flush, five high"
    assert texts(steel) == ["5h", "4h", "3h", "2h", "Ah"]
    assert hand("6h 2h 3h 4h 5h") > steel > hand("As Ah Ad Ac Ks")


def test_r26_no_straight_goes_round_the_corner() -> None:
    assert hand("Qs Kh Ad 2c 3s").category is Category.HIGH_CARD
    assert hand("Ks Ah 2d 3c 4s").category is Category.HIGH_CARD
    assert hand("Qh Kh Ah 2h 3h").category is Category.FLUSH


def test_r26_wheel_with_a_six_plays_six_high() -> None:
    assert hand("As 2h 3d 4c 5s 6h Kd").name == "Straight, six high"


# --- R27: ties inside a category, the rule book's examples ----------------------------------


def test_r27_aces_and_eights_beat_kings_and_eights() -> None:
    board = "Ac Kd 8s 8h 2c"
    ace_queen = hand(f"Ad Qs {board}")
    king_queen = hand(f"Kc Qh {board}")
    assert ace_queen > king_queen
    assert ace_queen.name == "Two pair, aces and eights"
    assert king_queen.name == "Two pair, kings and eights"


def test_r27_board_two_pair_with_ace_kicker_is_a_three_way_tie() -> None:
    board = "Ah Qd Qc 9s 6h"
    players = [hand(f"{hole} {board}") for hole in ("Kc 9d", "9h 6c", "9c 3d")]
    assert players[0] == players[1] == players[2]
    assert len({p.value for p in players}) == 1
    for p in players:
        assert [c.rank for c in p.cards] == [12, 12, 9, 9, 14]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Js Jh 2d 2c 4s", "Ts Th 9d 9c 8s"),  # top pair first
        ("8s 8h 6d 6c 3s", "8d 8c 5d 5c Ks"),  # then the bottom pair
        ("Js Jh Ad 9c 3s", "Jd Jc Ah 8c 7s"),  # kickers one by one
        ("9s 9h 9d 4c 4s", "8s 8h 8d As Ah"),  # full house by trips, then pair
        ("Ks Js 9s 3s 2s", "Kd Jd 7d 6d 5d"),  # flush by each card in turn
    ],
    ids=["JJ22_beats_TT99", "8866_beats_8855", "JJA9_beats_JJA8", "999_beats_888", "KJ9_flush"],
)
def test_r27_rule_book_examples(better: str, worse: str) -> None:
    assert hand(better) > hand(worse)
    assert hand(worse) < hand(better)
    assert hand(better) != hand(worse)


def test_r27_two_pair_kicker() -> None:
    assert hand("As Ah 5d 5c Ks") > hand("Ad Ac 5s 5h Qs")


def test_r27_third_kicker_of_a_pair() -> None:
    assert hand("7s 7h Ad Tc 4s") > hand("7d 7c As Th 3s")


def test_r27_higher_four_of_a_kind_then_kicker() -> None:
    assert hand("3s 3h 3d 3c 2s") > hand("2s 2h 2d 2c As")
    assert hand("9s 9h 9d 9c Ks") > hand("9s 9h 9d 9c Qs")


def test_r27_straight_by_top_card_only() -> None:
    assert hand("9s 8h 7d 6c 5s") > hand("8s 7h 6d 5c 4s")
    assert hand("9s 8h 7d 6c 5s") == hand("9d 8d 7c 6s 5h")


def test_r27_only_five_cards_count() -> None:
    board = "As Ah Kd Kc Qs"
    assert hand(f"Jh 2c {board}") == hand(f"3d 4d {board}")
    # A sixth card that would be a second kicker changes nothing.
    assert hand("7s 7h Ad Kc Qs Jd") == hand("7d 7c As Kh Qd 2c")


def test_r27_suits_never_break_a_tie() -> None:
    assert hand("Ks Js 9s 3s 2s") == hand("Kh Jh 9h 3h 2h")
    assert hand("As Ah Kd Qc Js") == hand("Ad Ac Ks Qh Jh")


# --- R29: the five cards that make the hand -------------------------------------------------


def test_r29_full_house_lists_trips_then_pair() -> None:
    assert texts(hand("4c 9s Kd 9h Ks 9d 2c")) == ["9s", "9h", "9d", "Kd", "Ks"]


def test_r29_two_pair_lists_top_pair_bottom_pair_kicker() -> None:
    assert texts(hand("Ad Qs Ac Kd 8s 8h 2c")) == ["Ad", "Ac", "8s", "8h", "Kd"]


def test_r29_six_card_flush_keeps_the_top_five() -> None:
    assert texts(hand("2h 9h Kh 4h Jh 7h Ac")) == ["Kh", "Jh", "9h", "7h", "4h"]


def test_r29_ties_between_fives_prefer_the_cards_given_first() -> None:
    # Two queens could be the kicker; the first one given is marked.
    assert texts(hand("Qs Qd As Ah Kd Kc 2c")) == ["As", "Ah", "Kd", "Kc", "Qs"]


# --- names and keys -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "name", "key"),
    [
        ("As Ks Qs Js Ts", "Royal flush", ("royal_flush", [14])),
        ("9d 8d 7d 6d 5d", "Straight flush, nine high", ("straight_flush", [9])),
        ("Qs Qh Qd Qc 3s", "Four of a kind, queens", ("four_of_a_kind", [12])),
        ("9s 9h 9d Kc Ks", "Full house, nines full of kings", ("full_house", [9, 13])),
        ("Ah 9h 7h 4h 2h", "Flush, ace high", ("flush", [14])),
        ("Ts 9h 8d 7c 6s", "Straight, ten high", ("straight", [10])),
        ("5s 4h 3d 2c As", "Straight, five high", ("straight", [5])),
        ("7s 7h 7d Kc 2s", "Three of a kind, sevens", ("three_of_a_kind", [7])),
        ("Ks Kh 7d 7c 2s", "Two pair, kings and sevens", ("two_pair", [13, 7])),
        ("As Ah 7d 5c 2s", "Pair of aces", ("pair", [14])),
        ("6s 6h 7d 5c 2s", "Pair of sixes", ("pair", [6])),
        ("Ks 9h 7d 4c 2s", "High card, king", ("high_card", [13])),
    ],
)
def test_names_and_keys(cards: str, name: str, key: tuple[str, list[int]]) -> None:
    value = hand(cards)
    assert value.name == name
    assert value.key == {"category": key[0], "ranks": key[1]}


def test_category_is_the_top_of_the_value() -> None:
    for text, category in ONE_OF_EACH:
        assert hand(text).value >> CATEGORY_SHIFT == category


# --- input checks ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 4, 8])
def test_evaluate_refuses_other_sizes(count: int) -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        evaluate(ALL_CARDS[:count])


def test_evaluate_refuses_a_card_twice() -> None:
    cards = [*parse_cards("As Kd 7c 2h"), Card(14, "s")]
    with pytest.raises(ValueError, match="As appears twice"):
        evaluate(cards)


def test_rank_many_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="shape"):
        rank_many([[0, 1, 2, 3]])
    with pytest.raises(ValueError, match="0 to 51"):
        rank_many([[0, 1, 2, 3, 52]])
    with pytest.raises(ValueError, match="twice"):
        rank_many([[0, 1, 2, 3, 3]])


def test_hand_values_compare_and_hash_by_value() -> None:
    a, b = hand("Ks Js 9s 3s 2s"), hand("Kh Jh 9h 3h 2h")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a <= b and a >= b and not a < b and not a > b
    assert a != "Ks Js 9s 3s 2s"


# --- the whole deck -------------------------------------------------------------------------


def test_r25_r27_all_five_card_hands_fall_in_the_known_classes() -> None:
    values = Counter(map(rank_ids, combinations(range(52), 5)))
    categories: Counter[Category] = Counter()
    for value, count in values.items():
        categories[Category(value >> CATEGORY_SHIFT)] += count
    assert categories == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert sum(categories.values()) == 2_598_960
    assert len(values) == 7_462


def test_rank_ids_matches_evaluate_on_a_random_sample() -> None:
    rng = random.Random(20240527)
    for _ in range(3_000):
        cards = rng.sample(ALL_CARDS, rng.choice((5, 6, 7)))
        assert rank_ids([c.id for c in cards]) == evaluate(cards).value


def test_rank_many_matches_rank_ids() -> None:
    rng = random.Random(7)
    for size in (5, 6, 7):
        hands = [rng.sample(range(52), size) for _ in range(5_000)]
        assert rank_many(np.array(hands)).tolist() == [rank_ids(h) for h in hands]


def test_hand_values_of_boards_with_hole_cards_match_rank_ids() -> None:
    """The three shapes: whole hands; m hole-card sets with every board; each board's own."""
    rng = random.Random(11)
    for board_size in (3, 4, 5):
        deals = [rng.sample(range(52), board_size + 6) for _ in range(2_000)]
        boards = np.array([d[:board_size] for d in deals])
        own = np.array([[d[board_size + 2 * i : board_size + 2 * i + 2] for i in range(3)]
                        for d in deals])
        got = hand_values(boards, own)
        assert got.shape == (2_000, 3)
        assert got.tolist() == [[rank_ids(d[:board_size] + list(h)) for h in hands]
                                for d, hands in zip(deals, own.tolist(), strict=True)]
        whole = np.array([d[: board_size + 2] for d in deals])
        assert hand_values(whole).tolist() == [rank_ids(d[: board_size + 2]) for d in deals]
    shared = np.array([[0, 1], [50, 51], [12, 25]])  # 2c2d, AhAs, 4s7d... against each board
    boards = np.array([b for b in (rng.sample(range(2, 50), 5) for _ in range(500))
                       if not {12, 25} & set(b)])
    got = hand_values(boards, shared)
    assert got.tolist() == [[rank_ids([*b, *h]) for h in shared.tolist()]
                            for b in boards.tolist()]


# --- properties -----------------------------------------------------------------------------


@given(hands_of)
def test_the_five_cards_come_from_the_hand_and_have_its_value(cards: list[Card]) -> None:
    value = evaluate(cards)
    assert len(value.cards) == 5
    assert set(value.cards) <= set(cards)
    assert evaluate(value.cards).value == value.value
    assert value.category == Category(value.value >> CATEGORY_SHIFT)


@given(hands_of)
def test_r29_the_five_cards_come_most_important_first(cards: list[Card]) -> None:
    value = evaluate(cards)
    ranks = [c.rank for c in value.cards]
    if value.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = value.ranks[0]
        assert ranks == [14 if r == 1 else r for r in range(top, top - 5, -1)]
    else:
        counts = Counter(ranks)
        assert ranks == sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
        assert list(dict.fromkeys(ranks))[: len(value.ranks)] == value.ranks


@given(hands_of)
def test_rank_ids_equals_evaluate(cards: list[Card]) -> None:
    assert rank_ids([c.id for c in cards]) == evaluate(cards).value


@given(hands_of)
def test_r25_value_is_the_best_of_every_five(cards: list[Card]) -> None:
    best = max(evaluate(five).value for five in combinations(cards, 5))
    assert evaluate(cards).value == best


@given(hands_of)
def test_r27_suits_do_not_matter(cards: list[Card]) -> None:
    # Renaming the suits keeps the value: suits only matter through flushes.
    rename = dict(zip("shdc", "dcsh", strict=True))
    renamed = [Card(c.rank, rename[c.suit]) for c in cards]
    assert evaluate(renamed) == evaluate(cards)
