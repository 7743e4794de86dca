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

# Each rank's word, alone and in the plural (translated when drawn); below a three, a two.
_RANKS = {
    14: (gettext_noop("ace"), gettext_noop("aces")),
    13: (gettext_noop("king"), gettext_noop("kings")),
    12: (gettext_noop("queen"), gettext_noop("queens")),
    11: (gettext_noop("jack"), gettext_noop("jacks")),
    10: (gettext_noop("ten"), gettext_noop("tens")),
    9: (gettext_noop("nine"), gettext_noop("nines")),
    8: (gettext_noop("eight"), gettext_noop("eights")),
    7: (gettext_noop("seven"), gettext_noop("sevens")),
    6: (gettext_noop("six"), gettext_noop("sixes")),
    5: (gettext_noop("five"), gettext_noop("fives")),
    4: (gettext_noop("four"), gettext_noop("fours")),
    3: (gettext_noop("three"), gettext_noop("threes")),
}
_TWO = (gettext_noop("two"), gettext_noop("twos"))


def _single(rank: int) -> str:
    return _(_RANKS.get(rank, _TWO)[0])


def _plural(rank: int) -> str:
    return _(_RANKS.get(rank, _TWO)[1])


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
