"""Hand histories in the PokerStars text format, the one poker tracking tools import.

PokerTracker, Hold'em Manager and GTO Wizard all read this layout, so players can take their
hands from our table into the tools they already use. Amounts are play chips written as whole
numbers; seats are numbered from 1 as at any real table; the rake is always 0.

Privacy (P3): the text is written from one viewer's point of view. It holds the viewer's own
hole cards, the board and the cards turned over at the showdown, never a mucked or folded hand,
the deck or a burnt card. ``viewer=None`` is the staff's complete record (every hole card).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine import events as kinds
from engine.cards import parse_cards
from engine.evaluator import Category, HandValue, evaluate
from engine.events import Event
from engine.export.neutral import neutral
from engine.hand import Hand

SPECTATOR = -1
"""A viewer who holds no cards in the hand: someone watching, or a player not dealt in."""

HAND_SEPARATOR = "\n\n\n"
"""Between hands of one file: PokerStars leaves blank lines, and every importer splits on them."""

_WORDS = {
    2: "Deuce", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}
_PLURALS = {r: ("Sixes" if r == 6 else word + "s") for r, word in _WORDS.items()}
_STREET_TITLES = {"flop": "Flop", "turn": "Turn", "river": "River"}


@dataclass(frozen=True, slots=True)
class HandMeta:
    """What the table knows about a hand and the engine does not."""

    hand_id: int  # the stable, unique hand number; trackers key their databases on it
    table_name: str
    started_at: datetime
    max_seats: int = 6


def describe(value: HandValue) -> str:
    """A hand in the words PokerStars uses (``a pair of Kings``, ``a straight, Ace to Five``)."""
    ranks = value.ranks
    top = ranks[0]
    match value.category:
        case Category.STRAIGHT_FLUSH:
            if value.is_royal:
                return "a Royal Flush"
            return f"a straight flush, {_straight_words(top)}"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_PLURALS[top]}"
        case Category.FULL_HOUSE:
            return f"a full house, {_PLURALS[top]} full of {_PLURALS[ranks[1]]}"
        case Category.FLUSH:
            return f"a flush, {_WORDS[top]} high"
        case Category.STRAIGHT:
            return f"a straight, {_straight_words(top)}"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {_PLURALS[top]}"
        case Category.TWO_PAIR:
            return f"two pair, {_PLURALS[top]} and {_PLURALS[ranks[1]]}"
        case Category.PAIR:
            return f"a pair of {_PLURALS[top]}"
        case _:
            return f"high card {_WORDS[top]}"


def _straight_words(top: int) -> str:
    low = 14 if top == 5 else top - 4  # the wheel runs Ace to Five (R26)
    return f"{_WORDS[low]} to {_WORDS[top]}"


def export_names(seats: Iterable[int], names: Mapping[int, str]) -> dict[int, str]:
    """Names safe for the format (``neutral(name, "text")``) and unique within the hand
    (trackers tell players apart by name): a repeated name gets its seat."""
    result: dict[int, str] = {}
    for seat in seats:
        name = neutral(names.get(seat, ""), "text") or f"Seat {seat + 1}"
        if name in result.values():
            name = f"{name}_{seat + 1}"
        result[seat] = name
    return result


def format_time(moment: datetime) -> str:
    """``2026/11/29 13:05:00 UTC [2026/11/29 8:05:00 ET]``: PokerStars adds the Eastern time in
    brackets for players in other zones, and some importers read only that part."""
    utc = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    text = f"{utc:%Y/%m/%d %H:%M:%S} UTC"
    try:
        eastern = utc.astimezone(ZoneInfo("America/New_York"))
    except ZoneInfoNotFoundError:  # no time zone database on this machine: UTC alone is valid
        return text
    return f"{text} [{eastern:%Y/%m/%d} {eastern.hour}:{eastern:%M:%S} ET]"


def _cards(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


class _Writer:
    """Builds one hand's text; a fresh writer per hand."""

    def __init__(
        self, hand: Hand, names: Mapping[int, str], viewer: int | None, meta: HandMeta
    ) -> None:
        self.hand = hand
        self.meta = meta
        self.viewer = viewer
        self.full = viewer is None
        self.names = export_names(hand.seats, names)
        self.lines: list[str] = []
        self.board: list[str] = []
        self.shows: dict[int, tuple[str, ...]] = {}
        self.mucked: list[int] = []
        self.folded_on: dict[int, str] = {}
        self.paid: set[int] = set()  # seats that put chips in (blinds included)
        self.won: dict[int, int] = {}
        self.pots: dict[int, int] = {}
        self.holes = {
            e.seat: e.cards for e in hand.events if e.kind == kinds.DEAL_HOLE and e.seat is not None
        }

    def name(self, seat: int | None) -> str:
        assert seat is not None
        return self.names[seat]

    def sees_hole(self, seat: int) -> bool:
        return self.full or seat == self.viewer

    def write(self) -> str:
        hand, meta, s = self.hand, self.meta, self.hand.settings
        self.lines.append(
            f"PokerStars Hand #{meta.hand_id}:  Hold'em No Limit "
            f"({s.small_blind}/{s.big_blind}) - {format_time(meta.started_at)}"
        )
        table = neutral(meta.table_name, "text") or "Table"
        self.lines.append(
            f"Table '{table}' {meta.max_seats}-max Seat #{s.button + 1} is the button"
        )
        for seat, stack in zip(s.seats, s.stacks, strict=True):
            self.lines.append(f"Seat {seat + 1}: {self.names[seat]} ({stack} in chips)")
        events = hand.events
        blinds = (kinds.POST_SMALL_BLIND, kinds.POST_BIG_BLIND)
        body = [e for e in events if e.kind not in (*blinds, kinds.DEAL_HOLE)]
        for event in events:
            if event.kind in blinds:
                self._post(event)
        self.lines.append("*** HOLE CARDS ***")
        for event in events:
            if event.kind != kinds.DEAL_HOLE or event.seat is None:
                continue
            if self.sees_hole(event.seat):
                self.lines.append(f"Dealt to {self.name(event.seat)} {_cards(event.cards)}")
        current = s.big_blind  # the bet to call preflop is the full big blind even when short (R9)
        for event in body:
            if event.kind == kinds.ACTION:
                current = self._action(event, current)
            elif event.kind == kinds.UNCALLED:
                who = self.name(event.seat)
                self.lines.append(f"Uncalled bet ({event.amount}) returned to {who}")
            elif event.kind == kinds.BOARD:
                current = 0
                self._street(event)
            elif event.kind == kinds.SHOW and event.seat is not None:
                self.shows[event.seat] = event.cards
            elif event.kind == kinds.MUCK and event.seat is not None:
                self.mucked.append(event.seat)
            elif event.kind == kinds.AWARD and event.seat is not None:
                self.won[event.seat] = self.won.get(event.seat, 0) + event.amount
                self.pots[event.pot] = self.pots.get(event.pot, 0) + event.amount
        self._showdown(events)
        self._summary()
        return "\n".join(self.lines) + "\n"

    def _post(self, event: Event) -> None:
        assert event.seat is not None
        self.paid.add(event.seat)
        which = "small" if event.kind == kinds.POST_SMALL_BLIND else "big"
        tail = " and is all-in" if event.all_in else ""
        self.lines.append(f"{self.name(event.seat)}: posts {which} blind {event.amount}{tail}")

    def _action(self, event: Event, current: int) -> int:
        assert event.seat is not None
        who = self.name(event.seat)
        tail = " and is all-in" if event.all_in else ""
        if event.action == "fold":
            self.folded_on[event.seat] = event.street
            self.lines.append(f"{who}: folds")
        elif event.action == "check":
            self.lines.append(f"{who}: checks")
        elif event.action == "call":
            self.paid.add(event.seat)
            self.lines.append(f"{who}: calls {event.amount}{tail}")
        elif event.action == "bet":
            self.paid.add(event.seat)
            self.lines.append(f"{who}: bets {event.amount}{tail}")
            return event.to
        else:  # raise: by how much over the bet it faced, then the new total
            self.paid.add(event.seat)
            self.lines.append(f"{who}: raises {event.to - current} to {event.to}{tail}")
            return event.to
        return current

    def _street(self, event: Event) -> None:
        title = event.street.upper()
        if self.board:
            self.lines.append(f"*** {title} *** {_cards(self.board)} {_cards(event.cards)}")
        else:
            self.lines.append(f"*** {title} *** {_cards(event.cards)}")
        self.board.extend(event.cards)

    def _pot_name(self, index: int) -> str:
        if len(self.pots) == 1:
            return "pot"
        if index == 0:
            return "main pot"
        return "side pot" if len(self.pots) == 2 else f"side pot-{index}"

    def _description(self, seat: int) -> str:
        return describe(evaluate(parse_cards([*self.shows[seat], *self.board])))

    def _showdown(self, events: list[Event]) -> None:
        awards = [e for e in events if e.kind == kinds.AWARD and e.seat is not None]
        if self.shows or self.mucked:
            self.lines.append("*** SHOW DOWN ***")
            for e in events:
                if e.kind == kinds.SHOW and e.seat is not None:
                    desc = self._description(e.seat)
                    self.lines.append(f"{self.name(e.seat)}: shows {_cards(e.cards)} ({desc})")
                elif e.kind == kinds.MUCK and e.seat is not None:
                    self.lines.append(f"{self.name(e.seat)}: mucks hand")
        for e in awards:
            pot = self._pot_name(e.pot)
            self.lines.append(f"{self.name(e.seat)} collected {e.amount} from {pot}")
        if not (self.shows or self.mucked):
            for seat in dict.fromkeys(e.seat for e in awards if e.seat is not None):
                self.lines.append(f"{self.name(seat)}: doesn't show hand")  # R20, R30

    def _summary(self) -> None:
        hand = self.hand
        total = sum(self.pots.values())
        self.lines.append("*** SUMMARY ***")
        if len(self.pots) > 1:
            parts = [f"Main pot {self.pots[0]}."]
            side = sorted(i for i in self.pots if i > 0)
            for i in side:
                label = "Side pot" if len(side) == 1 else f"Side pot-{i}"
                parts.append(f"{label} {self.pots[i]}.")
            self.lines.append(f"Total pot {total} {' '.join(parts)} | Rake 0")
        else:
            self.lines.append(f"Total pot {total} | Rake 0")
        if self.board:
            self.lines.append(f"Board {_cards(self.board)}")
        sb, bb = hand.seats[hand.small_blind_index], hand.seats[hand.big_blind_index]
        for seat in hand.seats:
            marks = ""
            if seat == hand.settings.button:
                marks += " (button)"
            if seat == sb:
                marks += " (small blind)"
            elif seat == bb:
                marks += " (big blind)"
            self.lines.append(f"Seat {seat + 1}: {self.names[seat]}{marks} {self._outcome(seat)}")

    def _outcome(self, seat: int) -> str:
        won = self.won.get(seat, 0)
        if seat in self.folded_on:
            street = self.folded_on[seat]
            if street == "preflop":
                return "folded before Flop" + ("" if seat in self.paid else " (didn't bet)")
            return f"folded on the {_STREET_TITLES[street]}"
        if seat in self.shows:
            shown, desc = _cards(self.shows[seat]), self._description(seat)
            if won:
                return f"showed {shown} and won ({won}) with {desc}"
            return f"showed {shown} and lost with {desc}"
        if seat in self.mucked:
            if won:  # a pot nobody else could win, taken without showing
                return f"collected ({won})"
            own = f" {_cards(self.holes[seat])}" if self.sees_hole(seat) else ""
            return f"mucked{own}"
        return f"collected ({won})"


def pokerstars_hand(
    hand: Hand,
    names: Mapping[int, str],
    meta: HandMeta,
    viewer: int | None = None,
) -> str:
    """One finished hand as PokerStars text seen by ``viewer`` (a seat number, ``SPECTATOR``,
    or ``None`` for the complete staff record). ``names`` maps seat numbers to display names."""
    if not hand.finished:
        raise ValueError("only a finished hand can be exported: its cards are still hidden")
    return _Writer(hand, names, viewer, meta).write()


def pokerstars_game(
    hands: Iterable[tuple[Hand, HandMeta, Mapping[int, str]]],
    viewer: int | None = None,
) -> str:
    """Several hands in one file, in the order given, separated by blank lines; each hand with
    its own names (seat number to display name: a seat may change hands during a game)."""
    return HAND_SEPARATOR.join(
        pokerstars_hand(hand, names, meta, viewer) for hand, meta, names in hands
    )
