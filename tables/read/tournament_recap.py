"""The recap of a whole tournament, once it is over: the places with names,
who knocked out whom, the biggest pot across all its tables, the hands played and how long it
took.

Drawn from the entrants' places (``Entrant.place``, ``bust_table``, ``bust_hand``) and the
stored hands of every table (finished, not called off), which once over hold nothing hidden
that the recap uses: stacks, pots and who won them. A player out was knocked out by whoever
won the last pot their chips were in (the highest side pot they could win; the main pot when
they had the fewest chips); where the hand cannot say (a hand replayed without pots), the
winners of the hand other than them.

A finished tournament never changes: its recap is worked out once per process and kept
(``_kept``, keyed by the tournament's id and its finishing time; a few dozen kept).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from engine.hand import Hand as EngineHand
from engine.history import replay
from tables.models import Hand, Table
from tables.models.tournament import Entrant, Tournament


@dataclass
class Place:
    place: int
    name: str
    computer: bool
    out_table: int | None  # the table (its number) and hand they went out in
    out_hand: int | None
    by: list[str] = field(default_factory=list)  # who knocked them out


@dataclass
class BiggestPot:
    amount: int
    table: int
    hand: int
    winners: list[str]


@dataclass
class Recap:
    places: list[Place]
    biggest_pot: BiggestPot | None
    hands: int  # played across all tables
    tables: int
    minutes: int | None  # from the start to the end, pauses included

    @property
    def hours_and_minutes(self) -> tuple[int, int] | None:
        return divmod(self.minutes, 60) if self.minutes is not None else None


_KEPT = 32
_kept: OrderedDict[tuple[int, datetime], Recap] = OrderedDict()
_lock = threading.Lock()


def recap(tournament: Tournament) -> Recap | None:
    """The whole tournament's recap; None until it is over."""
    if tournament.status != Tournament.Status.FINISHED or tournament.finished_at is None:
        return None
    key = (tournament.pk, tournament.finished_at)
    with _lock:
        kept = _kept.get(key)
    if kept is not None:
        return kept
    made = _make(tournament)
    with _lock:
        _kept[key] = made
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    return made


def _make(tournament: Tournament) -> Recap:
    numbers = dict(
        Table.objects.filter(tournament=tournament).values_list("id", "tournament_number")
    )
    rows = Hand.objects.filter(
        table_id__in=numbers, ended_at__isnull=False, cancelled=False
    ).order_by("table_id", "number")
    entrants = sorted(
        (e for e in tournament.entrants.all() if e.place is not None), key=lambda e: e.place or 0
    )
    wanted: dict[tuple[int | None, int | None], list[Entrant]] = {}
    for e in entrants:
        if e.bust_table is not None:
            wanted.setdefault((e.bust_table, e.bust_hand), []).append(e)
    biggest: BiggestPot | None = None
    knocked: dict[int, list[str]] = {}
    count = 0
    for row in rows:
        count += 1
        hand = replay(row.record)
        names = {int(p["seat"]): str(p["name"]) for p in row.players}
        pot = sum(a.amount for a in hand.awards)
        table = numbers.get(row.table_id) or 0
        if biggest is None or pot > biggest.amount:
            biggest = BiggestPot(
                pot, table, row.number, sorted({names.get(a.seat, "?") for a in hand.awards})
            )
        if (table, row.number) in wanted:
            for entrant in wanted[(table, row.number)]:
                seat = next((s for s, n in names.items() if n == entrant.name), None)
                if seat is not None:
                    knocked[entrant.pk] = [names.get(s, "?") for s in knockers(hand, seat)]
    started, finished = tournament.started_at, tournament.finished_at
    minutes = (
        round((finished - started).total_seconds() / 60)
        if started is not None and finished is not None else None
    )
    return Recap(
        places=[
            Place(e.place or 0, e.name, e.is_computer, e.bust_table, e.bust_hand,
                  knocked.get(e.pk, []))
            for e in entrants
        ],
        biggest_pot=biggest, hands=count, tables=len(numbers), minutes=minutes,
    )


def knockers(hand: EngineHand, seat: int) -> list[int]:
    """The seats that won the last pot ``seat``'s chips were in (see the module's doc)."""
    index = hand.index_of(seat)
    theirs = [k for k, pot in enumerate(hand.pots) if index in pot.eligible]
    if theirs:
        last = max(theirs)
        won = sorted({a.seat for a in hand.awards if a.pot == last and a.seat != seat})
        if won:
            return won
    return sorted({a.seat for a in hand.awards if a.seat != seat})
