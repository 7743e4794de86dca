"""Play: a person's action (fold, check, call, bet, raise, all in), an away person coming
back, and presence.

``act`` checks who may act (their own seat, their turn, the version their phone drew, the
hand-off on a shared phone) and lets the engine check the rules; it changes the table through
the one write path (``tables.write.path.apply_change``), first on the version this process holds
(``held=True``). Deadlines (time-outs, computer players) are fired by ``tables.clock``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.actions import ActionError, ActionKind
from tables.models import Seat, Table
from tables.write.path import Change, Refused, apply_change


@dataclass(frozen=True)
class ActOutcome:
    applied: bool  # False: a repeated action id (already applied once)
    version: int


def act(
    table_id: int,
    hashes: list[str],
    *,
    kind: str,
    amount: int | None,
    version: int,
    action_id: str,
    seat: int | None = None,
    revealed: int | None = None,
) -> ActOutcome:
    """A person's action. Refused (nothing changes) when stale, out of turn, not their seat,
    or against the rules; a repeated ``action_id`` is applied once.

    ``revealed``: for a phone holding several seats (pass and play), the seat whose hand-off
    that connection confirmed; acting for any other of its seats is refused.
    """

    def mutate(change: Change) -> ActOutcome:
        table = change.table
        if action_id in table.recent_actions:
            return ActOutcome(False, table.version)  # a double tap: already applied
        mine = change.positions_of(hashes)
        actor = _actor_of(change, mine, seat)
        if not mine:
            raise Refused("not_seated", _("You have no seat at this table: you are watching."))
        if seat is not None and seat not in mine:
            raise Refused("not_your_seat", _("That seat is not yours."))
        if table.status != Table.Status.PLAYING:
            raise Refused("not_playing", _("The game is not being played right now."))
        if version != table.version:
            timed_out = _timed_out(table.recent_actions, version, actor)
            if timed_out is not None:
                raise Refused("too_late", timed_out)
            raise Refused("stale", _("The table moved on: here is what it looks like now."))
        game = change.game
        if not game.hand_running:
            raise Refused("no_hand", _("Wait for the next hand."))
        assert game.hand is not None
        to_act = game.hand.seat_to_act
        if actor != to_act:  # (a seat named is one of ``mine`` by now: see _actor_of)
            raise Refused(
                "not_your_turn",
                _("It is not your turn: %(name)s is to act.") % {"name": change.name_of(to_act)},
            )
        if len(mine) > 1 and revealed != actor:
            raise Refused(
                "handoff",
                _("Pass the phone to %(name)s first.") % {"name": change.name_of(actor)},
            )
        try:
            game.act(actor, kind, amount if kind in (ActionKind.BET, ActionKind.RAISE) else None)
        except ActionError as exc:
            raise Refused(exc.code, exc.message) from None
        remember_action(table, action_id)
        person = change.seats[actor]
        if person.away or person.timeouts_in_row:
            person.away = False
            person.timeouts_in_row = 0
            change.save_seat(person, "away", "timeouts_in_row")
        change.mark()
        return ActOutcome(True, table.version + 1)

    return apply_change(table_id, mutate, held=True)


# How many action ids a table remembers. An action is applied only at the version it was
# drawn for, and every applied action moves the version on, so an id that comes back can only
# come back with its old version, which is refused as stale anyway: the list only tells a
# double tap (say nothing) from a stale tab (show the table as it is now). Taps on one frame
# arrive within a second or two, a few actions apart at most.
RECENT_ACTIONS_KEPT = 16


def remember_action(table: Table, action_id: str) -> None:
    table.recent_actions = [*table.recent_actions[1 - RECENT_ACTIONS_KEPT :], action_id]


def note_time_out(table: Table, seat: int, kind: str) -> None:
    """P1: the server checked or folded for a person out of time, at the table's current
    version. Kept with the action ids so that the person's own tap on that same version, a
    moment too late, is told what happened rather than only "the table moved on"."""
    remember_action(table, f"{_TIMED_OUT}{table.version}-{seat}-{kind}")


_TIMED_OUT = "timed-out-"


def _timed_out(recent: list[str], version: int, seat: int) -> str | None:
    """The message for a tap that lost the race with the seat's own time-out, if it did."""
    prefix = f"{_TIMED_OUT}{version}-{seat}-"
    for entry in recent:
        if entry.startswith(prefix):
            if entry[len(prefix):] == ActionKind.CHECK:
                return _("Too late: your time ran out and the table checked for you.")
            return _("Too late: your time ran out and the table folded your hand.")
    return None


def what_became_of(
    table_id: int, action_id: str, version: int, seat: int | None
) -> tuple[str, str]:
    """What the table did with an action id (code, message): applied, beaten by the seat's
    own time-out, or never arrived. Asked by a phone that lost its connection right after a
    tap, when it comes back; only the table's own memory of action ids decides."""
    recent = Table.objects.filter(pk=table_id).values_list("recent_actions", flat=True).first()
    recent = recent or []
    if action_id in recent:
        return "pending_applied", _("Your last tap reached the table and counted.")
    timed_out = _timed_out(recent, version, seat) if seat is not None else None
    if timed_out is not None:
        return "too_late", timed_out
    return "pending_lost", _(
        "Your last tap did not reach the table before the connection dropped: nothing was "
        "played for it."
    )


def _actor_of(change: Change, mine: list[int], seat: int | None) -> int:
    """The seat an action is for: the one named, else this phone's seat that is to act, else
    its first (0 stands in for a seat named that is not this phone's: that is refused)."""
    if seat is not None:
        return seat if seat in mine else 0
    table = change.table
    if table.status == Table.Status.PLAYING and table.state is not None:
        hand = change.game.hand
        to_act = hand.seat_to_act if hand is not None and not hand.finished else None
        if to_act in mine:
            return to_act
    return mine[0] if mine else 0


def come_back(table_id: int, positions: list[int]) -> bool:
    """P1: an away player is back with any tap; their time-outs start again from zero."""

    def mutate(change: Change) -> bool:
        back = False
        for position in positions:
            seat = change.seats.get(position)
            if seat is not None and seat.is_person and (seat.away or seat.timeouts_in_row):
                seat.away = False
                seat.timeouts_in_row = 0
                change.save_seat(seat, "away", "timeouts_in_row")
                back = True
        return back

    return apply_change(table_id, mutate)


def touch_seats(
    table_id: int, positions: list[int], now: datetime | None = None, *, opened: int = 0
) -> None:
    """Presence only: when a phone was last connected, and how many of its table pages are
    open (``opened``: +1 as one connects, -1 as it leaves). Not table state: no new version."""
    if positions:
        Seat.objects.filter(table_id=table_id, position__in=positions).update(
            last_seen=now or timezone.now(), connections=Greatest(F("connections") + opened, 0)
        )


def random_action_id() -> str:
    return secrets.token_hex(12)
