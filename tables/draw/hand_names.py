"""A hand's name in the page's language ("Two pair, kings and sevens"), from the engine's key.

The engine names hands in English (``HandValue.name``) and gives a key for translation
(``HandValue.key``: ``{"category": "two_pair", "ranks": [13, 7]}``). Templates draw it with
``components/hand_name.html`` and the action log with :func:`hand_name`: one set of sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

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


# Each category's sentence (translated when drawn): %(sa)s names the first rank ("ace"),
# %(pa)s and %(pb)s the first and second in the plural ("aces", "kings").
_SENTENCES = {
    "royal_flush": gettext_noop("Royal flush"),
    "straight_flush": gettext_noop("Straight flush, %(sa)s high"),
    "four_of_a_kind": gettext_noop("Four of a kind, %(pa)s"),
    "full_house": gettext_noop("Full house, %(pa)s full of %(pb)s"),
    "flush": gettext_noop("Flush, %(sa)s high"),
    "straight": gettext_noop("Straight, %(sa)s high"),
    "three_of_a_kind": gettext_noop("Three of a kind, %(pa)s"),
    "two_pair": gettext_noop("Two pair, %(pa)s and %(pb)s"),
    "pair": gettext_noop("Pair of %(pa)s"),
    "high_card": gettext_noop("High card, %(sa)s"),
}


def hand_name(key: Mapping[str, Any] | None) -> str:
    """The name for a key from ``HandValue.key`` (an empty string for no key)."""
    if not key:
        return ""
    category = key.get("category")
    ranks = [int(r) for r in key.get("ranks") or []] + [2, 2]
    a, b = ranks[0], ranks[1]
    sentence = _SENTENCES.get(str(category))
    if sentence is None:
        return ""
    return _(sentence) % {"sa": _single(a), "pa": _plural(a), "pb": _plural(b)}


def key_of(cards: Iterable[str]) -> dict[str, Any] | None:
    """The key of the best hand in five to seven card texts (None for fewer than five)."""
    parsed = [parse_card(c) for c in cards]
    if not 5 <= len(parsed) <= 7:
        return None
    return evaluate(parsed).key
