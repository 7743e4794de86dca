"""What a computer player has learnt about each opponent from the hands of this game.

Everything comes from the hand views the bot's seat saw (``past``): the public actions and who
went to showdown. The model is rebuilt from that list whenever needed, so a server restart
loses nothing; a small cache keyed by the list's length and content makes repeated calls cheap.

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

Each rate is shrunk towards a prior (what a typical player does at that table size) by adding a
few imaginary observations, so a handful of hands cannot make a player look extreme.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
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


@dataclass(frozen=True, slots=True)
class Rates:
    """A player's habits as rates: a typical player's (the prior of the reads, by table size)
    and, in a :class:`Profile`, one opponent's as read."""

    vpip: float
    pfr: float
    aggression: float = 0.55
    bet_rate: float = 0.35  # bets and raises among all their decisions after the flop
    fold_to_bet: float = 0.45
    showdown: float = 0.3
    reraise: float = 0.12  # raises when facing a raise before the flop
    fold_again: float = 0.3  # folds to a bet after calling one on an earlier street
    weak_calls: float = 0.3  # share of their calls after the flop made with weak hands


# What a typical, reasonable player does by number of players dealt in.
PRIORS: dict[int, Rates] = {
    2: Rates(vpip=0.62, pfr=0.4, reraise=0.16),
    3: Rates(vpip=0.45, pfr=0.3, reraise=0.12),
    4: Rates(vpip=0.36, pfr=0.24, reraise=0.1),
    5: Rates(vpip=0.3, pfr=0.2, reraise=0.09),
    6: Rates(vpip=0.27, pfr=0.18, reraise=0.08),
}

# How many imaginary observations of the prior each rate starts with.
WEIGHT_HANDS = 12.0
WEIGHT_ACTIONS = 10.0
WEIGHT_SPOTS = 8.0
WEIGHT_SHOWN = 4.0  # hands seen at showdown are few but say a lot
# A hand under this made-hand percentile on the board is "weak" (a call or bet with it is loose).
WEAK = 0.5


def prior_for(players: int) -> Rates:
    return PRIORS[min(max(players, 2), 6)]


@dataclass(frozen=True, slots=True)
class Profile(Rates):
    """One opponent as the bot sees them: rates shrunk towards the prior, and the raw counts."""

    counts: Counts = Counts()
    # their opens against a typical player's from the same seats (1: typical, 2: twice as wide)
    open_ratio: float = 1.0
    # their calls of one raise against a typical player's in the same spots
    call_ratio: float = 1.0

    @classmethod
    def of(cls, counts: Counts, prior: Rates) -> Profile:
        def shrink(hits: int, total: int, rate: float, weight: float) -> float:
            return (hits + rate * weight) / (total + weight)

        c = counts
        acted = c.aggressive + c.calls
        vpip = shrink(c.vpip, c.hands, prior.vpip, WEIGHT_HANDS)
        pfr = shrink(c.pfr, c.hands, prior.pfr, WEIGHT_HANDS)
        return cls(
            vpip=vpip,
            pfr=pfr,
            aggression=shrink(c.aggressive, acted, prior.aggression, WEIGHT_ACTIONS),
            bet_rate=shrink(c.aggressive, c.decisions, prior.bet_rate, WEIGHT_ACTIONS),
            fold_to_bet=shrink(c.folded, c.faced, prior.fold_to_bet, WEIGHT_SPOTS),
            showdown=shrink(c.showdowns, c.flops, prior.showdown, WEIGHT_SPOTS),
            counts=c,
            reraise=shrink(c.pre_reraised, c.pre_faced, prior.reraise, WEIGHT_SPOTS),
            fold_again=shrink(c.folded_again, c.faced_again, prior.fold_again, WEIGHT_SPOTS),
            weak_calls=shrink(c.shown_weak_calls, c.shown_calls, prior.weak_calls, WEIGHT_SHOWN),
            # The broader reads stand in for the narrow ones while they have few chances: how
            # often he raises at all for his opens, how many hands he plays for his calls.
            open_ratio=observed_ratio(c.opens, c.open_chances, c.open_expected, pfr / prior.pfr),
            call_ratio=observed_ratio(c.raise_calls, c.call_chances, c.call_expected,
                                      vpip / prior.vpip),
        )

    @classmethod
    def typical(cls, players: int) -> Profile:
        prior = prior_for(players)
        return cls(**{f.name: getattr(prior, f.name) for f in fields(Rates)})


