"""A hand from elsewhere (a PHH file), replayed with this table's rules for the replayer.

``foreign_hand(text)`` reads one no-limit hold'em hand in PHH (engine.phh), plays it again
through the same checks as live play and returns what the replayer draws: the seats, the
button, the blinds and the events, with exactly the hole cards the file gives. Cards this
table had to make up to deal the hand (the ``????`` of someone else's hand) never appear; a
hand mucked at showdown whose cards the file hides is given the weakest cards left, and the
replay is refused if this table would show it or pay it (``replay_phh(mucked_lose=True)``).
Anything this table cannot play is refused with ``PhhError`` and a reason for a person.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.events import DEAL_HOLE, Event
from engine.hand import Hand
from engine.phh import PhhError
from engine.phh.read import read_phh
from engine.phh.replay import replay_phh

MAX_BYTES = 64 * 1024  # one hand is a few kilobytes; a file larger than this is refused
NAME_LENGTH = 20


@dataclass(frozen=True, slots=True)
class ForeignHand:
    hand: Hand
    names: dict[int, str]  # seat -> the name the file gives (else p1, p2...)
    viewer: int | None  # the one player whose own cards the file was written with, if any
    number: int | str | None  # the file's hand number or name, if it gives one
    events: list[dict[str, Any]]  # the hand's events with the file's hole cards only

    def replay_data(self) -> dict[str, Any]:
        """What the replayer draws (templates/history/replayer.html), less the log lines."""
        hand = self.hand
        return {
            "seats": [
                {"seat": s, "name": self.names[s], "stack": stack}
                for s, stack in zip(hand.seats, hand.settings.stacks, strict=True)
            ],
            "button": hand.settings.button,
            "small_blind": hand.settings.small_blind,
            "big_blind": hand.settings.big_blind,
            "viewer": self.viewer,
            "events": self.events,
        }


def foreign_hand(text: str) -> ForeignHand:
    """Read and replay one PHH hand; ``PhhError`` says why when this table cannot."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise PhhError(f"the file is larger than {MAX_BYTES // 1024} KB: give one hand")
    phh = read_phh(text)
    hand = replay_phh(phh, mucked_lose=True).hand
    # Hole cards the file deals face up (a player's own, or all of them in a full history);
    # cards it only shows at the end are shown when this table shows them (R28).
    dealt: dict[int, list[str]] = {}
    for action in phh.actions:
        if action.verb == "dh" and action.player is not None:
            given = dealt.setdefault(phh.seats[action.player], [])
            given.extend(str(c) if c is not None else "" for c in action.cards)
    known = {seat: tuple(cards) for seat, cards in dealt.items() if all(cards) and len(cards) == 2}
    names = {
        seat: (phh.players[k].strip()[:NAME_LENGTH] if phh.players else "") or f"p{k + 1}"
        for k, seat in enumerate(phh.seats)
    }
    events = []
    for event in hand.events:
        if event.kind == DEAL_HOLE and event.seat is not None:
            # The engine's cards for this seat are the file's, or made up: only the file's show.
            event = Event(DEAL_HOLE, seat=event.seat, cards=known.get(event.seat, ()))
        events.append(event.to_dict())
    viewer = next(iter(known)) if len(known) == 1 else None
    return ForeignHand(hand, names, viewer, phh.hand, events)
