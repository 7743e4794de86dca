"""The statistics players know (VPIP, PFR, three-bet...), counted from what the table saw.

Everything here reads a hand's *public* events: the list a spectator is sent
(``engine.views.visible_events(hand, None)``), where no hole card appears until it is shown at
the showdown. A statistic therefore never depends on a card that was not shown, and whoever
could watch the table can recount every figure.

Definitions (the How to play page says the same in words):

- **hands**: hands the player was dealt into.
- **VPIP**: hands where the player put chips in preflop by choice (a call, bet or raise; posting a
  blind is not a choice). Sample: hands.
- **PFR**: hands where the player raised preflop. Sample: hands.
- **three-bet**: preflop, facing exactly one raise made by someone else, the player raised
  again. Sample: the hands where they acted facing exactly one raise.
- **fold to three-bet**: a fold to exactly the three-bet, as poker trackers count it: the
  player made the first preflop raise, someone else raised again (the three-bet), nobody raised
  after that, and the player's next action was a fold. A fold after a further raise (a four-bet
  by a third player) is not counted, and that hand is not in the sample. Sample: the hands where
  the player acted again facing exactly the three-bet.
- **aggression factor**: bets and raises divided by calls, on the flop, turn and river. Sample:
  those bets, raises and calls (no calls: no factor).
- **went to showdown**: of the hands where the player saw the flop (was still in when it was
  dealt), those where they reached the showdown (showed or mucked there). Sample: flops seen.
- **won at showdown**: of the showdowns reached, those where they won chips from a pot. Sample:
  showdowns.
- **chips won per 100 hands**: the chips won minus the chips put in, over every hand dealt,
  times 100 over hands. Sample: hands.
- **biggest pot won**: the most chips the player took from the pots in one hand. Sample: the
  hands where they took chips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from engine.cards import parse_cards
from engine.evaluator import evaluate
from engine.events import (
    ACTION,
    AGGRESSIVE,
    AWARD,
    BOARD,
    MUCK,
    POST_BIG_BLIND,
    POST_SMALL_BLIND,
    SHOW,
    UNCALLED,
    PreflopCount,
)
from engine.hand import Hand
from engine.views import visible_events

POSTFLOP = frozenset({"flop", "turn", "river"})


@dataclass(frozen=True, slots=True)
class PublicHand:
    """A finished hand as everyone at the table saw it: who was dealt in with what, and the
    spectator's events (no unshown hole card, no deck, no burnt card)."""

    number: int
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    big_blind: int
    events: tuple[Mapping[str, Any], ...]

    @classmethod
    def of(cls, hand: Hand) -> PublicHand:
        """The public side of an engine hand (a spectator's events only)."""
        settings = hand.settings
        return cls(
            settings.hand_number, settings.seats, settings.stacks, settings.big_blind,
            tuple(visible_events(hand, None)),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "seats": list(self.seats), "stacks": list(self.stacks),
            "big_blind": self.big_blind, "events": [dict(e) for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PublicHand:
        return cls(
            int(data["number"]), tuple(int(s) for s in data["seats"]),
            tuple(int(s) for s in data["stacks"]), int(data["big_blind"]),
            tuple(dict(e) for e in data["events"]),
        )


@dataclass(slots=True)
class Tally:
    """One player's counts over some hands; tallies add up (a game's, a season's)."""

    hands: int = 0  # dealt into: the sample of VPIP, PFR and chips won per 100 hands
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0  # the three-bet's sample (the definitions above)
    three_bets: int = 0
    fold_to_three_bet_chances: int = 0
    folds_to_three_bet: int = 0
    postflop_aggressive: int = 0  # bets and raises on the flop, turn and river
    postflop_calls: int = 0
    flops_seen: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    net: int = 0  # chips won minus chips put in
    pots_won: int = 0  # hands where the player took chips from a pot
    biggest_pot: int = 0

    def add(self, other: Tally) -> None:
        for f in fields(self):
            if f.name == "biggest_pot":
                self.biggest_pot = max(self.biggest_pot, other.biggest_pot)
            else:
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        names = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in names})