def observed_ratio(made: int, chances: int, expected: float, toward: float = 1.0) -> float:
    """How much more often a player did something than a typical player in the same spots:
    ``made`` of ``chances`` against the ``expected`` count, with ``WEIGHT_HANDS`` imaginary
    chances added at ``toward`` times a typical player's rate (a credibility weighting: after a
    dozen chances the read is halfway from ``toward`` to what was seen). Opens: ``open_ratio``;
    calls of a raise: ``call_ratio``."""
    toward = min(max(toward, 0.15), 3.0)
    if chances == 0 or expected <= 0:
        return toward
    rate = expected / chances  # a typical player's rate at these chances
    return (made + WEIGHT_HANDS * rate * toward) / (expected + WEIGHT_HANDS * rate)


class OpponentModel:
    """Counts per opponent seat, from the hands the bot has seen."""

    def __init__(self, counts: Mapping[int, Counts] | None = None) -> None:
        self.counts: dict[int, Counts] = dict(counts or {})

    def profile(self, seat: int, players: int) -> Profile:
        return Profile.of(self.counts.get(seat, Counts()), prior_for(players))

    def add_hand(self, hand: Mapping[str, Any], me: int | None) -> None:
        for seat, counts in count_hand(hand).items():
            if seat != me:
                self.counts[seat] = self.counts.get(seat, Counts()) + counts

    def copy(self) -> OpponentModel:
        return OpponentModel(self.counts)


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


# ------------------------------------------------------------------ cached rebuild from past
_CACHE: OrderedDict[tuple[Any, ...], OpponentModel] = OrderedDict()
_CACHE_SIZE = 512
# Fingerprints of hand views already seen, by object identity; the view itself is kept so that
# its id cannot be reused by another object while the entry lives.
_SEEN: OrderedDict[int, tuple[Mapping[str, Any], int]] = OrderedDict()
_SEEN_SIZE = 2_000
# The last model built for each seat, with the fingerprints of the hands it counted.
_LAST: OrderedDict[int | None, tuple[tuple[int, ...], OpponentModel]] = OrderedDict()


def _fingerprint(hand: Mapping[str, Any]) -> int:
    """Tells hands apart: who was dealt in with what, and every event as this seat saw it."""
    found = _SEEN.get(id(hand))
    if found is not None and found[0] is hand:
        return found[1]
    events = tuple(
        (e["kind"], e.get("seat"), e.get("action"), e.get("to"), tuple(e.get("cards", ())))
        for e in hand["events"]
    )
    players = tuple((p["seat"], p["in_pot"], p["stack"], p["folded"]) for p in hand["players"])
    value = hash((hand.get("hand_number"), hand.get("button"), players, events))
    _SEEN[id(hand)] = (hand, value)
    while len(_SEEN) > _SEEN_SIZE:
        _SEEN.popitem(last=False)
    return value


