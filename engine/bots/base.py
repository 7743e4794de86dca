"""What a computer player reads from its seat's view, and how it turns a wish into a legal action.

:func:`read_spot` takes the JSON view of one seat (``engine.views.hand_view``, or the game view
holding it) and nothing else: the bot's own two cards, the board, the stacks and bets, and the
public actions of this hand. The opponents' cards are not in that view until they are shown,
the deck and the burnt cards never are, so a bot cannot use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, ActionKind
from engine.bots.combos import card_ids

STREET_INDEX = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    stack: int  # chips behind
    bet: int  # chips in front this round
    in_pot: int  # chips put in this hand
    folded: bool
    all_in: bool


@dataclass(frozen=True, slots=True)
class Act:
    """One public action of the hand, with what the actor faced when taking it."""

    seat: int
    street: int  # 0 preflop .. 3 river
    kind: str  # fold, check, call, bet, raise (an all in is one of these with all_in set)
    to: int  # the actor's round total after the action
    added: int
    all_in: bool
    pot_before: int  # every chip in the pot (this round's bets included) before the action
    facing: int  # chips the actor had to add to call
    level: int  # bets and raises already made this round (preflop the big blind counts as one)
    current_bet: int  # the round's biggest bet before the action


@dataclass(slots=True)
class Spot:
    """Everything the seat to act knows, in the form the bots use."""

    me: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    street: int
    small_blind: int
    big_blind: int
    button: int
    seats: list[SeatInfo]  # everyone dealt in, in seat order
    acts: list[Act]  # this hand's public actions, in order
    pot: int  # every chip committed this hand, this round's bets included
    current_bet: int
    legal: dict[str, Any]
    board_by_street: dict[int, tuple[int, ...]] = field(default_factory=dict)

    # ------------------------------------------------------------ seats and positions
    @property
    def n(self) -> int:
        return len(self.seats)

    def info(self, seat: int) -> SeatInfo:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    @property
    def mine(self) -> SeatInfo:
        return self.info(self.me)

    @property
    def to_call(self) -> int:
        return int(self.legal["call"])

    @property
    def opponents(self) -> list[SeatInfo]:
        """Opponents still in the hand."""
        return [s for s in self.seats if s.seat != self.me and not s.folded]

    def distance_from_button(self, seat: int) -> int:
        """0 for the button, 1 for the next seat to its left, and so on."""
        order = [s.seat for s in self.seats]
        return (order.index(seat) - order.index(self.button)) % self.n

    def preflop_order(self) -> list[int]:
        """Seats in preflop acting order (left of the big blind first; heads-up the button)."""
        order = [s.seat for s in self.seats]
        start = 0 if self.n == 2 else 3 % self.n
        b = order.index(self.button)
        return [order[(b + start + k) % self.n] for k in range(self.n)]

    def behind_preflop(self, seat: int) -> int:
        """How many players act after ``seat`` in the first preflop round."""
        order = self.preflop_order()
        return len(order) - 1 - order.index(seat)

    def postflop_order(self) -> list[int]:
        order = [s.seat for s in self.seats]
        b = order.index(self.button)
        return [order[(b + 1 + k) % self.n] for k in range(self.n)]

    def in_position(self) -> bool:
        """True when every opponent still in acts before the bot after the flop."""
        live = [s for s in self.postflop_order() if not self.info(s).folded]
        return bool(live) and live[-1] == self.me

    def effective_stack(self) -> int:
        """The most the bot can win or lose from one opponent: its chips against the biggest
        opponent's, counting the chips already in front this round."""
        mine = self.mine.stack + self.mine.bet
        others = [s.stack + s.bet for s in self.opponents]
        return min(mine, max(others, default=0))

    # ------------------------------------------------------------ the betting so far
    def street_acts(self, street: int) -> list[Act]:
        return [a for a in self.acts if a.street == street]

    def level(self) -> int:
        """Bets and raises made this round so far (preflop the big blind counts as one)."""
        aggressive = sum(1 for a in self.street_acts(self.street) if a.kind in ("bet", "raise"))
        return aggressive + (1 if self.street == 0 else 0)

    def last_aggressor(self, street: int) -> int | None:
        for a in reversed(self.street_acts(street)):
            if a.kind in ("bet", "raise"):
                return a.seat
        return None


