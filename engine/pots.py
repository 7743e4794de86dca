"""Main and side pots (R22), splitting a pot between equal hands (R24), and who is paid each pot
at the end of a hand (``Award``, ``pot_awards``: side pots first, R23)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.evaluator import HandValue


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # player indexes (not seat numbers) who can win it


def build_pots(contributions: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Split the hand's contributions into the main pot (first) and side pots (R22).

    Each level is set by what a player still in put in: every player pays into a level at most
    what they contributed, and only players still in who reached the level may win it. Chips a
    folded player put in above the highest level go to the last pot.
    """
    levels = sorted({c for c, f in zip(contributions, folded, strict=True) if not f and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            i for i, (c, f) in enumerate(zip(contributions, folded, strict=True))
            if not f and c >= level
        )
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(max(0, c - previous) for c in contributions)
    if leftover:
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + leftover, last.eligible)
        else:  # only possible when nobody still in has chips in the pot
            pots.append(Pot(leftover, tuple(i for i, f in enumerate(folded) if not f)))
    return pots


def split_pot(amount: int, winners_in_order: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` equally; odd chips go one at a time to the winners in the given order,
    which the caller lists starting from the first seat to the left of the button (R24)."""
    share, odd = divmod(amount, len(winners_in_order))
    return {w: share + (1 if k < odd else 0) for k, w in enumerate(winners_in_order)}


@dataclass(frozen=True, slots=True)
class Award:
    pot: int  # 0 = main pot
    seat: int
    amount: int
    hand: HandValue | None  # None when the pot was won without a showdown


def pot_awards(
    pots: Sequence[Pot], values: Mapping[int, HandValue], left_order: Sequence[int]
) -> list[tuple[int, int, int, HandValue | None]]:
    """R23: who is paid what at showdown, side pots first and the main pot last, as (pot
    index, player index, chips, the winning hand or None when only one player could win the
    pot). ``values``: each contender's hand; ``left_order``: player indexes from the first seat
    left of the button, the order of the odd chips (R24)."""
    paid: list[tuple[int, int, int, HandValue | None]] = []
    for pot_index in range(len(pots) - 1, -1, -1):
        pot = pots[pot_index]
        if len(pot.eligible) == 1:
            paid.append((pot_index, pot.eligible[0], pot.amount, None))
            continue
        top = max(values[i].value for i in pot.eligible)
        winners = [i for i in left_order if i in pot.eligible and values[i].value == top]
        for i, amount in split_pot(pot.amount, winners).items():
            paid.append((pot_index, i, amount, values[i]))
    return paid
