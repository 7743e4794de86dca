"""Shared tools for the engine's rule tests: stacked decks, quick hands, scripted play.

Our deal order (R11): two passes of one card each, starting with the first player to the left
of the button, then burn, flop (3), burn, turn, burn, river. ``stacked_deck`` builds a full
52-card deck that deals exactly the chosen hole cards and board under that order; any card not
chosen comes from the rest of the deck in its fixed order.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.actions import ActionError, ActionKind, LegalActions
from engine.cards import Card, new_deck, parse_cards
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.hand_settings import HandSettings


def deal_order(seats: Sequence[int], button: int) -> list[int]:
    """Seats in the order they receive cards: the first one left of the button first."""
    ordered = sorted(seats)
    start = ordered.index(button) + 1
    return [ordered[(start + k) % len(ordered)] for k in range(len(ordered))]


def stacked_deck(
    seats: Sequence[int],
    button: int,
    holes: Mapping[int, str] | None = None,
    board: str = "",
) -> list[Card]:
    """A deck whose deal gives ``holes[seat]`` (e.g. ``"AsKd"``) and the ``board`` (up to five
    cards, flop first). Seats without chosen cards, the burns and the rest are filled in."""
    holes = holes or {}
    order = deal_order(seats, button)
    unknown = set(holes) - set(order)
    if unknown:
        raise ValueError(f"seats {sorted(unknown)} are not dealt in")
    chosen_holes = {seat: parse_cards(text) for seat, text in holes.items()}
    board_cards = parse_cards(board) if board else []
    if len(board_cards) > 5 or any(len(c) != 2 for c in chosen_holes.values()):
        raise ValueError("two hole cards per seat and at most five board cards")
    used = [c for cards in chosen_holes.values() for c in cards] + board_cards
    if len(set(used)) != len(used):
        raise ValueError("a card is chosen twice")
    spare = iter([c for c in new_deck() if c not in set(used)])

    n = len(order)
    slots: list[Card | None] = [None] * 52
    for k, seat in enumerate(order):
        if seat in chosen_holes:
            slots[k], slots[n + k] = chosen_holes[seat]
    board_slots = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7]  # burns at 2n, 2n+4, 2n+6
    for slot, card in zip(board_slots, board_cards, strict=False):
        slots[slot] = card
    deck = [card if card is not None else next(spare) for card in slots]
    assert len(set(deck)) == 52
    return deck


def make_hand(
    stacks: Mapping[int, int],
    button: int,
    blinds: tuple[int, int] = (10, 20),
    holes: Mapping[int, str] | None = None,
    board: str = "",
    hand_number: int = 1,
) -> Hand:
    """A hand among ``stacks`` (seat -> chips) with a stacked deck."""
    seats = tuple(sorted(stacks))
    settings = HandSettings(
        hand_number=hand_number,
        seats=seats,
        stacks=tuple(stacks[s] for s in seats),
        button=button,
        small_blind=blinds[0],
        big_blind=blinds[1],
    )
    return Hand(settings, stacked_deck(seats, button, holes, board))


def play(table: Hand | Game, *steps: str) -> None:
    """Apply scripted actions such as ``"3 raise 100"``, ``"0 call"``, ``"1 all_in"`` to a hand
    or, through ``Game.act`` (which settles the finished hand), to a game."""
    for step in steps:
        seat, kind, *amount = step.split()
        table.act(int(seat), kind, int(amount[0]) if amount else None)


def check_down(hand: Hand) -> None:
    """Play the hand out passively: check when possible, otherwise call."""
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None, "the hand is not finished but nobody is to act"
        hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)


def snapshot(hand: Hand) -> dict[str, Any]:
    """A deep copy of every attribute of the hand, to show a refused action changed nothing."""
    return copy.deepcopy(vars(hand))


def refused(hand: Hand, seat: int, kind: str, amount: object = None) -> ActionError:
    """Try an action that must be refused; prove the hand did not change and return the error."""
    before = snapshot(hand)
    with pytest.raises(ActionError) as err:
        hand.act(seat, kind, amount)
    assert snapshot(hand) == before
    assert len(err.value.message) > 10 and err.value.message.endswith(".")
    return err.value


def events_of(hand: Hand, kind: str) -> list[Any]:
    return [e for e in hand.events if e.kind == kind]


def next_hand_deck(
    game: Game, holes: Mapping[int, str] | None = None, board: str = ""
) -> list[Card]:
    """A stacked deck for the game's next hand (uses the game's own choice of button)."""
    button = game._choose_button()
    return stacked_deck(game.players_with_chips, button, holes, board)


def a_game(
    persons: dict[int, bool], button: int, stacks: dict[int, int] | None = None,
    settings: GameSettings | None = None,
) -> Game:
    """A game of these seats (seat -> whether a person sits there) with a fixed generator, the
    button on ``button`` and the ``stacks`` given (seat -> chips) set."""
    game = Game(settings or GameSettings(), persons, rng=random.Random(1))
    game.button = button
    for seat, chips in (stacks or {}).items():
        game.seats[seat].stack = chips
    return game


def deal(game: Game, holes: dict[int, str], board: str) -> Hand:
    """The game's next hand, dealt from a deck stacked with these hole cards and board."""
    return game.start_hand(deck=next_hand_deck(game, holes, board))


def fold_to_big_blind(game: Game) -> Hand:
    """Deal one hand in which everyone folds or checks: the big blind takes the blinds."""
    hand = game.start_hand(seed=game.hand_number)
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        game.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.FOLD)
    return hand


def random_pick(
    legal: LegalActions, roll: float, raise_below: float, fold_below: float
) -> tuple[ActionKind, int | None]:
    """A random legal action from one ``roll`` in [0, 1): a bet or raise to the least allowed
    below ``raise_below``, a fold facing a bet below ``fold_below``, else a check or a call."""
    if legal.bet_or_raise is not None and legal.min_to is not None and roll < raise_below:
        return legal.bet_or_raise, legal.min_to
    if legal.call and roll < fold_below:
        return ActionKind.FOLD, None
    return (ActionKind.CHECK if legal.can_check else ActionKind.CALL), None


def random_hand(game: Game, rng: random.Random, raise_below: float, fold_below: float) -> Hand:
    """The next hand of ``game`` dealt from ``rng`` and played out by ``random_pick``."""
    hand = game.start_hand(seed=rng.getrandbits(64))
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        game.act(legal.seat, *random_pick(legal, rng.random(), raise_below, fold_below))
    return hand


def legal_now(game: Game) -> LegalActions:
    """What the seat to act in ``game``'s running hand may do."""
    hand = game.hand
    assert hand is not None
    legal = hand.legal_actions()
    assert legal is not None
    return legal
