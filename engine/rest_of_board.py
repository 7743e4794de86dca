"""What would have come (P5): the board cards a hand that ended before the river would have
dealt next, from that hand's deck, dealt as the hand deals (R11).

The deck is used in order: two hole cards for each of the ``players`` (cards 0 to 2n - 1),
then for each street one card burnt and the street's cards (flop 3, turn 1, river 1). Given how
many board cards were dealt (0, 3 or 4), :func:`rest_of_board` returns the cards that would
have completed the board, burning one before each street still to come; it never returns a
hole card or a burnt card. Whether anyone may see them is the caller's to say (after the hand,
for those dealt into it).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.hand import Hand

__all__ = ["RestOfBoardError", "rest_of_board", "rest_of_hand"]

_STREETS = (3, 1, 1)  # flop, turn, river
# Board cards dealt -> streets dealt.
_STREETS_DEALT = {0: 0, 3: 1, 4: 2}


class RestOfBoardError(ValueError):
    """A board that is complete or impossible: nothing would have come."""


def rest_of_board(deck: Sequence[Card], players: int, board_dealt: int) -> list[Card]:
    """The board cards still to come after ``board_dealt`` (0, 3 or 4) were dealt to a hand of
    ``players`` from ``deck``, with one card burnt before each street (R11)."""
    if board_dealt not in _STREETS_DEALT:
        raise RestOfBoardError(f"no street ends with {board_dealt} board cards")
    if players < 2 or 2 * players + 8 > len(deck):
        raise RestOfBoardError(f"a hand of {players} players cannot be dealt from this deck")
    done = _STREETS_DEALT[board_dealt]
    at = 2 * players + sum(1 + count for count in _STREETS[:done])
    rest: list[Card] = []
    for count in _STREETS[done:]:
        at += 1  # the burn
        rest.extend(deck[at:at + count])
        at += count
    return rest


def rest_of_hand(hand: Hand) -> list[Card]:
    """What would have come after ``hand``: nothing when it was not over or its board is full."""
    if not hand.finished or len(hand.board) >= 5:
        return []
    return rest_of_board(hand.deck, hand.n, len(hand.board))
