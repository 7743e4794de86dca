"""The time bank (P4) at a table: how much of it a seat has left, what a turn used of it, and
the top-up every ten hands. The arithmetic is the engine's (``engine.timebank``); the bank a
seat has used is its row's ``bank_used``, written through the write path
(``tables.write.path``: charged when a person's turn ends; ``tables.write.lobby.deal``: topped
up; ``tables.write.timeouts``: emptied by a time-out), and the turn's deadline runs on by what
is left (``tables.write.deadlines``).
"""

from __future__ import annotations

from datetime import datetime

from engine.game import Game
from engine.timebank import left_after_turn, topped_up, tops_up_at
from tables.models import Seat, Table


def bank_left(table: Table, seat: Seat) -> int:
    """The seconds of bank ``seat`` has left (a computer player has none)."""
    if seat.is_computer or table.time_bank <= 0:
        return 0
    return max(0, table.time_bank - seat.bank_used)


def charge(table: Table, seat: Seat, now: datetime) -> bool:
    """A person's turn ended at ``now``: the bank is charged for the seconds the turn ran past
    the time limit, from the turn's deadline (the limit and the bank the seat had then; a pause
    moved the deadline on by as long as it lasted). True when ``seat.bank_used`` changed (the
    caller saves it)."""
    left = bank_left(table, seat)
    if not left or table.next_deadline is None or table.paused:
        return False
    limit = float(table.turn_seconds)
    on_clock = (table.next_deadline - now).total_seconds()
    took = limit + left - max(0.0, on_clock)
    after = left_after_turn(left, limit, took)
    if after == left:
        return False
    seat.bank_used = table.time_bank - after
    return True


def empty(table: Table, seat: Seat) -> bool:
    """A turn ran out of time (P1): the limit and the whole bank are used. True when
    ``seat.bank_used`` changed (the caller saves it)."""
    if not bank_left(table, seat):
        return False
    seat.bank_used = table.time_bank
    return True


def topping_up(table: Table, seats: dict[int, Seat], game: Game) -> list[Seat]:
    """At the deal of every tenth hand after the first ten, each person dealt in gets ten
    seconds back, never above the start; the seats whose ``bank_used`` changed."""
    start = table.time_bank
    if start <= 0 or game.hand is None or not tops_up_at(game.hand_number):
        return []
    changed = []
    for position in game.hand.settings.seats:
        seat = seats.get(position)
        if seat is None or seat.is_computer or not seat.bank_used:
            continue
        seat.bank_used = start - topped_up(bank_left(table, seat), start)
        changed.append(seat)
    return changed
