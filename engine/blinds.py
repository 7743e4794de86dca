"""The chips and the blinds of a game (R3, R10): the starting stack, the blind levels, how many
hands a level lasts, how long a game may last, and the level of a given hand."""

from __future__ import annotations

STARTING_STACK = 1000  # R3
BLIND_LEVELS: tuple[tuple[int, int], ...] = (  # R10
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400),
    (300, 600), (400, 800), (500, 1000), (750, 1500), (1000, 2000), (1500, 3000),
    (2000, 4000), (3000, 6000),
)
BLIND_SPEEDS = (5, 10, 20)
GAME_LENGTHS = (None, 30, 60)  # None: until one player holds every chip (R32)


def level_for_hand(hand_number: int, every: int) -> int:
    """Index into BLIND_LEVELS for the ``hand_number``-th hand (1-based); the last level stays."""
    return min((hand_number - 1) // every, len(BLIND_LEVELS) - 1)
