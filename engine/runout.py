"""The run-out of a hand whose cards were all turned face up (R21, R28): the odds at each
street still to come.

When betting stops with someone all in, every hand still in is shown and the rest of the board
is dealt. From that moment each hand's chance is public knowledge: :func:`runout` gives, for
the board as it was when the hands were turned up and after each street dealt since, every
shown hand's chance to win and to split (:func:`engine.odds.table_odds`). It reads only cards
everybody saw: the shown hands and the board, never a folded hand, the deck or a burnt card.

The chance is that of holding the best hand among those still in (the main pot); a side pot
between fewer players can go to a hand that loses the main pot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card, parse_cards
from engine.events import BOARD, SHOW
from engine.hand import Hand
from engine.odds import Odds, table_odds

__all__ = ["Stage", "runout", "runout_dict", "runout_streets"]


@dataclass(frozen=True, slots=True)
class Stage:
    """The odds with ``board`` cards of the final board out (0 preflop, 3 flop, 4 turn)."""

    board: int
    odds: Odds


def _shown_at_once(hand: Hand) -> tuple[list[tuple[int, list[Card]]], int] | None:
    """The hands turned up together before the board was finished, and how many board cards
    were out then; None when the hand did not end that way."""
    shown: list[tuple[int, list[Card]]] = []
    board = 0
    for event in hand.events:
        if event.kind == BOARD:
            if shown:
                return shown, board
            board += len(event.cards)
        elif event.kind == SHOW and event.seat is not None:
            shown.append((event.seat, parse_cards(list(event.cards))))
    return None  # shown after the river (or never): there was nothing left to come


def runout_streets(hand: Hand) -> int:
    """How many streets were dealt after every hand was turned face up (0 to 3): what a table
    pauses on. Reads the events only; no odds are worked out."""
    if not hand.finished:
        return 0
    found = _shown_at_once(hand)
    return 0 if found is None else sum(1 for n in (0, 3, 4) if n >= found[1])


def runout(hand: Hand) -> tuple[list[int], list[Stage]]:
    """The seats whose hands were turned up, and the odds at each street dealt after that
    (empty when the hand did not end with hands face up before the river). ``hand`` must be
    finished."""
    if not hand.finished:
        raise ValueError("the run-out of a hand is known once it is over")
    found = _shown_at_once(hand)
    if found is None:
        return [], []
    shown, out = found
    seats = [seat for seat, _ in shown]
    holes = [cards for _, cards in shown]
    stages = [
        Stage(n, table_odds(holes, hand.board[:n])) for n in (0, 3, 4) if n >= out
    ]
    return seats, stages


def runout_dict(hand: Hand) -> dict[str, Any] | None:
    """:func:`runout` for pages and frames, compact (figures in tenths of a percent):
    ``{"seats": [2, 5], "stages": [{"board": 0, "win": [811, 186], "split": [4, 4],
    "method": "simulated", "boards": 40000, "margin": 0.38}, ...]}``, or None."""
    seats, stages = runout(hand)
    if not stages:
        return None
    return {
        "seats": seats,
        "stages": [{"board": s.board, **s.odds.to_dict()} for s in stages],
    }
