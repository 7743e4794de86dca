"""Computer players. They decide from exactly what a person in their seat would see.

Contract used by the tables app (kept stable while the bots grow):

    decide(level, view, past, rng) -> Action

- ``level``: "easy", "medium" or "hard".
- ``view``: ``engine.views.game_view(game, seat)`` for the bot's own seat (its legal actions are
  in ``view["hand"]["legal"]``); a bare ``hand_view`` is accepted too.
- ``past``: ``engine.views.hand_view(hand, seat)`` of this game's finished hands, oldest first:
  the public history the bot remembers (rebuilt from stored hands after a restart).
- ``rng``: injected randomness (seeded in tests, ``new_rng()`` — seeded by ``secrets`` — in play).

Nothing in this package imports the hand or game state machines: a bot only ever gets the JSON
view, which holds no deck, no burnt cards and no hidden hole cards.

``decide_explained(level, view, past, rng) -> (Action, Reason)`` takes the same action as
``decide`` for the same generator, with the reason the bot noted while deciding
(:mod:`engine.bots.reasons`: its private motive and strength, and a public part).

``describe_opponents(past, seat)`` tells how a (hard) computer player in ``seat`` saw each
opponent during the game.

Modules: ``base`` (the spot a bot reads from its view), ``easy``, ``medium``, ``hard`` (the
three levels); the medium player's parts, which the hard one shares: ``medium_choice`` (its
settings, and the choice among valued options), ``medium_preflop`` (before the flop when nobody
has raised), ``medium_facing_raise`` (facing a raise before the flop) and ``medium_postflop``
(after the flop); ``counts`` (what each opponent did, counted hand by hand) and ``reads`` (the
rates a bot reads from those counts: what it has noticed of each opponent so far), ``ranges`` and
``preflop`` with ``preflop_data`` (starting-hand classes and their table), ``combos`` and
``sim`` (hands an opponent may hold, and equity against them), ``icm`` (tournament chip
values, and when calling all in is a must), ``reasons`` (why a bot did what it did).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots import easy, hard, medium, medium_choice
from engine.bots.base import Spot, read_spot
from engine.bots.reads import describe, model_from_past
from engine.bots.reasons import Notes, Reason

LEVELS = ("easy", "medium", "hard")

__all__ = ["LEVELS", "Reason", "decide", "decide_explained", "describe_opponents", "new_rng"]


def new_rng() -> random.Random:
    """A generator for live play, seeded from the operating system's secure source."""
    return random.Random(secrets.randbits(128))


def decide(
    level: str, view: Mapping[str, Any], past: Sequence[Mapping[str, Any]], rng: random.Random
) -> Action:
    """The action of the computer player of ``level`` whose seat's view is ``view``."""
    return _decide(level, read_spot(view), past, rng, None)


def decide_explained(
    level: str, view: Mapping[str, Any], past: Sequence[Mapping[str, Any]], rng: random.Random
) -> tuple[Action, Reason]:
    """``decide``'s action (the same for the same ``rng``) and why: what the bot noted while
    it decided (:mod:`engine.bots.reasons`)."""
    spot = read_spot(view)
    notes = Notes()
    action = _decide(level, spot, past, rng, notes)
    return action, notes.reason(spot, action)


def _decide(
    level: str, spot: Spot, past: Sequence[Mapping[str, Any]], rng: random.Random,
    notes: Notes | None,
) -> Action:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}")
    if level == "easy":
        return easy.decide(spot, rng, notes)
    if level == "medium":
        profiles = medium.noticed_profiles(spot, past)
        return medium.decide(spot, rng, profiles, medium_choice.MEDIUM, notes)
    return hard.decide(spot, past, rng, notes)


def describe_opponents(
    past: Sequence[Mapping[str, Any]], seat: int
) -> dict[int, dict[str, Any]]:
    """How the computer player in ``seat`` sees each opponent after the hands of ``past``.

    For every other seat that played: the raw rates (``vpip``, ``pfr``, ``aggression``,
    ``bet_rate``, ``fold_to_bet``, ``showdown``; ``None`` when never observed), the shrunk
    ``estimate`` the hard player uses, ``hands`` seen, a ``style`` code and an English
    ``summary`` such as "plays 45% of hands, calls often, rarely raises before the flop".
    """
    model = model_from_past(past, seat)
    players = len(past[-1]["players"]) if past else 6
    return describe(model, players)
