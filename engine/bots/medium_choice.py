"""The medium computer player's settings, and how it chooses among the options it has valued.

:class:`Settings` holds what sets the medium and hard players apart (``MEDIUM`` is the medium
player's; :mod:`engine.bots.hard` has its own). Both decide by valuing each option (an
:class:`Option`, before the flop in :mod:`engine.bots.medium_preflop` and
:mod:`engine.bots.medium_facing_raise`, after it in :mod:`engine.bots.medium_postflop`) and
taking the best, now and then a close second (:func:`choose`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.bots.reads import Profile
from engine.bots.reasons import Notes

ProfileOf = Callable[[int], Profile]


@dataclass(frozen=True, slots=True)
class Settings:
    trials: int = 400
    adapt: bool = False  # widen steals and thin value against what the profiles show
    mistakes: float = 0.06  # chance to take a close second-best option
    # How much of the folding the profiles predict the bot believes in when it bets: the
    # medium player doubts that people fold, so it bluffs only now and then.
    fold_belief: float = 0.75
    icm: bool = False  # near the end of a game, calls of an all in priced in places (icm.py)


MEDIUM = Settings()


def note_read(notes: Notes | None, seat: int, stat: str, profile: Profile) -> None:
    """Note the habit ``stat`` of the player in ``seat`` that the decision used, if the bot
    has seen them play (a typical player's habits are no read)."""
    if notes is not None and profile.counts.hands > 0:
        notes.read(seat, stat, getattr(profile, stat), profile.counts.hands)


# ------------------------------------------------------------------ choosing among options
# Two options whose values differ by less than this share of the pot are close: the bot may take
# the second (``Settings.mistakes``).
CLOSE_EV = 0.08


@dataclass(frozen=True, slots=True)
class Option:
    ev: float
    action: Action


def choose(
    options: Sequence[Option], rng: random.Random, settings: Settings, pot: int,
    notes: Notes | None = None,
) -> Action:
    ranked = sorted(options, key=lambda o: o.ev, reverse=True)
    close = len(ranked) > 1 and ranked[1].ev >= ranked[0].ev - CLOSE_EV * pot
    second = close and rng.random() < settings.mistakes
    if notes is not None:
        notes.weighed([(o.action, o.ev) for o in ranked], second)
    if second:
        return ranked[1].action
    return ranked[0].action

