"""Cards in standard notation (``As Td 2c``), display symbols and the shuffled deck (R2)."""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURALS = {r: ("sixes" if r == 6 else name + "s") for r, name in RANK_NAMES.items()}


class CardError(ValueError):
    """A card or list of cards that cannot be read."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 2..14 (ace high), ``suit`` one of ``shdc``.

    ``id`` is a dense 0..51 index (``(rank - 2) * 4 + suit index``) used by the evaluator.
    """

    rank: int
    suit: str
    id: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank not in RANK_NAMES or self.suit not in SUIT_SYMBOLS:
            raise CardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")
        object.__setattr__(self, "id", (self.rank - 2) * 4 + SUITS.index(self.suit))

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    @property
    def symbol(self) -> str:
        """The card for display, e.g. ``A♠`` or ``10♥``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 2]
        return rank + SUIT_SYMBOLS[self.suit]


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for r in range(2, 15) for s in SUITS)
"""The 52 cards, ``ALL_CARDS[c.id] is c``-equal for every card."""

_BY_TEXT = {str(c): c for c in ALL_CARDS}


def parse_card(text: str) -> Card:
    """Read one card such as ``As``, ``td`` or ``10h``."""
    cleaned = text.strip()
    if cleaned[:2] == "10":
        cleaned = "T" + cleaned[2:]
    card = _BY_TEXT.get(cleaned[:1].upper() + cleaned[1:].lower())
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write a rank from {RANKS} then a suit from {SUITS}, "
            "like As or Td"
        )
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards written with or without spaces (``"AsKd"``, ``"As Kd"``) or as a list."""
    if isinstance(text, str):
        compact = text.replace(",", " ").split()
        items: list[str] = []
        for chunk in compact:
            chunk = chunk.replace("10", "T")
            if len(chunk) % 2:
                raise CardError(f"{chunk!r} is not a list of cards like AsKd")
            items.extend(chunk[i : i + 2] for i in range(0, len(chunk), 2))
    else:
        items = list(text)
    cards = [parse_card(item) for item in items]
    if len(set(cards)) != len(cards):
        raise CardError(f"the same card appears twice in {format_cards(cards)!r}")
    return cards


def format_cards(cards: Iterable[Card], sep: str = " ") -> str:
    return sep.join(str(c) for c in cards)


def new_deck() -> list[Card]:
    """The 52 cards in a fixed order."""
    return list(ALL_CARDS)


_ORDERINGS = math.factorial(52)  # about 2**225.6
_DRAW_BITS = 232
_ACCEPT_BELOW = (2**_DRAW_BITS // _ORDERINGS) * _ORDERINGS


def secure_permutation_index() -> int:
    """A uniform choice among the 52! deck orders, from ``secrets`` (the OS's CSPRNG).

    One 232-bit draw replaces 51 separate calls; draws at or above the largest multiple of 52!
    are rejected (less than 1 in 30 of them) so every order stays exactly equally likely.
    """
    while True:
        draw = secrets.randbits(_DRAW_BITS)
        if draw < _ACCEPT_BELOW:
            return draw % _ORDERINGS


def deck_from_index(index: int) -> list[Card]:
    """The deck order numbered ``index`` (0 <= index < 52!), read as a factorial-base number."""
    remaining = list(ALL_CARDS)
    deck = []
    for size in range(52, 0, -1):
        index, pick = divmod(index, size)
        deck.append(remaining.pop(pick))
    return deck


def shuffled_deck(seed: int | None = None) -> list[Card]:
    """A uniformly shuffled deck (R2).

    Without a seed the order is drawn from ``secrets`` (the operating system's CSPRNG); a seed
    gives a reproducible deck for tests and simulations only.
    """
    if seed is None:
        return deck_from_index(secure_permutation_index())
    deck = new_deck()
    random.Random(seed).shuffle(deck)
    return deck


def deck_from_text(cards: Sequence[str]) -> list[Card]:
    """A full deck given in order (as stored in a hand history); must hold each card once."""
    deck = parse_cards(list(cards))
    if len(deck) != 52:
        raise CardError(f"a deck has 52 cards, this one has {len(deck)}")
    return deck
