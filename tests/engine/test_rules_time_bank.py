"""P4: the time bank's arithmetic (the clock that runs it: tests/tables/write/test_time_bank.py)."""

from __future__ import annotations

from engine.timebank import (
    BANK_CHOICES,
    DEFAULT_BANK,
    left_after_turn,
    topped_up,
    tops_up_at,
    turn_allowance,
)


def test_p4_the_host_chooses_none_30_60_or_120_seconds_default_60() -> None:
    assert BANK_CHOICES == (0, 30, 60, 120)
    assert DEFAULT_BANK == 60


def test_p4_the_bank_is_used_only_after_the_time_limit() -> None:
    assert left_after_turn(60, 30, 12.0) == 60
    assert left_after_turn(60, 30, 30.0) == 60
    assert left_after_turn(60, 30, 45.0) == 45
    assert left_after_turn(60, 30, 30.2) == 59  # a part of a second counts as a second


def test_p4_used_seconds_are_gone_and_an_empty_bank_stays_empty() -> None:
    bank = left_after_turn(60, 30, 70.0)
    assert bank == 20
    bank = left_after_turn(bank, 30, 40.0)
    assert bank == 10
    assert left_after_turn(bank, 30, 500.0) == 0
    assert left_after_turn(0, 30, 45.0) == 0


def test_p4_every_ten_hands_ten_seconds_back_never_above_the_start() -> None:
    assert [n for n in range(1, 40) if tops_up_at(n)] == [11, 21, 31]
    assert topped_up(0, 60) == 10
    assert topped_up(45, 60) == 55
    assert topped_up(55, 60) == 60
    assert topped_up(60, 60) == 60
    assert topped_up(5, 0) == 0  # no bank at this table: nothing to top up


def test_p4_away_people_and_computer_players_have_only_the_limit() -> None:
    assert turn_allowance(30, 60, person=True, away=False) == 90
    assert turn_allowance(30, 60, person=True, away=True) == 30
    assert turn_allowance(30, 60, person=False, away=False) == 30
    assert turn_allowance(30, 0, person=True, away=False) == 30
