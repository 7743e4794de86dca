"""Computer players sit under short, friendly names that differ from each other."""

from __future__ import annotations

import pytest

from tables.bot_names import NAMES, computer_name, is_computer_name


def test_a_tables_computer_players_have_different_names_and_initials() -> None:
    names = [computer_name(n) for n in range(1, 6)]
    assert len(set(names)) == 5
    assert len({name[0] for name in names}) == 5  # their avatars show different letters
    assert not any("Computer" in name for name in names)
    assert all(len(name) <= 8 for name in NAMES)


def test_names_come_round_again_with_a_number_and_stay_different() -> None:
    names = [computer_name(n) for n in range(1, 3 * len(NAMES) + 1)]
    assert len(set(names)) == len(names)
    assert computer_name(len(NAMES) + 1) == f"{NAMES[0]} 2"
    assert all(is_computer_name(name) for name in names)


def test_a_persons_name_is_not_taken_for_a_computers() -> None:
    assert not is_computer_name("Asha")
    assert not is_computer_name("Chip 1")
    assert not is_computer_name("Computer 1")


def test_numbers_start_at_one() -> None:
    with pytest.raises(ValueError, match="from 1"):
        computer_name(0)
