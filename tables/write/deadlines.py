"""A table's next deadline: what the clock does next there (a person's turn, a computer
player's pause, an away seat, the next deal) and after how long; set by the write path at
every change (``tables.write.path``) and fired by the clock (``tables.clock``).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings

from engine.game import Game
from engine.runout import runout_streets
from engine.timebank import turn_allowance
from tables.models import Seat, Table
from tables.write.time_bank import bank_left

_pauses = random.SystemRandom()  # P2: presentation only, never part of a decision


def turn_key(status: str, game: Game | None) -> tuple[object, ...]:
    """Whose turn it is, in which hand: a change that keeps it keeps the turn's clock."""
    if game is None or game.hand is None:
        return (status, None)
    hand = game.hand
    return (status, game.hand_number, len(hand.actions), hand.seat_to_act, hand.finished)


def deadline_for(table: Table, game: Game | None, seats: dict[int, Seat]) -> tuple[str, float]:
    """What the clock does next at this table and after how many seconds (alone: nothing)."""
    if table.status != Table.Status.PLAYING or game is None or game.finished or len(game.seats) < 2:
        return Table.Deadline.NONE, 0.0
    if game.hand_running:
        assert game.hand is not None and game.hand.seat_to_act is not None
        seat = seats[game.hand.seat_to_act]
        if seat.is_computer:
            return Table.Deadline.BOT, _pauses.uniform(*settings.TABLES_BOT_PAUSE)
        if seat.away:
            return Table.Deadline.AWAY, settings.TABLES_AWAY_PAUSE
        # P4: the time limit, then the person's time bank (charged when the turn ends).
        allowance = turn_allowance(
            table.turn_seconds, bank_left(table, seat), person=True, away=False
        )
        return Table.Deadline.TURN, allowance
    pause = settings.TABLES_NEXT_HAND_PAUSE
    if game.hand is not None and game.hand.finished:
        # Each street of a face-up run-out is shown with its odds first.
        pause += runout_streets(game.hand) * pause * settings.TABLES_RUNOUT_STEP
    return Table.Deadline.NEXT_HAND, pause


def schedule(
    table: Table, seats: dict[int, Seat], now: datetime, turn_before: tuple[object, ...] | None,
    game: Game | None,
) -> None:
    """Set the table's next deadline, unless the turn and the clock's kind are as before."""
    kind, delay = deadline_for(table, game, seats)
    turn = turn_key(table.status, game)
    if turn == turn_before and kind == table.deadline_kind and kind:
        return  # same turn, same clock: a rename or a reveal must not reset anyone's time
    table.deadline_kind = kind
    table.next_deadline = now + timedelta(seconds=delay) if kind else None


def is_due(table: Table, now: datetime) -> bool:
    """Whether the table's deadline has come (a playing table, not paused)."""
    return (
        table.status == Table.Status.PLAYING
        and not table.paused
        and bool(table.deadline_kind)
        and table.next_deadline is not None
        and table.next_deadline <= now
    )