def read_spot(view: Mapping[str, Any]) -> Spot:
    """The bot's picture of the hand from its seat's view (a game view or a hand view)."""
    hand = view["hand"] if "hand" in view and "players" not in view else view
    if hand is None or hand.get("legal") is None:
        raise ValueError("the computer player is not to act")
    legal = hand["legal"]
    me = int(legal["seat"])
    seats = [
        SeatInfo(
            int(p["seat"]), int(p["stack"]), int(p["bet"]), int(p["in_pot"]),
            bool(p["folded"]), bool(p["all_in"]),
        )
        for p in hand["players"]
    ]
    own = next(p for p in hand["players"] if p["seat"] == me)
    hole = card_ids(own["cards"])
    board = tuple(card_ids(hand["board"]))
    acts, by_street = _public_actions(hand["events"], int(hand["big_blind"]))
    return Spot(
        me=me,
        hole=(hole[0], hole[1]),
        board=board,
        street=STREET_INDEX[hand["street"]],
        small_blind=int(hand["small_blind"]),
        big_blind=int(hand["big_blind"]),
        button=int(hand["button"]),
        seats=seats,
        acts=acts,
        pot=int(hand["pot_total"]),
        current_bet=int(hand["current_bet"]),
        legal=legal,
        board_by_street=by_street,
    )


def _public_actions(
    events: list[dict[str, Any]], big_blind: int
) -> tuple[list[Act], dict[int, tuple[int, ...]]]:
    """Replay the public events of a hand into :class:`Act` records (and the board by street)."""
    acts: list[Act] = []
    pot = 0
    bets: dict[int, int] = {}
    current = 0
    level = 0
    street = 0
    board: list[int] = []
    by_street: dict[int, tuple[int, ...]] = {0: ()}
    for e in events:
        kind = e["kind"]
        if kind in ("post_sb", "post_bb"):
            seat = int(e["seat"])
            amount = int(e.get("amount", 0))
            pot += amount
            bets[seat] = bets.get(seat, 0) + amount
            current = max(current, big_blind if kind == "post_bb" else bets[seat])
            level = 1
        elif kind == "board":
            street = STREET_INDEX[e["street"]]
            board.extend(card_ids(e["cards"]))
            by_street[street] = tuple(board)
            bets = {}
            current = 0
            level = 0
        elif kind == "uncalled":
            pot -= int(e.get("amount", 0))
        elif kind == "action":
            seat = int(e["seat"])
            name = e["action"]
            added = int(e.get("amount", 0))
            mine = bets.get(seat, 0)
            acts.append(
                Act(
                    seat=seat,
                    street=STREET_INDEX[e["street"]],
                    kind=name,
                    to=int(e.get("to", mine)),
                    added=added,
                    all_in=bool(e.get("all_in", False)),
                    pot_before=pot,
                    facing=max(0, current - mine),
                    level=level,
                    current_bet=current,
                )
            )
            pot += added
            if added:
                bets[seat] = mine + added
            if name in ("bet", "raise"):
                current = max(current, bets[seat])
                level += 1
    return acts, by_street


# ------------------------------------------------------------------ building legal actions
def fold_or_check(spot: Spot) -> Action:
    if spot.legal["check"]:
        return Action(spot.me, ActionKind.CHECK)
    return Action(spot.me, ActionKind.FOLD)


def check_or_call(spot: Spot) -> Action:
    if spot.legal["check"]:
        return Action(spot.me, ActionKind.CHECK)
    return Action(spot.me, ActionKind.CALL)


def bet_to(spot: Spot, amount: float) -> Action:
    """Bet or raise to about ``amount`` (a round total), kept inside what the rules allow; when
    the bot may not bet or raise, it calls (or checks) instead."""
    legal = spot.legal
    kind = legal["bet_or_raise"]
    if kind is None or legal["min_to"] is None or legal["max_to"] is None:
        return check_or_call(spot)
    target = max(int(legal["min_to"]), round(amount))
    # Round to a whole big blind when far above it, as people do.
    if target > 4 * spot.big_blind:
        unit = spot.big_blind if target < 40 * spot.big_blind else spot.big_blind * 5
        target = max(int(legal["min_to"]), round(target / unit) * unit)
    if target >= int(legal["max_to"]) * 0.92:
        return Action(spot.me, ActionKind.ALL_IN)
    return Action(spot.me, ActionKind(kind), target)


def all_in(spot: Spot) -> Action:
    legal = spot.legal
    if legal["bet_or_raise"] is None:
        return check_or_call(spot)
    return Action(spot.me, ActionKind.ALL_IN)
