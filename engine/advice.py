"""What a player could have known at each of their own decisions: the price of a
call, their chance against the other hands, their hand and its draws.

Everything here is worked out from one seat's point of view: its own two cards, the board as it
was, the public actions, and the hands that were turned face up at the table before the hand
ended (shown at the showdown, so the player saw them too). A hand that was never shown is
replaced by a *range*: the combos the hard computer player's model
(:mod:`engine.bots.ranges`, with a profile built from the earlier hands as this seat saw them)
would give that player after their actions in this hand. Nothing reads a folded or mucked hand,
the deck or a burnt card, so nothing here can tell a player more than they saw.

Also :func:`hand_help`: the same figures for a player about to act (the table's hint button),
where nobody's cards are known but one's own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.bots import ranges
from engine.bots.base import Spot, read_spot
from engine.bots.combos import COMBOS
from engine.bots.reads import OpponentModel, model_from_past
from engine.cards import ALL_CARDS, Card, parse_card
from engine.equity import Range, equity
from engine.evaluator import Category, evaluate
from engine.events import ACTION, SHOW
from engine.hand import Hand
from engine.odds import table_odds
from engine.views import hand_view

__all__ = ["Decision", "Draw", "HandHelp", "decisions", "hand_help", "outs"]

TRIALS = 3000  # per figure: within about ±1.8 points (95%); seeded, so a page is stable


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards still unseen that would make a straight or a flush (or better) with a hole card."""

    kind: str  # "flush", "open_ended" (8 or more straight cards) or "gutshot"
    outs: int  # how many unseen cards do it (flush and straight cards counted once)
    by_river: float  # the chance one of them comes by the river (0..1)


