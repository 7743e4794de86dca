"""A PHH hand played again with this engine (``replay_phh``): the deck rebuilt from the file's
cards, each action applied through ``Hand.act``, and a readable reason when this table's rules
refuse one or an unknown hand would have to be compared at showdown."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import ActionError, ActionKind
from engine.cards import ALL_CARDS, Card
from engine.evaluator import evaluate
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.phh import PhhError
from engine.phh.read import PhhAction, PhhHand


@dataclass(frozen=True, slots=True)
class PhhReplay:
    """A PHH hand played again with this engine."""

    phh: PhhHand
    hand: Hand

    @property
    def seats(self) -> tuple[int, ...]:
        return self.phh.seats

    @property
    def starting_stacks(self) -> list[int]:
        return list(self.phh.starting_stacks)

    @property
    def finishing_stacks(self) -> list[int]:
        final = self.hand.final_stacks
        return [final[seat] for seat in self.phh.seats]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.phh.player_count,
            "starting_stacks": self.starting_stacks,
            "finishing_stacks": self.finishing_stacks,
        }


def replay_phh(phh: PhhHand, *, mucked_lose: bool = False) -> PhhReplay:
    """Play a PHH hand again with this table's rules, applying each action through ``Hand.act``.

    The deck is rebuilt from the cards in the file; unknown cards (``????``, missing deals) are
    filled with cards seen nowhere else, which is harmless for any hand never compared at
    showdown. Show and muck lines are information only (this table decides showing by R28); the
    cards they show fill in unknown hole cards. Raises ``PhhError`` naming the action and the
    table's reason when an action is illegal here, or when an unknown hand must be compared.

    ``mucked_lose`` (the replayer): a hand mucked at showdown whose cards the file does
    not give (a player's own export: opponents' mucked hands stay hidden) gets the weakest
    cards left instead, so that it loses here too (R28 mucks only a hand that cannot win); the
    replay is refused if this table would then show that hand or pay it.
    """
    n = phh.player_count
    holes, board = _known_cards(phh)
    invented = _fill_mucked(phh, holes, board) if mucked_lose else set()
    deck = _build_deck(holes, board)
    order = sorted(range(n), key=lambda k: phh.seats[k])
    settings = HandSettings(
        hand_number=phh.hand if isinstance(phh.hand, int) else 1,
        seats=tuple(phh.seats[k] for k in order),
        stacks=tuple(phh.starting_stacks[k] for k in order),
        button=phh.seats[-1],
        small_blind=phh.small_blind,
        big_blind=phh.big_blind,
    )
    hand = Hand(settings, deck)
    label = {seat: f"p{k + 1}" for k, seat in enumerate(phh.seats)}

    dealt = 0
    for action in phh.actions:
        if action.verb == "db":
            dealt += len(action.cards)
            if dealt > len(hand.board) or (dealt < len(hand.board) and not hand.finished):
                waiting = hand.seat_to_act
                if hand.finished:
                    why = "the hand is already over at this table"
                elif waiting is not None and dealt > len(hand.board):
                    why = f"{label[waiting]} is still to act in this betting round"
                else:
                    why = f"this table has {len(hand.board)} board card(s) out at this point"
                raise PhhError(f"{action.describe()} does not fit this table's play: {why}")
        elif action.verb in ("f", "cc", "cbr"):
            assert action.player is not None
            _act(hand, phh.seats[action.player], action, label)
    if not hand.finished:
        waiting = hand.seat_to_act
        who = f": {label[waiting]} is to act" if waiting is not None else ""
        raise PhhError(f"the file ends before the hand is over{who}")

    for seat in hand.shown_seats() | {award.seat for award in hand.awards}:
        if phh.seats.index(seat) in invented:
            raise PhhError(
                f"{label[seat]}'s hole cards are not in the file, but this table shows them at "
                "showdown"
            )
    contenders = [hand.seats[i] for i in hand.in_hand]
    if len(contenders) > 1:
        for seat in contenders:
            k = phh.seats.index(seat)
            if None in holes[k]:
                raise PhhError(
                    f"{label[seat]}'s hole cards are not in the file, but this table must "
                    "compare them at showdown"
                )
        if None in board:
            known = sum(c is not None for c in board)
            raise PhhError(
                f"the file gives {known} of the 5 board cards, but this table must compare "
                "hands at showdown"
            )
    return PhhReplay(phh, hand)


def _act(hand: Hand, seat: int, action: PhhAction, label: Mapping[int, str]) -> None:
    legal = hand.legal_actions()
    if legal is not None and legal.seat != seat:
        raise PhhError(
            f"{action.describe()} is illegal at this table: {label[legal.seat]} is to act, "
            f"not {label[seat]}"
        )
    kind: ActionKind
    amount = None
    if action.verb == "f":
        kind = ActionKind.FOLD
    elif action.verb == "cc":
        kind = ActionKind.CHECK if legal is None or legal.can_check else ActionKind.CALL
    else:
        amount = action.amount
        if legal is not None and amount == legal.all_in_to:
            kind, amount = ActionKind.ALL_IN, None
        else:
            kind = ActionKind.BET if hand.current_bet == 0 else ActionKind.RAISE
    try:
        hand.act(seat, kind, amount)
    except ActionError as exc:
        raise PhhError(f"{action.describe()} is illegal at this table: {exc.message}") from None


def _known_cards(phh: PhhHand) -> tuple[list[list[Card | None]], list[Card | None]]:
    """Each player's two hole cards and the five board cards as far as the file tells them."""
    n = phh.player_count
    dealt: list[list[Card | None]] = [[] for _ in range(n)]
    shown: list[list[Card]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    for action in phh.actions:
        if action.verb == "dh":
            assert action.player is not None
            dealt[action.player].extend(action.cards)
            if len(dealt[action.player]) > 2:
                raise PhhError(f"{action.describe()}: a player gets two hole cards in hold'em")
        elif action.verb == "db":
            board.extend(action.cards)
            if len(board) > 5:
                raise PhhError(f"{action.describe()}: the board has only five cards")
        elif action.verb == "sm":
            assert action.player is not None
            if len(action.cards) > 2:
                raise PhhError(f"{action.describe()}: a player has only two hole cards")
            shown[action.player].extend(c for c in action.cards if c is not None)

    holes: list[list[Card | None]] = []
    for k in range(n):
        cards = dealt[k] + [None] * (2 - len(dealt[k]))
        for card in shown[k]:
            if card in cards:
                continue
            if None not in cards:
                raise PhhError(
                    f"p{k + 1} shows {card} but was dealt {''.join(str(c) for c in cards)}"
                )
            cards[cards.index(None)] = card
        holes.append(cards)
    board += [None] * (5 - len(board))

    seen: set[Card] = set()
    for maybe in [c for cards in holes for c in cards] + board:
        if maybe is None:
            continue
        if maybe in seen:
            raise PhhError(f"the card {maybe} appears twice in the hand")
        seen.add(maybe)
    return holes, board


def _fill_mucked(
    phh: PhhHand, holes: list[list[Card | None]], board: Sequence[Card | None]
) -> set[int]:
    """Give each player who mucked at showdown with cards the file does not give the weakest
    cards left with this board; returns those players (``replay_phh(mucked_lose=True)``)."""
    mucked = [
        k for k in dict.fromkeys(
            a.player for a in phh.actions if a.verb == "sm" and not a.cards
        ) if k is not None and None in holes[k]
    ]
    if not mucked or None in board:
        return set()  # without the whole board nothing can be compared: refused later
    known_board = [c for c in board if c is not None]
    used = {c for cards in holes for c in cards if c is not None} | set(known_board)
    for k in mucked:
        have = [c for c in holes[k] if c is not None]
        spare = [c for c in ALL_CARDS if c not in used]
        missing = 2 - len(have)
        picks = (
            [(a,) for a in spare] if missing == 1
            else [(a, b) for i, a in enumerate(spare) for b in spare[i + 1 :]]
        )
        weakest = min(picks, key=lambda pick: evaluate([*have, *pick, *known_board]).value)
        holes[k] = [*have, *weakest]
        used.update(weakest)
    return set(mucked)


def _build_deck(holes: Sequence[Sequence[Card | None]], board: Sequence[Card | None]) -> list[Card]:
    """A deck that deals this table's way (R11: one card at a time from p1, then a burn before
    the flop, the turn and the river) the cards of the file; unknown places get unused cards."""
    n = len(holes)
    slots: list[Card | None] = [None] * 52
    for k, cards in enumerate(holes):
        slots[k], slots[n + k] = cards[0], cards[1]
    base = 2 * n
    for place, card in zip((1, 2, 3, 5, 7), board, strict=True):
        slots[base + place] = card
    used = {c for c in slots if c is not None}
    spare: Iterator[Card] = (c for c in ALL_CARDS if c not in used)
    return [c if c is not None else next(spare) for c in slots]
