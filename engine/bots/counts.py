"""Counting what each opponent did in the hands of this game: the raw counts the reads are made
of (:class:`Counts`), one finished hand at a time (:func:`count_hand`), from the hand views the
bot's seat saw: the public actions, who went to showdown and the cards shown there. The rates
read from them, shrunk towards a typical player's, are in :mod:`engine.bots.reads`.

Counted per opponent (the usual poker statistics):

- **VPIP**: hands in which they put chips in voluntarily before the flop (of hands in which they
  had a choice: a walk or a big blind's free check after limps is not one);
- **PFR**: hands in which they raised before the flop;
- **aggression**: bets and raises against calls after the flop;
- **bet rate**: bets and raises among all their actions after the flop (checks and folds too),
  which says how wide the range they bet with is;
- **fold to bet**: how often they folded when facing a bet or raise after the flop;
- **showdown**: of the hands in which they saw the flop, how often they went to showdown;
- **re-raise**: how often they raised when facing a raise before the flop, which says how wide
  their three-bets and four-bets are;
- **opens**: how often they raised when nobody had raised before them, against how often a
  typical player raises from the same seats (``preflop.OPEN``): the width of their opening range,
  apart from their re-raises (PFR mixes both: a player who opens most hands and seldom
  re-raises has a typical PFR heads-up);
- **calls of a raise**: how often they called when facing one raise, against how often a typical
  player calls in the same spots (``preflop.call_width``): the width of their calling range
  (VPIP mixes it with their opens);
- **fold again**: how often they folded to a bet after having called a bet on an earlier street
  of the same hand (a player whose calls mean strength seldom does);
- from the hands they **showed** at showdown: how many of their calls after the flop were made
  with weak hands (under the middle of all hands on that board) and how many of their bets and
  raises were bluffs of that kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from engine.bots.base import STREET_INDEX
from engine.bots.combos import COMBO_INDEX, board_strength, card_ids
from engine.bots.preflop import call_width, open_width
from engine.events import AGGRESSIVE, VOLUNTARY, PreflopCount

_Number = TypeVar("_Number", int, float)


def _beyond(zero: _Number) -> _Number:
    """A count of :class:`Counts` beyond the usual statistics, from ``zero``: it takes no part
    in comparing two Counts, which stays about the usual statistics."""
    return field(default=zero, compare=False)


@dataclass(frozen=True, slots=True)
class Counts:
    hands: int = 0  # hands with a preflop decision
    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0  # postflop bets and raises
    calls: int = 0  # postflop calls
    decisions: int = 0  # every postflop action (checks and folds too)
    faced: int = 0  # postflop decisions facing a bet or raise
    folded: int = 0  # ... that were folds
    flops: int = 0  # hands in which they saw the flop
    showdowns: int = 0  # ... and went to showdown
    # The reads beyond the usual statistics (:func:`_beyond`).
    pre_faced: int = _beyond(0)  # preflop decisions facing a raise
    pre_reraised: int = _beyond(0)  # ... that were raises
    faced_again: int = _beyond(0)  # postflop bets faced after calling one on an earlier street
    folded_again: int = _beyond(0)  # ... and the folds to them
    # In hands whose cards they showed:
    shown_calls: int = _beyond(0)  # postflop calls
    shown_weak_calls: int = _beyond(0)  # ... made with a weak hand
    shown_bets: int = _beyond(0)  # postflop bets and raises
    shown_bluffs: int = _beyond(0)  # ... made with a weak hand
    # Preflop chances to open (the first to raise; limpers before them allowed, not the big
    # blind's free option), and the opens made; and the opens a typical player would have made
    # in the same seats (the sum of ``preflop.open_width`` over the chances).
    open_chances: int = _beyond(0)
    opens: int = _beyond(0)
    open_expected: float = _beyond(0.0)
    # Preflop decisions facing exactly one raise, the calls among them, and the calls a typical
    # player would have made (the sum of ``preflop.call_width``).
    call_chances: int = _beyond(0)
    raise_calls: int = _beyond(0)
    call_expected: float = _beyond(0.0)

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(Counts)))


# A hand under this made-hand percentile on the board is "weak" (a call or bet with it is loose).
WEAK = 0.5


def count_hand(hand: Mapping[str, Any]) -> dict[int, Counts]:
    """The statistics one finished hand adds for each seat dealt in."""
    counting = _Counting(hand)
    for event in hand["events"]:
        counting.see(event)
    return counting.result()


# The per-seat counts of Counts that a hand adds one at a time as its actions come.
_TALLIED = (
    "aggressive", "calls", "decisions", "faced", "folded", "pre_faced", "pre_reraised",
    "faced_again", "folded_again", "shown_calls", "shown_weak_calls", "shown_bets",
    "shown_bluffs", "open_chances", "opens", "call_chances", "raise_calls",
)


class _Counting:
    """The walk through one hand's events behind :func:`count_hand`: the betting so far, the
    shared preflop count (VPIP, PFR: :class:`engine.events.PreflopCount`) and each seat's
    tallies."""

    def __init__(self, hand: Mapping[str, Any]) -> None:
        self.hand = hand
        self.seats = seats = [int(p["seat"]) for p in hand["players"]]
        self.folded = {int(p["seat"]): bool(p["folded"]) for p in hand["players"]}
        self.shown = _shown_combos(hand)
        self.big_blind = int(hand.get("big_blind", 0))
        self.big_blind_seat = hand.get("big_blind_seat")
        n = len(seats)
        button = int(hand.get("button", seats[0]))
        self.at_button = seats.index(button) if button in seats else 0
        start = self.at_button + (3 if n > 2 else 0)
        self.order = [seats[(start + k) % n] for k in range(n)]  # preflop acting order
        self.preflop = PreflopCount()
        self.decided: set[int] = set()  # seats with a preflop choice
        self.opened: set[int] = set()  # seats whose first preflop action has been counted
        self.saw_flop = False
        self.tally = {s: dict.fromkeys(_TALLIED, 0) for s in seats}
        self.open_expected = dict.fromkeys(seats, 0.0)
        self.call_expected = dict.fromkeys(seats, 0.0)
        self.called_on: dict[int, set[int]] = {s: set() for s in seats}  # streets with a call
        self.board: list[int] = []
        self.strength_now: Any = None  # every combo's made-hand percentile on the board so far
        self.round_bet: dict[int, int] = {}
        self.current = 0

    def see(self, e: Mapping[str, Any]) -> None:
        kind = e["kind"]
        if kind == "board":
            if e["street"] == "flop":
                self.saw_flop = True
            self.board.extend(card_ids(e["cards"]))
            self.strength_now = None
            self.round_bet = {}
            self.current = 0
        elif kind in ("post_sb", "post_bb"):
            seat = int(e["seat"])
            self.round_bet[seat] = int(e.get("to", 0))
            self.current = max(self.current, self.round_bet[seat], self.big_blind)
        elif kind == "action":
            seat = int(e["seat"])
            street = STREET_INDEX[e["street"]]
            if street == 0:
                self._preflop(seat, e["action"])
            elif seat in self.tally:
                self._postflop(seat, e["action"], street)
            if "to" in e:
                self.round_bet[seat] = int(e["to"])
                self.current = max(self.current, self.round_bet[seat])

    def _preflop(self, seat: int, action: str) -> None:
        if action != "check":
            # A big blind's free check after limps is, like a walk, no choice about paying to
            # play: it says nothing of how many hands they put chips in with.
            self.decided.add(seat)
        if seat in self.tally:
            t = self.tally[seat]
            if self.current > self.big_blind > 0:
                t["pre_faced"] += 1
                t["pre_reraised"] += int(action in AGGRESSIVE)
            if seat not in self.opened:
                self.opened.add(seat)
                self._open_chance(seat, action)
            if self.preflop.raises == 1:
                self._call_chance(seat, action)
        self.preflop.add(seat, action)

    def _open_chance(self, seat: int, action: str) -> None:
        """The seat's first preflop action: a chance to open unless someone raised before it
        (limps allowed; the big blind's free option is none)."""
        free = seat == self.big_blind_seat and self.current <= self.round_bet.get(seat, 0)
        if self.current <= self.big_blind and not free:
            n = len(self.seats)
            t = self.tally[seat]
            t["open_chances"] += 1
            t["opens"] += int(action in AGGRESSIVE)
            self.open_expected[seat] += open_width(n, n - 1 - self.order.index(seat))

    def _call_chance(self, seat: int, action: str) -> None:
        """A preflop decision facing exactly one raise: did they call it, and how often a
        typical player in that seat, at that price, would have."""
        n = len(self.seats)
        distance = (self.seats.index(seat) - self.at_button) % n
        blind = distance in ((0, 1) if n == 2 else (1, 2))
        facing_bb = (self.current - self.round_bet.get(seat, 0)) / max(self.big_blind, 1)
        t = self.tally[seat]
        t["call_chances"] += 1
        t["raise_calls"] += int(action == "call")
        self.call_expected[seat] += call_width(n, blind, facing_bb)

    def _postflop(self, seat: int, action: str, street: int) -> None:
        t = self.tally[seat]
        facing = self.current > self.round_bet.get(seat, 0)
        t["decisions"] += 1
        if action in AGGRESSIVE:
            t["aggressive"] += 1
        elif action == "call":
            t["calls"] += 1
            self.called_on[seat].add(street)
        if facing:
            t["faced"] += 1
            t["folded"] += int(action == "fold")
            if any(s < street for s in self.called_on[seat]):
                t["faced_again"] += 1
                t["folded_again"] += int(action == "fold")
        combo = self.shown.get(seat)
        if combo is not None and action in VOLUNTARY and len(self.board) >= 3:
            self._shown_action(t, combo, action)

    def _shown_action(self, t: dict[str, int], combo: int, action: str) -> None:
        """A call, bet or raise after the flop with a hand shown later: weak or not."""
        if self.strength_now is None:
            self.strength_now = board_strength(tuple(self.board))[0]
        weak = float(self.strength_now[combo]) < WEAK
        if action == "call":
            t["shown_calls"] += 1
            t["shown_weak_calls"] += int(weak)
        else:
            t["shown_bets"] += 1
            t["shown_bluffs"] += int(weak)

    def result(self) -> dict[int, Counts]:
        still_in = [s for s in self.seats if not self.folded[s]]
        showdown = len(still_in) >= 2
        out: dict[int, Counts] = {}
        for seat in self.seats:
            # A player who folded preflop did not see the flop even if it was dealt.
            flop = self.saw_flop and _reached_flop(self.hand, seat)
            out[seat] = Counts(
                hands=1 if seat in self.decided else 0,
                vpip=1 if seat in self.preflop.voluntary else 0,
                pfr=1 if seat in self.preflop.raised else 0,
                flops=1 if flop else 0,
                showdowns=1 if flop and showdown and not self.folded[seat] else 0,
                open_expected=self.open_expected[seat],
                call_expected=self.call_expected[seat],
                **self.tally[seat],
            )
        return out


def _shown_combos(hand: Mapping[str, Any]) -> dict[int, int]:
    """The combo index of every player whose cards the view shows (at showdown)."""
    out: dict[int, int] = {}
    for p in hand["players"]:
        cards = p.get("cards")
        if p.get("shown") and cards and len(cards) == 2:
            first, second = card_ids(cards)
            out[int(p["seat"])] = int(COMBO_INDEX[first, second])
    return out


def _reached_flop(hand: Mapping[str, Any], seat: int) -> bool:
    for e in hand["events"]:
        if e["kind"] == "board":
            return True
        if e["kind"] == "action" and int(e["seat"]) == seat and e["action"] == "fold":
            return False
    return False


__all__ = ["WEAK", "Counts", "count_hand"]
