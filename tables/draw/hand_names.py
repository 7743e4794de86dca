"""A hand's name in the page's language ("Two pair, kings and sevens"), from the engine's key.

The engine names hands in English (``HandValue.name``) and gives a key for translation
(``HandValue.key``: ``{"category": "two_pair", "ranks": [13, 7]}``). Templates draw it with
``components/hand_name.html`` and the action log with :func:`hand_name`: one set of sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from engine.cards import parse_card
from engine.evaluator import evaluate


def _plural(rank: int) -> str:
    return {
        14: _("aces"), 13: _("kings"), 12: _("queens"), 11: _("jacks"), 10: _("tens"),
        9: _("nines"), 8: _("eights"), 7: _("sevens"), 6: _("sixes"), 5: _("fives"),
        4: _("fours"), 3: _("threes"),
    }.get(rank, _("twos"))


def _single(rank: int) -> str:
    return {
        14: _("ace"), 13: _("king"), 12: _("queen"), 11: _("jack"), 10: _("ten"),
        9: _("nine"), 8: _("eight"), 7: _("seven"), 6: _("six"), 5: _("five"),
        4: _("four"), 3: _("three"),
    }.get(rank, _("two"))


def hand_name(key: Mapping[str, Any] | None) -> str:
    """The name for a key from ``HandValue.key`` (an empty string for no key)."""
    if not key:
        return ""
    category = key.get("category")
    ranks = [int(r) for r in key.get("ranks") or []] + [2, 2]
    a, b = ranks[0], ranks[1]
    if category == "royal_flush":
        return _("Royal flush")
    if category == "straight_flush":
        return _("Straight flush, %(sa)s high") % {"sa": _single(a)}
    if category == "four_of_a_kind":
        return _("Four of a kind, %(pa)s") % {"pa": _plural(a)}
    if category == "full_house":
        return _("Full house, %(pa)s full of %(pb)s") % {"pa": _plural(a), "pb": _plural(b)}
    if category == "flush":
        return _("Flush, %(sa)s high") % {"sa": _single(a)}
    if category == "straight":
        return _("Straight, %(sa)s high") % {"sa": _single(a)}
    if category == "three_of_a_kind":
        return _("Three of a kind, %(pa)s") % {"pa": _plural(a)}
    if category == "two_pair":
        return _("Two pair, %(pa)s and %(pb)s") % {"pa": _plural(a), "pb": _plural(b)}
    if category == "pair":
        return _("Pair of %(pa)s") % {"pa": _plural(a)}
    if category == "high_card":
        return _("High card, %(sa)s") % {"sa": _single(a)}
    return ""


def key_of(cards: Iterable[str]) -> dict[str, Any] | None:
    """The key of the best hand in five to seven card texts (None for fewer than five)."""
    parsed = [parse_card(c) for c in cards]
    if not 5 <= len(parsed) <= 7:
        return None
    return evaluate(parsed).key