@dataclass(frozen=True, slots=True)
class Figure:
    """One statistic: its value (None: no sample yet) and the number of cases behind it.
    ``unit``: ``percent`` (0-100), ``ratio``, ``chips`` or ``count``."""

    key: str
    value: float | None
    sample: int
    unit: str


def _percent(count: int, sample: int) -> float | None:
    return 100.0 * count / sample if sample else None


def figures(t: Tally) -> list[Figure]:
    """A tally as the line of figures people read, each with its sample size."""
    return [
        Figure("hands", float(t.hands), t.hands, "count"),
        Figure("vpip", _percent(t.vpip, t.hands), t.hands, "percent"),
        Figure("pfr", _percent(t.pfr, t.hands), t.hands, "percent"),
        Figure("three_bet", _percent(t.three_bets, t.three_bet_chances),
               t.three_bet_chances, "percent"),
        Figure("fold_to_three_bet",
               _percent(t.folds_to_three_bet, t.fold_to_three_bet_chances),
               t.fold_to_three_bet_chances, "percent"),
        Figure("aggression",
               t.postflop_aggressive / t.postflop_calls if t.postflop_calls else None,
               t.postflop_aggressive + t.postflop_calls, "ratio"),
        Figure("showdown", _percent(t.showdowns, t.flops_seen), t.flops_seen, "percent"),
        Figure("won_showdown", _percent(t.showdowns_won, t.showdowns), t.showdowns, "percent"),
        Figure("per_100", 100.0 * t.net / t.hands if t.hands else None, t.hands, "chips"),
        Figure("biggest_pot", float(t.biggest_pot) if t.pots_won else None, t.pots_won,
               "chips"),
    ]


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand shown at the showdown, with the best five of its cards and the board."""

    seat: int
    cards: tuple[str, ...]  # the two hole cards shown
    best: tuple[str, ...]  # the five that make the hand
    name: str
    value: int
    key: dict[str, Any] = field(default_factory=dict)  # HandValue.key, for translation


@dataclass(slots=True)
class HandSummary:
    """What a season keeps of one hand: its pot, who took it, the hands shown, every seat's
    counts, and each seat's chips after it."""

    number: int
    pot: int
    winners: tuple[int, ...]
    shown: list[Shown]
    tallies: dict[int, Tally]
    after: dict[int, int] = field(default_factory=dict)


class _Preflop:
    """The preflop figures of one hand as its actions come: VPIP and PFR from the count the
    computer players' reads share (:class:`engine.events.PreflopCount`), three-bets, and folds
    to exactly the three-bet."""

    def __init__(self, tallies: dict[int, Tally]) -> None:
        self.tallies = tallies
        self.count = PreflopCount()
        # the opener's next action faces exactly the three-bet (no raise after it yet)
        self.opener_faces_three_bet = False

    def add(self, seat: int, name: str) -> None:
        t, count = self.tallies[seat], self.count
        if seat != count.opener and count.raises == 1:
            t.three_bet_chances = 1  # once a hand, however often they act
            if name in AGGRESSIVE:
                t.three_bets = 1
        if seat == count.opener and self.opener_faces_three_bet:
            t.fold_to_three_bet_chances = 1
            if name == "fold":
                t.folds_to_three_bet = 1
            self.opener_faces_three_bet = False
        count.add(seat, name)
        if name in AGGRESSIVE and count.raises > 1:
            # the three-bet, unless the opener raised himself; a four-bet ends the chance
            self.opener_faces_three_bet = count.raises == 2 and seat != count.opener

    def finish(self) -> None:
        for seat, t in self.tallies.items():
            t.vpip = int(seat in self.count.voluntary)
            t.pfr = int(seat in self.count.raised)


def _shown_hands(shown_cards: Mapping[int, tuple[str, ...]], board: list[str]) -> list[Shown]:
    """The hands shown at the showdown, each with its best five cards of the board."""
    shown: list[Shown] = []
    for seat, cards in shown_cards.items():
        if len(cards) + len(board) >= 5:
            value = evaluate(tuple(parse_cards("".join(cards + tuple(board)))))
            shown.append(Shown(seat, cards, tuple(str(c) for c in value.cards),
                               value.name, value.value, value.key))
    return shown


