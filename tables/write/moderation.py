"""What a moderator can do to a table, through the tables' one write path.

Every action runs inside ``tables.write.path.apply_change``: the table row is locked, the change
is checked and made, the version goes up and, once the transaction commits, every phone at the
table is told to redraw (it then shows the closed table, the new name, the computer player in
the removed person's seat). The ``ModerationAction`` row (who, when, what, why) is written in
the same transaction, so an action is recorded if and only if it happened.

Closing a table with a hand in progress **cancels** that hand: every chip goes back to where it
was when the hand began, as if it had never been dealt (``Game.cancel_hand``). A moderator's
decision should not hand a pot to anyone, and nobody is made to fold or check a hand they did
not get to play. The hand stays in the history marked as cancelled; the game's final standing
is taken from the chips after that.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from tables.models import Hand, ModerationAction, Table
from tables.write.lobby import clean_name, computer_name
from tables.write.path import Change, Refused, apply_change

CLOSED_BY_MODERATOR = "moderator"  # Table.closed_reason; the phones say "closed by a moderator"

User = AbstractBaseUser | AnonymousUser | None


def _record(change: Change, moderator: User, action: str, reason: str,
            **detail: Any) -> ModerationAction:
    who = moderator if moderator is not None and moderator.is_authenticated else None
    return ModerationAction.objects.create(
        table=change.table,
        moderator=cast(Any, who),
        at=change.now,
        action=action,
        reason=reason.strip(),
        detail=detail,
    )


def _close(change: Change) -> int | None:
    """Close the locked table; returns the number of the hand it cancelled, if any."""
    table = change.table
    cancelled = None
    if change.has_game:
        game = change.game
        if game.hand_running:
            cancelled = game.hand_number
            game.cancel_hand()
        if not game.finished:
            game.end_now()
    table.status = Table.Status.CLOSED
    table.closed_reason = CLOSED_BY_MODERATOR
    table.paused = False
    if table.finished_at is None:
        table.finished_at = change.now
    change.mark()
    return cancelled


def close_table(table_id: int, moderator: User, reason: str = "") -> ModerationAction:
    """End the game now. A running hand is cancelled (see the module docstring)."""

    def mutate(change: Change) -> ModerationAction:
        previous = change.table.status
        if previous == Table.Status.CLOSED:
            raise Refused("already_closed", _("This table is already closed."))
        cancelled = _close(change)
        return _record(change, moderator, ModerationAction.CLOSE, reason,
                       status_before=previous,
                       cancelled_hand=cancelled)

    return apply_change(table_id, mutate)


def pause_clock(table_id: int, moderator: User, reason: str = "") -> ModerationAction:
    """Stop the table's clock: no time-out, computer move or new deal fires until resumed.
    What was left of the pending deadline is kept for the resume."""

    def mutate(change: Change) -> ModerationAction:
        table = change.table
        if table.status != Table.Status.PLAYING:
            raise Refused("not_playing", _("Only a table that is playing has a running clock."))
        if table.paused:
            raise Refused("already_paused", _("The clock of this table is already paused."))
        remaining = change.stop_clock()
        return _record(change, moderator, ModerationAction.PAUSE, reason, remaining=remaining,
                       deadline=table.deadline_kind)

    return apply_change(table_id, mutate)


def resume_clock(table_id: int, moderator: User, reason: str = "") -> ModerationAction:
    """Start the clock again; the pending deadline gets back the time it had left."""

    def mutate(change: Change) -> ModerationAction:
        table = change.table
        if not table.paused:
            raise Refused("not_paused", _("The clock of this table is not paused."))
        change.start_clock()
        return _record(change, moderator, ModerationAction.RESUME, reason)

    return apply_change(table_id, mutate)


def _free_computer_name(change: Change) -> str:
    taken = {s.name.casefold() for s in change.seats.values()}
    number = 1
    while computer_name(number).casefold() in taken:
        number += 1
    return computer_name(number)


def remove_person(table_id: int, position: int, moderator: User,
                  reason: str = "") -> ModerationAction:
    """Take a person off a seat. During a game a computer player of the table's level takes the
    seat and its chips (under a computer's name); in the lobby the seat is freed. The person's
    phone keeps watching the table but no longer holds the seat. When no person is left, the
    table is closed (computer players alone would play on for nobody)."""

    def mutate(change: Change) -> ModerationAction:
        table = change.table
        seat = change.seats.get(position)
        if seat is None or seat.is_computer:
            raise Refused("no_person", _("Nobody sits in that seat."))
        name = seat.name
        if table.status == Table.Status.WAITING:
            change.remove_seat(position)
            if table.host_position == position:
                change.pass_host(position)
        elif table.status == Table.Status.PLAYING:
            change.make_computer(position)
            seat.name = _free_computer_name(change)
            change.save_seat(seat, "name")
        else:
            raise Refused("not_open", _("This game is over: rename the player instead."))
        closed = not change.persons()
        cancelled = _close(change) if closed else None
        return _record(change, moderator, ModerationAction.REMOVE, reason, seat=position,
                       name=name,
                       closed=closed, cancelled_hand=cancelled)

    return apply_change(table_id, mutate)


def rename_player(table_id: int, position: int, new_name: str, moderator: User,
                  reason: str = "") -> ModerationAction:
    """Replace a display name, at the table at once and in the table's hand histories."""
    cleaned = clean_name(new_name)

    def mutate(change: Change) -> ModerationAction:
        seat = change.seats.get(position)
        if seat is None:
            raise Refused("no_seat", _("Nobody sits in that seat."))
        if any(
            s.name.casefold() == cleaned.casefold()
            for p, s in change.seats.items() if p != position
        ):
            raise Refused(
                "name_taken",
                _("Someone at this table is already called %(name)s.") % {"name": cleaned},
            )
        old = seat.name
        seat.name = cleaned
        change.save_seat(seat, "name")
        for hand in Hand.objects.filter(table=change.table).only("id", "players"):
            players = [
                {**p, "name": cleaned} if p.get("seat") == position else p for p in hand.players
            ]
            if players != hand.players:
                Hand.objects.filter(pk=hand.pk).update(players=players)
        return _record(change, moderator, ModerationAction.RENAME, reason, seat=position,
                       old=old, new=cleaned)

    return apply_change(table_id, mutate)
