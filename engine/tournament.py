"""A tournament above the tables: seating, balancing, breaking, places (README T1..T6).

Pure and deterministic given its inputs: the random draw of seats takes a ``random.Random``.
A table here is only what these rules need: its number, who sits at which position with how
many chips, and who posts the blinds next hand. The Django side (``tables/``) reads the tables
of a tournament, asks ``plan`` what to do after a hand, and carries the moves out through the
one write path.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

MAX_SEATS = 6
MIN_ENTRANTS = 7
MAX_ENTRANTS = 36


class TournamentError(ValueError):
    """A tournament that cannot be seated or balanced as asked."""


@dataclass(frozen=True, slots=True)
class Player:
    entrant: str
    chips: int


@dataclass(frozen=True, slots=True)
class TableState:
    """One table as the balancing rules see it. ``seats`` maps a position (0..5) to its
    player; ``next_small_blind``/``next_big_blind`` are the positions that post next hand
    (None when the table cannot deal); ``between_hands`` says whether a player may leave it.
    ``free_order``: when the table's game is known, its free seats from the worst (the one
    whose newcomer posts the big blind soonest, ``engine.game.Game.worst_seats``) to the best;
    T4 then follows it rather than counting from the small blind."""

    number: int
    seats: Mapping[int, Player]
    next_small_blind: int | None = None
    next_big_blind: int | None = None
    between_hands: bool = True
    free_order: tuple[int, ...] | None = None

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True, slots=True)
class Move:
    """A player leaves ``from_table`` (position ``from_position``) for ``to_table`` at
    ``to_position``, with their chips. ``breaking``: their table is being broken (T3)."""

    entrant: str
    from_table: int
    from_position: int
    to_table: int
    to_position: int
    breaking: bool = False


def table_count(entrants: int) -> int:
    """T1: the fewest tables of at most six that seat everyone."""
    return max(1, math.ceil(entrants / MAX_SEATS))


def seat_entrants(
    entrants: Sequence[str], rng: random.Random
) -> list[list[str]]:
    """T1: the entrants drawn at random to ``table_count`` tables, dealt round so that no two
    tables differ by more than one player. Table ``i`` of the result seats its entrants at
    positions 0, 1, 2... in the order given."""
    if not MIN_ENTRANTS <= len(entrants) <= MAX_ENTRANTS:
        raise TournamentError(f"a tournament has {MIN_ENTRANTS} to {MAX_ENTRANTS} entrants")
    if len(set(entrants)) != len(entrants):
        raise TournamentError("an entrant is listed twice")
    drawn = list(entrants)
    rng.shuffle(drawn)
    count = table_count(len(drawn))
    return [drawn[i::count] for i in range(count)]


def worst_position(table: TableState, taken: Sequence[int] = ()) -> int:
    """T4: the empty seat that will post the big blind soonest: the table's ``free_order``
    when given, else the first free position after the seat that posts the small blind next
    hand (a newcomer there is big blind at once); without a known small blind, the lowest
    free position."""
    occupied = set(table.seats) | set(taken)
    free = [p for p in range(MAX_SEATS) if p not in occupied]
    if not free:
        raise TournamentError(f"table {table.number} is full")
    if table.free_order is not None:
        ordered = [p for p in table.free_order if p in free]
        if ordered:
            return ordered[0]
    if table.next_small_blind is None:
        return free[0]
    start = table.next_small_blind
    return min(free, key=lambda p: (p - start - 1) % MAX_SEATS)


def mover(table: TableState) -> int:
    """T4: the position of the player who would post the big blind next hand at this table
    (the lowest position when the table has no next hand yet)."""
    if table.next_big_blind is not None and table.next_big_blind in table.seats:
        return table.next_big_blind
    return min(table.seats)


def table_to_break(tables: Sequence[TableState]) -> TableState | None:
    """T3: a table breaks when the other tables have seats for all its players: the table
    with the fewest players (on a tie, the highest number) goes."""
    live = [t for t in tables if t.size > 0]
    if len(live) < 2:
        return None
    players = sum(t.size for t in live)
    if players > MAX_SEATS * (len(live) - 1):
        return None
    return min(live, key=lambda t: (t.size, -t.number))


def plan(tables: Sequence[TableState]) -> list[Move]:
    """What happens after a hand (T3, T2): break a table when the others can take its players,
    else move one player from the fullest table to the shortest when they differ by two or
    more. A player leaves a table only between its hands; when the table that should give a
    player is mid-hand, nothing moves yet (it is asked again after that hand)."""
    live = [t for t in tables if t.size > 0]
    breaking = table_to_break(live)
    if breaking is not None:
        if not breaking.between_hands:
            return []
        return _break(breaking, [t for t in live if t.number != breaking.number])
    if len(live) < 2:
        return []
    fullest = max(live, key=lambda t: (t.size, -t.number))
    shortest = min(live, key=lambda t: (t.size, t.number))
    if fullest.size - shortest.size < 2 or not fullest.between_hands:
        return []
    position = mover(fullest)
    return [Move(
        entrant=fullest.seats[position].entrant, from_table=fullest.number,
        from_position=position, to_table=shortest.number,
        to_position=worst_position(shortest),
    )]


def _break(breaking: TableState, others: Sequence[TableState]) -> list[Move]:
    """T3: the broken table's players, in the order they would post the big blind, each to
    the shortest table left (lowest number on a tie), at its worst position."""
    sizes = {t.number: t.size for t in others}
    taken: dict[int, list[int]] = {t.number: [] for t in others}
    by_number = {t.number: t for t in others}
    order = sorted(breaking.seats)
    first = mover(breaking)
    order = order[order.index(first):] + order[:order.index(first)]
    moves = []
    for position in order:
        target = min(sizes, key=lambda n: (sizes[n], n))
        to_position = worst_position(by_number[target], taken[target])
        taken[target].append(to_position)
        sizes[target] += 1
        moves.append(Move(
            entrant=breaking.seats[position].entrant, from_table=breaking.number,
            from_position=position, to_table=target, to_position=to_position, breaking=True,
        ))
    return moves


def apply_moves(tables: Sequence[TableState], moves: Sequence[Move]) -> list[TableState]:
    """The tables after ``moves`` (each player keeps their chips); for tests and the lobby's
    preview. Raises when a move does not fit (a seat taken, a player not where it says)."""
    seats = {t.number: dict(t.seats) for t in tables}
    for move in moves:
        player = seats[move.from_table].pop(move.from_position, None)
        if player is None or player.entrant != move.entrant:
            raise TournamentError(f"{move.entrant} is not at that seat")
        if move.to_position in seats[move.to_table] or not 0 <= move.to_position < MAX_SEATS:
            raise TournamentError(f"seat {move.to_position} is not free")
        seats[move.to_table][move.to_position] = player
    return [
        TableState(number=t.number, seats=seats[t.number], between_hands=t.between_hands)
        for t in tables
    ]


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out, with the chips they started their last hand with."""

    entrant: str
    started_with: int