def summarize(hand: PublicHand) -> HandSummary:
    """Count one finished hand for every seat dealt in."""
    counting = _Counting(hand)
    for event in hand.events:
        counting.see(event)
    return counting.result()


class _Counting:
    """The walk through one hand's public events behind :func:`summarize`."""

    def __init__(self, hand: PublicHand) -> None:
        self.hand = hand
        self.tallies = {seat: Tally(hands=1) for seat in hand.seats}
        self.net = dict.fromkeys(hand.seats, 0)
        self.won = dict.fromkeys(hand.seats, 0)
        self.folded: set[int] = set()
        self.preflop = _Preflop(self.tallies)
        self.board: list[str] = []
        self.showed: set[int] = set()
        self.shown_cards: dict[int, tuple[str, ...]] = {}

    def see(self, event: Mapping[str, Any]) -> None:
        kind, seat = event.get("kind"), event.get("seat")
        amount = int(event.get("amount", 0))
        if kind == BOARD:
            self._board(event)
        elif not isinstance(seat, int):
            return
        elif kind in (POST_SMALL_BLIND, POST_BIG_BLIND):
            self.net[seat] -= amount
        elif kind == ACTION:
            self.net[seat] -= amount
            self._action(seat, event.get("action"), event.get("street"))
        elif kind == UNCALLED:
            self.net[seat] += amount
        elif kind in (SHOW, MUCK):
            self.showed.add(seat)
            if kind == SHOW:
                self.shown_cards[seat] = tuple(str(c) for c in event.get("cards", ()))
        elif kind == AWARD:
            self.net[seat] += amount
            self.won[seat] += amount

    def _action(self, seat: int, name: Any, street: Any) -> None:
        t = self.tallies[seat]
        if street == "preflop":
            self.preflop.add(seat, str(name))
        elif street in POSTFLOP:
            if name in AGGRESSIVE:
                t.postflop_aggressive += 1
            elif name == "call":
                t.postflop_calls += 1
        if name == "fold":
            self.folded.add(seat)

    def _board(self, event: Mapping[str, Any]) -> None:
        if event.get("street") == "flop":
            for s in self.hand.seats:
                if s not in self.folded:
                    self.tallies[s].flops_seen += 1
        self.board.extend(str(c) for c in event.get("cards", ()))

    def result(self) -> HandSummary:
        hand, net, won = self.hand, self.net, self.won
        self.preflop.finish()
        for seat, t in self.tallies.items():
            t.net = net[seat]
            if won[seat]:
                t.pots_won, t.biggest_pot = 1, won[seat]
            if seat in self.showed:
                t.showdowns = 1
                t.showdowns_won = 1 if won[seat] else 0
        start = dict(zip(hand.seats, hand.stacks, strict=True))
        return HandSummary(
            hand.number, sum(won.values()), tuple(s for s in hand.seats if won[s]),
            _shown_hands(self.shown_cards, self.board), self.tallies,
            {s: start[s] + net[s] for s in hand.seats},
        )


def total(summaries: Iterable[HandSummary]) -> dict[int, Tally]:
    """Every seat's counts over these hands."""
    out: dict[int, Tally] = {}
    for summary in summaries:
        for seat, t in summary.tallies.items():
            out.setdefault(seat, Tally()).add(t)
    return out


def summary_to_dict(s: HandSummary) -> dict[str, Any]:
    return {
        "number": s.number, "pot": s.pot, "winners": list(s.winners),
        "shown": [asdict(x) for x in s.shown],
        "tallies": {str(k): v.to_dict() for k, v in s.tallies.items()},
        "after": {str(k): v for k, v in s.after.items()},
    }


def summary_from_dict(data: Mapping[str, Any]) -> HandSummary:
    return HandSummary(
        int(data["number"]), int(data["pot"]), tuple(int(w) for w in data["winners"]),
        [Shown(int(x["seat"]), tuple(x["cards"]), tuple(x["best"]), str(x["name"]),
               int(x["value"]), dict(x.get("key") or {})) for x in data["shown"]],
        {int(k): Tally.from_dict(v) for k, v in data["tallies"].items()},
        {int(k): int(v) for k, v in data["after"].items()},
    )

