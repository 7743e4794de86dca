"""What one seat (or a spectator) may see: plain JSON-ready data, nothing hidden leaks.

A seat sees its own hole cards, other players' cards only once shown at showdown, and never the
deck, burnt cards or mucked hands. The full event list is filtered the same way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.cards import Card
from engine.evaluator import HandValue, evaluate
from engine.events import DEAL_HOLE, SHOW, Event
from engine.game import Game
from engine.hand import STREETS, Hand


def visible_events(
    hand: Hand, viewer: int | None, start: int = 0
) -> list[dict[str, Any]]:
    """The hand's events (from the ``start``-th on) as ``viewer`` (a seat number, or None for
    a spectator) may see them."""
    out = []
    for event in hand.events[start:]:
        if event.kind == DEAL_HOLE and event.seat != viewer:
            event = Event(DEAL_HOLE, seat=event.seat)
        out.append(event.to_dict())
    return out


def shown_cards(hand: Hand) -> dict[int, list[str]]:
    return {e.seat: list(e.cards) for e in hand.events if e.kind == SHOW and e.seat is not None}


def hand_view(hand: Hand, viewer: int | None, *, events: bool = True) -> dict[str, Any]:
    """The running or finished hand as ``viewer`` sees it. ``events=False`` leaves out the
    event list (``events`` is then None; ``event_count`` is always there)."""
    shown = shown_cards(hand)
    players = []
    for i, seat in enumerate(hand.seats):
        if seat == viewer:
            cards: list[str] | None = [str(c) for c in hand.hole[i]]
        else:
            cards = shown.get(seat)
        players.append(
            {
                "seat": seat,
                "stack": hand.stack[i],
                "bet": hand.bet[i],
                "in_pot": hand.total[i],
                "folded": hand.folded[i],
                "all_in": hand.is_all_in(i),
                "cards": cards,
                "shown": seat in shown,
            }
        )
    legal = hand.legal_actions()
    view: dict[str, Any] = {
        "hand_number": hand.settings.hand_number,
        "small_blind": hand.settings.small_blind,
        "big_blind": hand.settings.big_blind,
        "button": hand.settings.button,
        "small_blind_seat": hand.seats[hand.small_blind_index],
        "big_blind_seat": hand.seats[hand.big_blind_index],
        "street": STREETS[hand.street],
        "board": [str(c) for c in hand.board],
        "players": players,
        "pots": [
            {"amount": p.amount, "seats": [hand.seats[i] for i in p.eligible]}
            for p in (hand.pots if hand.finished else hand.current_pots())
        ],
        "pot_total": sum(hand.total) if not hand.finished else sum(a.amount for a in hand.awards),
        "to_act": hand.seat_to_act,
        "current_bet": hand.current_bet,
        "legal": legal.to_dict() if legal is not None and legal.seat == viewer else None,
        "finished": hand.finished,
        "awards": [
            {
                "pot": a.pot,
                "seat": a.seat,
                "amount": a.amount,
                "hand": a.hand.name if a.hand else None,
                "hand_key": a.hand.key if a.hand else None,
                "cards": [str(c) for c in a.hand.cards] if a.hand else [],
            }
            for a in hand.awards
        ],
        "events": visible_events(hand, viewer) if events else None,
        "event_count": len(hand.events),
    }
    if viewer is not None and viewer in hand.seats:
        _add_own(view, hand, viewer)
    return view


@lru_cache(maxsize=4096)
def _best(cards: tuple[Card, ...]) -> HandValue:
    """The best five of a seat's cards and the board; the same at every change of a street,
    for every phone drawn: worked out once."""
    return evaluate(cards)


def _add_own(view: dict[str, Any], hand: Hand, viewer: int) -> None:
    i = hand.seats.index(viewer)
    own = hand.hole[i] + tuple(hand.board)
    view["you"] = viewer
    best = _best(own) if len(own) >= 5 else None
    view["your_best"] = best.key if best else None
    view["your_best_name"] = best.name if best else None


def game_view(game: Game, viewer: int | None, *, events: bool = True) -> dict[str, Any]:
    """The table as ``viewer`` sees it: seats, blinds, the current or last hand, standings.
    ``events=False``: without the hand's event list (drawing a table needs only its length)."""
    small, big = game.blinds
    view: dict[str, Any] = {
        "hand_number": game.hand_number,
        "level": game.level + 1,
        "small_blind": small,
        "big_blind": big,
        "hands_to_next_level": game.hands_to_next_level(),
        "button": game.button,
        "finished": game.finished,
        "seats": [
            {
                "seat": st.seat,
                "stack": st.stack,
                "is_person": st.is_person,
                "out": st.stack == 0 and st.out_hand is not None,
            }
            for st in game.seats.values()
        ],
        "hand": hand_view(game.hand, viewer, events=events) if game.hand is not None else None,
        "standings": [s.to_dict() for s in game.standings()] if game.finished else None,
        "viewer": viewer,
    }
    return view


def view_for(public: dict[str, Any], game: Game, viewer: int | None) -> dict[str, Any]:
    """``game_view(game, viewer, events=False)``, made from ``public``, the spectator's
    ``game_view(game, None, events=False)`` of the same game: what one seat sees beyond what
    everyone sees is its own hole cards, its legal actions and its best hand. A table drawn for
    six phones works out the public part once. ``public`` is not changed (nor copied deeply:
    treat both as read-only)."""
    view = dict(public)
    view["viewer"] = viewer
    hand = game.hand
    if hand is None or viewer is None or viewer not in hand.seats:
        return view
    i = hand.seats.index(viewer)
    seen = dict(public["hand"])
    players = list(seen["players"])
    players[i] = {**players[i], "cards": [str(c) for c in hand.hole[i]]}
    seen["players"] = players
    if hand.seat_to_act == viewer:
        legal = hand.legal_actions()
        seen["legal"] = legal.to_dict() if legal is not None and legal.seat == viewer else None
    _add_own(seen, hand, viewer)
    view["hand"] = seen
    return view