@dataclass
class Standings:
    """T5, T6: places as players go out. ``left`` is how many are still in; each ``out``
    call is one moment (every player out in hands that ended together, at any table)."""

    entrants: int
    places: dict[str, int] = field(default_factory=dict)

    @property
    def left(self) -> int:
        return self.entrants - len(self.places)

    def out(self, busts: Sequence[Bust]) -> dict[str, int]:
        """T5: those out at the same moment finish below everyone still in, the one who
        started the hand with fewer chips lower; equal starting chips share the place."""
        if any(b.entrant in self.places for b in busts):
            raise TournamentError("a player went out twice")
        if len(busts) > self.left:
            raise TournamentError("more players out than were left")
        given: dict[str, int] = {}
        best = self.left - len(busts) + 1  # the best place this moment gives
        ranked = sorted(busts, key=lambda b: -b.started_with)
        for index, bust in enumerate(ranked):
            if index and bust.started_with == ranked[index - 1].started_with:
                given[bust.entrant] = given[ranked[index - 1].entrant]
            else:
                given[bust.entrant] = best + index
        self.places.update(given)
        return given

    def finish(self, survivors: Mapping[str, int]) -> dict[str, int]:
        """T6: the tournament ends when one player holds every chip (or it is ended): those
        still in are placed by chips, equal chips sharing a place."""
        if len(survivors) != self.left:
            raise TournamentError("the survivors are not the players still in")
        return self.out([Bust(e, c) for e, c in survivors.items()])
