"""The names computer players sit under: short, friendly and different from each other.

A table's computer players are numbered from 1 as they take their seats (``start_game``) or a
person's seat (``tables.write.moderation``); number n sits under the n-th name below. Each name
has its own first letter, so the seats' avatars (which show it) differ too. Past the list, names
come round again with a number ("Chip 2"), so every number still has its own name.
"""

from __future__ import annotations

NAMES = ("Chip", "Pixel", "Rivet", "Gizmo", "Nova", "Bolt", "Echo", "Sparky", "Dot", "Widget")


def computer_name(number: int) -> str:
    """The name of a table's ``number``-th computer player (from 1)."""
    if number < 1:
        raise ValueError(f"computer players are numbered from 1, not {number}")
    lap, index = divmod(number - 1, len(NAMES))
    return NAMES[index] if lap == 0 else f"{NAMES[index]} {lap + 1}"


def is_computer_name(name: str) -> bool:
    """Whether ``name`` is one that ``computer_name`` gives."""
    base, _, lap = name.rpartition(" ")
    if base and lap.isdigit() and int(lap) >= 2:
        return base in NAMES
    return name in NAMES
