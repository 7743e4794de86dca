"""The medium computer player: solid, position-aware, deciding by expected value.

Preflop it follows a plan by hand strength, position and stack depth: open the right share of
hands for its seat, three-bet or call a raise when its equity against the raiser's likely hands
pays, push or fold when short. After the flop it deals the opponents' likely hands many times
(:mod:`engine.bots.sim`) and compares checking, calling, folding and a few bet sizes, counting
the bets an opponent would fold to (the weakest part of his range) and the equity against the
hands that would call. Bluffs come out of the same sums, so they are occasional.

Every opponent is read with the typical profile of the table size. The hard player
(:mod:`engine.bots.hard`) runs the same code with a profile of each opponent.

This module is the player's entry (:func:`decide`) and what it remembers of the opponents in a
hand (:func:`noticed_profiles`). Its settings and the choice among valued options are in
:mod:`engine.bots.medium_choice`; its decisions before the flop in
:mod:`engine.bots.medium_preflop` and :mod:`engine.bots.medium_facing_raise`; after the flop in
:mod:`engine.bots.medium_postflop`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.bots.base import Spot
from engine.bots.medium_choice import ProfileOf, Settings
from engine.bots.medium_postflop import decide_postflop
from engine.bots.medium_preflop import decide_preflop
from engine.bots.reads import Profile, model_from_past
from engine.bots.reasons import Notes


def decide(
    spot: Spot, rng: random.Random, profile_of: ProfileOf, settings: Settings,
    notes: Notes | None = None,
) -> Action:
    """``notes``: written as the bot decides, when it is to explain itself (never changes the
    decision: :mod:`engine.bots.reasons`)."""
    if spot.street == 0:
        return decide_preflop(spot, rng, profile_of, settings, notes)
    return decide_postflop(spot, rng, profile_of, settings, notes)


def noticed_profiles(spot: Spot, past: Sequence[Mapping[str, Any]]) -> ProfileOf:
    """The typical profile for everyone, with what a solid player remembers of a player who
    calls a bet after the flop in this hand again: how often he folds to bets and how often he
    bets (a player seen calling everything down is not bluffed off his hand, and his checks do
    not make his hand weak if he never bets anyway); and of a player who re-raises in this hand
    again, how often he re-raises."""
    typical = Profile.typical(spot.n)
    callers = {a.seat for a in spot.acts if a.street >= 1 and a.kind == "call"}
    reraisers = {a.seat for a in spot.acts if a.street == 0 and a.kind == "raise" and a.level >= 2}
    if not past or not (callers or reraisers):
        return lambda seat: typical
    model = model_from_past(past, spot.me)

    def profile_of(seat: int) -> Profile:
        if seat not in callers and seat not in reraisers:
            return typical
        seen = model.profile(seat, spot.n)
        noticed = typical
        if seat in reraisers:  # how often he re-raises: a maniac's re-raises are not a rock's
            noticed = replace(noticed, reraise=seen.reraise)
        if seat in callers:
            noticed = replace(
                noticed,
                fold_to_bet=seen.fold_to_bet,
                fold_again=seen.fold_again,
                # and how seldom he bets: a player who never bets does not check only weak hands
                bet_rate=seen.bet_rate,
                aggression=seen.aggression,
            )
        return noticed

    return profile_of