@dataclass(frozen=True, slots=True)
class HandHelp:
    """A player's spot in figures."""

    street: str
    hand: dict[str, Any] | None  # HandValue.key of the best hand so far (None preflop)
    draws: list[Draw]
    to_call: int
    pot: int  # every chip in the pot before the call, bets of this round included
    need: float | None  # the share of the time a call must win to pay (None: nothing to call)
    equity: float  # expected share of the pot against the other hands (0..1)
    against: str  # "shown": every hand still in was shown; "range": some are ranges
    ranged: list[int] = field(default_factory=list)  # seats whose hands were read as a range
    known: list[int] = field(default_factory=list)  # seats whose shown hands were counted

    def to_dict(self) -> dict[str, Any]:
        return {
            "street": self.street,
            "hand": self.hand,
            "draws": [
                {"kind": d.kind, "outs": d.outs, "by_river": round(d.by_river, 3)}
                for d in self.draws
            ],
            "to_call": self.to_call,
            "pot": self.pot,
            "need": None if self.need is None else round(self.need, 3),
            "equity": round(self.equity, 3),
            "against": self.against,
            "ranged": self.ranged,
            "known": self.known,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the viewer's actions and the spot it was taken in."""

    event: int  # index of the action in the hand's events
    action: str  # fold, check, call, bet, raise
    amount: int  # chips added
    help: HandHelp


def outs(hole: Sequence[Card], board: Sequence[Card]) -> list[Draw]:
    """The straight and flush draws of ``hole`` on a flop or turn ``board`` that a hole card
    is part of; none once the hand is a straight or better, none preflop or on the river."""
    if len(board) not in (3, 4):
        return []
    now = evaluate([*hole, *board])
    if now.category >= Category.STRAIGHT:
        return []
    seen = {*hole, *board}
    flush: list[Card] = []
    straight: list[Card] = []
    for card in ALL_CARDS:
        if card in seen:
            continue
        made = evaluate([*hole, *board, card]).category
        if made < Category.STRAIGHT or made in (Category.FULL_HOUSE, Category.FOUR_OF_A_KIND):
            continue  # pairing up is not a draw here: only straights and flushes count
        if len(board) == 4 and evaluate([*board, card]).category >= Category.STRAIGHT:
            continue  # the board alone would make it: everyone has it
        if made in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            flush.append(card)
        else:
            straight.append(card)
    unseen = 52 - len(seen)
    draws = []
    if flush:
        draws.append(("flush", len(flush)))
    if straight:
        draws.append(("open_ended" if len(straight) >= 8 else "gutshot", len(straight)))
    total = len(flush) + len(straight)
    out: list[Draw] = []
    for kind, count in draws:
        # Alone for a single draw; a combined draw reports every card that completes either.
        n = count if len(draws) == 1 else total
        out.append(Draw(kind, count, _by_river(n, unseen, 5 - len(board))))
    return out


def _by_river(outs_left: int, unseen: int, to_come: int) -> float:
    if to_come <= 0 or outs_left <= 0:
        return 0.0
    miss = math.comb(unseen - outs_left, to_come) / math.comb(unseen, to_come)
    return 1.0 - miss


def _combo_range(weights: Any) -> dict[tuple[Card, Card], float]:
    return {
        (ALL_CARDS[int(a)], ALL_CARDS[int(b)]): float(w)
        for (a, b), w in zip(COMBOS, weights, strict=True)
        if w > 0
    }


def hand_help(
    spot: Spot, known: Mapping[int, Sequence[Card]], model: OpponentModel | None,
    rng: random.Random, trials: int = TRIALS,
) -> HandHelp:
    """The figures for the seat to act in ``spot``: ``known`` holds the hands it may count as
    known (shown at the table), every other opponent still in is read as a range."""
    hole = [ALL_CARDS[spot.hole[0]], ALL_CARDS[spot.hole[1]]]
    board = [ALL_CARDS[c] for c in spot.board]
    opponents = [s.seat for s in spot.opponents]
    players = spot.n
    profile_of = model or OpponentModel()
    table: list[Range | None] = []
    ranged: list[int] = []
    for seat in opponents:
        if seat in known:
            a, b = known[seat]
            table.append({(a, b): 1.0})
        else:
            weights = ranges.estimate(spot, seat, profile_of.profile(seat, players))
            table.append(_combo_range(weights))
            ranged.append(seat)
    # A known hand is a range of one combo: equity() deals every range together, never two
    # hands sharing a card, and the board from the cards left.
    if not opponents:
        share = 1.0
    elif not ranged:
        # Every hand known: counted exactly from the flop on (engine.odds), as the table does.
        holes = [hole, *(list(known[seat]) for seat in opponents)]
        share = table_odds(holes, board).share[0]
    else:
        share = equity(hole, board, len(opponents), trials, rng, ranges=table)
    to_call = spot.to_call
    pot = spot.pot
    need = to_call / (pot + to_call) if to_call > 0 else None
    made = evaluate([*hole, *board]).key if len(board) >= 3 else None
    street = ("preflop", "flop", "turn", "river")[spot.street]
    return HandHelp(
        street, made, outs(hole, board), to_call, pot, need, share,
        "range" if ranged else "shown", ranged, [s for s in opponents if s in known],
    )


def decisions(
    hand: Hand, viewer: int, past: Sequence[Mapping[str, Any]] = (), trials: int = TRIALS,
) -> list[Decision]:
    """Every action ``viewer`` took in the finished ``hand``, with the spot it was taken in.
    ``past``: the earlier hands of the game as ``viewer`` saw them (``hand_view(h, viewer)``),
    from which the hard computer player's model reads the others' habits."""
    if not hand.finished:
        raise ValueError("a hand is explained once it is over")
    if viewer not in hand.seats:
        return []
    shown = {
        e.seat: [parse_card(c) for c in e.cards]
        for e in hand.events if e.kind == SHOW and e.seat is not None
    }
    model = model_from_past(past, viewer)
    replayed = Hand(hand.settings, hand.deck, hand.salt_key)
    out: list[Decision] = []
    for action in hand.actions:
        if action.seat == viewer:
            view = hand_view(replayed, viewer)
            spot = read_spot(view)
            rng = random.Random(hand.settings.hand_number * 1009 + len(replayed.events))
            known = {s: cards for s, cards in shown.items() if s != viewer}
            help_ = hand_help(spot, known, model, rng, trials)
            before = len(replayed.events)
            _act(replayed, action)
            event = next(
                i for i in range(before, len(replayed.events))
                if replayed.events[i].kind == ACTION and replayed.events[i].seat == viewer
            )
            taken = replayed.events[event]
            out.append(Decision(event, taken.action, taken.amount, help_))
        else:
            _act(replayed, action)
    return out


def _act(hand: Hand, action: Action) -> None:
    hand.act(action.seat, action.kind, action.amount)