def model_from_past(past: Sequence[Mapping[str, Any]], me: int | None) -> OpponentModel:
    """The model after the hands of ``past`` (oldest first), as seen from seat ``me``.

    Cached by the content of every hand; a list that grew by one hand since the last call only
    counts the new hand.
    """
    if not past:
        return OpponentModel()
    prints = tuple(_fingerprint(hand) for hand in past)
    key = (me, len(prints), hash(prints))
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    model: OpponentModel | None = None
    if len(past) > 1:
        earlier = _CACHE.get((me, len(prints) - 1, hash(prints[:-1])))
        if earlier is not None:
            model = earlier.copy()
            model.add_hand(past[-1], me)
    if model is None:
        # A seat that asks only now and then (the medium player) finds its last model here
        # and counts only the hands played since.
        last = _LAST.get(me)
        if last is not None and len(last[0]) < len(prints) and prints[: len(last[0])] == last[0]:
            model = last[1].copy()
            for hand in past[len(last[0]) :]:
                model.add_hand(hand, me)
        else:
            model = OpponentModel()
            for hand in past:
                model.add_hand(hand, me)
    _CACHE[key] = model
    _LAST[me] = (prints, model)
    _LAST.move_to_end(me)
    while len(_LAST) > _CACHE_SIZE:
        _LAST.popitem(last=False)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return model


def clear_cache() -> None:
    _CACHE.clear()
    _SEEN.clear()
    _LAST.clear()


# ------------------------------------------------------------------ words
def summary(profile: Profile) -> str:
    """A short English description such as "plays 45% of hands, calls often, rarely raises"."""
    c = profile.counts
    if c.hands == 0:
        return "not seen playing yet"
    raw_vpip = c.vpip / c.hands
    raw_pfr = c.pfr / c.hands
    parts = [f"plays {round(100 * raw_vpip)}% of hands"]
    postflop = c.aggressive + c.calls
    if postflop >= 3:
        if c.calls / postflop >= 0.65:
            parts.append("calls often")
        elif c.aggressive / postflop >= 0.65:
            parts.append("bets and raises often")
    if raw_pfr < 0.08 or (raw_vpip > 0 and raw_pfr / raw_vpip < 0.3):
        parts.append("rarely raises before the flop")
    elif raw_pfr >= 0.3:
        parts.append("raises a lot before the flop")
    if c.faced >= 3:
        rate = c.folded / c.faced
        if rate >= 0.6:
            parts.append("often folds to a bet")
        elif rate <= 0.25:
            parts.append("seldom folds to a bet")
    if c.flops >= 4 and c.showdowns / c.flops >= 0.5:
        parts.append("goes to showdown a lot")
    text = ", ".join(parts)
    if c.hands < 10:
        text += " (only a few hands seen)"
    return text


def style(profile: Profile) -> str:
    """A one-word style for the UI to translate: loose or tight, passive or aggressive."""
    loose = profile.vpip >= 0.4 if profile.counts.hands else False
    aggressive = profile.aggression >= 0.5 and profile.pfr >= 0.5 * profile.vpip
    if profile.counts.hands < 5:
        return "unknown"
    if loose and aggressive:
        return "loose_aggressive"
    if loose:
        return "loose_passive"
    if aggressive:
        return "tight_aggressive"
    return "tight_passive"


def describe(model: OpponentModel, players: int) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for seat in sorted(model.counts):
        profile = model.profile(seat, players)
        c = profile.counts

        def rate(hits: int, total: int) -> float | None:
            return round(hits / total, 3) if total else None

        out[seat] = {
            "hands": c.hands,
            "vpip": rate(c.vpip, c.hands),
            "pfr": rate(c.pfr, c.hands),
            "aggression": rate(c.aggressive, c.aggressive + c.calls),
            "bet_rate": rate(c.aggressive, c.decisions),
            "fold_to_bet": rate(c.folded, c.faced),
            "showdown": rate(c.showdowns, c.flops),
            "estimate": {
                "vpip": round(profile.vpip, 3),
                "pfr": round(profile.pfr, 3),
                "aggression": round(profile.aggression, 3),
                "bet_rate": round(profile.bet_rate, 3),
                "fold_to_bet": round(profile.fold_to_bet, 3),
                "showdown": round(profile.showdown, 3),
            },
            "style": style(profile),
            "summary": summary(profile),
        }
    return out


__all__ = [
    "Counts",
    "OpponentModel",
    "Profile",
    "Rates",
    "clear_cache",
    "count_hand",
    "describe",
    "model_from_past",
    "prior_for",
    "summary",
]
