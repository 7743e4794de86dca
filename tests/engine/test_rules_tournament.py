"""The tournament's rules T1..T6 (README "A tournament over several tables")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    MAX_SEATS,
    Bust,
    Player,
    Standings,
    TableState,
    TournamentError,
    apply_moves,
    plan,
    seat_entrants,
    table_to_break,
    worst_position,
)


def names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def tables_of(sizes: list[int], chips: int = 1000) -> list[TableState]:
    count = iter(range(1000))
    return [
        TableState(
            number=n + 1,
            seats={p: Player(f"t{n}p{next(count)}", chips) for p in range(size)},
            next_small_blind=0 if size else None, next_big_blind=1 if size > 1 else None,
        )
        for n, size in enumerate(sizes)
    ]


def play_out_balancing(tables: list[TableState]) -> list[TableState]:
    for _ in range(50):
        moves = plan(tables)
        if not moves:
            return tables
        tables = apply_moves(tables, moves)
    raise AssertionError("balancing did not settle")


@given(st.integers(7, 36), st.integers(0, 10**6))
def test_t1_entrants_are_seated_at_random_as_evenly_as_possible(n: int, seed: int) -> None:
    seated = seat_entrants(names(n), random.Random(seed))
    sizes = [len(t) for t in seated]
    assert len(seated) == -(-n // MAX_SEATS)
    assert max(sizes) <= MAX_SEATS and max(sizes) - min(sizes) <= 1
    assert sorted(e for t in seated for e in t) == sorted(names(n))


def test_t1_fewer_than_seven_or_more_than_thirty_six_is_refused() -> None:
    with pytest.raises(TournamentError):
        seat_entrants(names(6), random.Random(1))
    with pytest.raises(TournamentError):
        seat_entrants(names(37), random.Random(1))


def test_t2_the_next_big_blind_of_the_fuller_table_moves_to_the_worst_seat() -> None:
    tables = tables_of([6, 4])
    tables[0] = TableState(1, tables[0].seats, next_small_blind=2, next_big_blind=3)
    tables[1] = TableState(2, tables[1].seats, next_small_blind=3, next_big_blind=0)
    (move,) = plan(tables)
    assert (move.from_table, move.from_position) == (1, 3)
    assert move.entrant == tables[0].seats[3].entrant
    # positions 0..3 are taken at table 2; after its small blind (3) the first free seat is 4
    assert (move.to_table, move.to_position) == (2, 4)


def test_t2_tables_one_apart_are_left_alone() -> None:
    assert plan(tables_of([6, 5, 5])) == []


def test_t2_nobody_leaves_a_table_in_the_middle_of_a_hand() -> None:
    tables = tables_of([6, 4])
    tables[0] = TableState(1, tables[0].seats, between_hands=False)
    assert plan(tables) == []


def test_t3_a_table_breaks_when_the_others_can_take_its_players() -> None:
    tables = tables_of([5, 5, 2])
    broken = table_to_break(tables)
    assert broken is not None and broken.number == 3
    moves = plan(tables)
    assert {m.entrant for m in moves} == set(e.entrant for e in tables[2].seats.values())
    after = apply_moves(tables, moves)
    assert [t.size for t in after] == [6, 6, 0]


def test_t3_no_table_breaks_while_the_others_are_too_full() -> None:
    assert table_to_break(tables_of([6, 6, 1])) is None


def test_t3_the_last_six_play_one_final_table() -> None:
    after = play_out_balancing(tables_of([3, 3]))
    assert sorted(t.size for t in after) == [0, 6]


def test_t4_worst_position_is_the_first_free_seat_after_the_next_small_blind() -> None:
    table = TableState(1, {0: Player("a", 1), 2: Player("b", 1), 4: Player("c", 1)},
                       next_small_blind=2, next_big_blind=4)
    assert worst_position(table) == 3
    assert worst_position(table, taken=[3]) == 5


def test_t5_two_out_in_one_hand_are_ordered_by_the_chips_they_started_with() -> None:
    standings = Standings(entrants=10)
    places = standings.out([Bust("asha", 100), Bust("bikash", 300)])
    assert places == {"bikash": 9, "asha": 10}
    assert standings.left == 8


def test_t5_out_at_the_same_moment_at_different_tables_follow_the_same_rule() -> None:
    standings = Standings(entrants=14)
    standings.out([Bust("a", 50), Bust("b", 400), Bust("c", 50)])  # tables 1 and 3 together
    assert standings.places == {"b": 12, "a": 13, "c": 13}


def test_t6_the_survivor_takes_first_and_every_entrant_is_placed_once() -> None:
    standings = Standings(entrants=7)
    for i in range(6):
        standings.out([Bust(f"p{i}", 10)])
    standings.finish({"p6": 7000})
    assert sorted(standings.places.values()) == list(range(1, 8))
    assert standings.places["p6"] == 1
    with pytest.raises(TournamentError):
        standings.out([Bust("p0", 1)])


@settings(max_examples=200)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=6), st.integers(0, 10**6))
def test_t2_t3_balancing_conserves_chips_and_seats_and_evens_tables(
    sizes: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    tables = [
        TableState(
            number=n + 1,
            seats={p: Player(f"t{n}p{p}", rng.randint(1, 5000)) for p in range(s)},
            next_small_blind=rng.randrange(6), next_big_blind=rng.randrange(6),
        )
        for n, s in enumerate(sizes)
    ]
    before = {p.entrant: p.chips for t in tables for p in t.seats.values()}
    after = play_out_balancing(tables)
    assert {p.entrant: p.chips for t in after for p in t.seats.values()} == before
    live = [t.size for t in after if t.size]
    assert all(size <= MAX_SEATS for size in live)
    if live:
        assert max(live) - min(live) <= 1
        assert len(live) == max(1, -(-sum(live) // MAX_SEATS))


@settings(max_examples=30, deadline=None)
@given(st.integers(7, 36), st.integers(0, 10**6))
def test_t1_to_t6_a_whole_tournament_places_everyone_once_and_keeps_every_chip(
    n: int, seed: int
) -> None:
    """Hands reduced to their outcome: after each, some players at that table lose all their
    chips to a player still at it; balancing and breaking run after every hand."""
    rng = random.Random(seed)
    seated = seat_entrants(names(n), rng)
    tables = [
        TableState(i + 1, {p: Player(e, 1000) for p, e in enumerate(t)},
                   next_small_blind=0, next_big_blind=1)
        for i, t in enumerate(seated)
    ]
    standings = Standings(entrants=n)
    while standings.left > 1:
        live = [t for t in tables if t.size > 1]
        table = rng.choice(live)
        seats = dict(table.seats)
        losers = rng.sample(sorted(seats), rng.randint(1, len(seats) - 1))
        winner = rng.choice([p for p in seats if p not in losers])
        busts = [Bust(seats[p].entrant, seats[p].chips) for p in losers]
        won = sum(seats.pop(p).chips for p in losers)
        seats[winner] = Player(seats[winner].entrant, seats[winner].chips + won)
        standings.out(busts)
        positions = sorted(seats)
        tables = [
            TableState(t.number, seats, next_small_blind=positions[0],
                       next_big_blind=positions[1 % len(positions)])
            if t.number == table.number else t
            for t in tables
        ]
        tables = play_out_balancing(tables)
        live_sizes = [t.size for t in tables if t.size]
        assert max(live_sizes) - min(live_sizes) <= 1
        assert sum(p.chips for t in tables for p in t.seats.values()) == 1000 * n
    (last,) = [p for t in tables for p in t.seats.values()]
    standings.finish({last.entrant: last.chips})
    assert set(standings.places) == set(names(n)) and standings.places[last.entrant] == 1
