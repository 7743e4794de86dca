"""A deadline passed, as the clock fires it (``tables.clock``): the next hand is dealt (with
the friends who arrived late sitting down), a computer player acts on what it decided, or a
person out of time checks or folds (P1: two time-outs in a row and they are marked away).

Through the one write path, which re-checks under the lock (or on the version this process
holds, ``held``) that the table is still at the version the clock saw and still due.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from engine.actions import Action, ActionError
from tables.models import Table
from tables.write import late, reasons, time_bank
from tables.write.deadlines import is_due
from tables.write.lobby import deal
from tables.write.path import Change, apply_change
from tables.write.play import note_time_out

log = logging.getLogger("tables.clock")
AWAY_AFTER = 2  # P1: two time-outs in a row and a person is marked away


def fire(
    table_id: int, version: int, now: datetime | None, bot_action: Action | None,
    bot_reason: dict[str, Any] | None, *, held: bool,
) -> bool:
    """Make the change the deadline of table ``table_id`` at ``version`` calls for; False when
    the table moved on meanwhile (nothing changes then). ``bot_action`` (and its reason, at a
    learning table): what the computer player to act decided, outside the lock."""

    def mutate(change: Change) -> bool:
        current = change.table
        if current.version != version or not is_due(current, now or change.now):
            return False
        kind = current.deadline_kind
        game = change.game
        if kind == Table.Deadline.NEXT_HAND:
            late.seat_waiting(change)  # friends who arrived late sit down
            deal(change)
            return True
        hand = game.hand
        if hand is None or hand.finished or hand.seat_to_act is None:
            return False
        seat = change.seats[hand.seat_to_act]
        action = None
        is_bot_turn = kind == Table.Deadline.BOT and bot_action is not None
        if is_bot_turn and bot_action is not None and bot_action.seat == seat.position:
            try:
                game.act(bot_action.seat, bot_action.kind, bot_action.amount)
                action = bot_action
                if bot_reason is not None:
                    reasons.remember(current, game, bot_reason)
            except ActionError:
                log.warning("computer player at table %s chose %s: refused", table_id, bot_action)
        if action is None:
            # P1: a person out of time (or away, or a computer that failed) checks or folds.
            action = hand.timeout_action()
            game.act(action.seat, action.kind, action.amount)
        if kind == Table.Deadline.TURN and seat.is_person:
            note_time_out(current, seat.position, action.kind)
            seat.timeouts_in_row += 1
            seat.away = seat.timeouts_in_row >= AWAY_AFTER
            fields = ["timeouts_in_row", "away"]
            if time_bank.empty(current, seat):  # P4: the limit and the whole bank are used
                fields.append("bank_used")
            change.save_seat(seat, *fields)
        change.mark()
        return True

    return apply_change(table_id, mutate, skip_locked=True, held=held)
