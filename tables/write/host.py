"""What the host can do while the game runs, through the tables' one write path.

Like ``tables.write.moderation`` for staff: every control runs inside ``apply_change``
(the table row locked, the change checked and made, the version bumped, every phone told to
redraw once it commits), is refused with a reason to anyone but the host, and writes a line of
the table's log (``tables.write.talk.log_event``) in the same transaction, so that every phone reads
what the host did, in its own language.

- **Pause for everyone**: the clock stops (no time-out, computer move or deal) and every phone
  shows "Paused by <host>"; the time left is kept, as for a moderator's pause
  (``Table.seconds_left_on_resume``), and given back on resume. The host cannot
  resume a pause a moderator made.
- **End the game now**: a hand in progress is called off (every chip back where it was when it
  began: nobody wins or loses a pot by the host's decision), then the game ends and the
  standings go by chips, as when a 30- or 60-hand game ends.
- **Let the computer play** for an away person: a computer player takes the seat and its chips
  (the person may still review the hands they played and, between hands, take a computer's
  seat again: ``tables.write.late``).
- **Pass the host role** to another person at the table.
- **Learning table** on or off: a tap on a computer player's last action tells
  why it took it (``tables.live.reasons``); off by default at a friends table, always on
  against the computer. Its reasons are kept from the next computer action on.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from tables.models import ModerationAction, Table
from tables.write import talk
from tables.write.path import Change, Refused, apply_change


def _host(change: Change, hashes: Iterable[str]) -> int:
    """The host's seat, or a refusal with the reason."""
    host = change.table.host_position
    if host is None or host not in change.positions_of(hashes):
        raise Refused("not_host", _("Only the host can do that."))
    return host


def _playing(change: Change) -> None:
    if change.table.status != Table.Status.PLAYING:
        raise Refused("not_playing", _("The game is not being played right now."))


def pause_game(table_id: int, hashes: Iterable[str]) -> None:
    """Stop the clock for everyone; what was left of the pending deadline is kept."""

    def mutate(change: Change) -> None:
        host = _host(change, hashes)
        _playing(change)
        table = change.table
        if table.paused:
            raise Refused("already_paused", _("The game is already paused."))
        remaining = change.stop_clock()
        name = change.name_of(host)
        ModerationAction.objects.create(
            table=table, at=change.now, action=ModerationAction.HOST_PAUSE,
            detail={"remaining": remaining, "deadline": table.deadline_kind, "host": name},
        )
        talk.log_event(table.id, host, name, "paused")

    apply_change(table_id, mutate)


def resume_game(table_id: int, hashes: Iterable[str]) -> None:
    """Start the clock again: the pending deadline gets back the time it had left."""

    def mutate(change: Change) -> None:
        host = _host(change, hashes)
        table = change.table
        if not table.paused:
            raise Refused("not_paused", _("The game is not paused."))
        pause = table.last_pause()
        if pause is not None and pause.action == ModerationAction.PAUSE:
            raise Refused(
                "moderator_pause",
                _("A moderator paused this table: only a moderator can resume it."),
            )
        change.start_clock()
        name = change.name_of(host)
        ModerationAction.objects.create(
            table=table, at=change.now, action=ModerationAction.HOST_RESUME, detail={"host": name},
        )
        talk.log_event(table.id, host, name, "resumed")

    apply_change(table_id, mutate)


def end_game(table_id: int, hashes: Iterable[str]) -> int | None:
    """End the game now, standings by chips; returns the number of the hand called off."""

    def mutate(change: Change) -> int | None:
        host = _host(change, hashes)
        _playing(change)
        game = change.game
        cancelled = game.hand_number if game.hand_running else None
        game.cancel_hand()
        game.end_now()
        change.table.paused = False
        change.mark()
        talk.log_event(change.table.id, host, change.name_of(host), "ended")
        return cancelled

    return apply_change(table_id, mutate)


def computer_plays(table_id: int, hashes: Iterable[str], position: int) -> None:
    """A computer player takes an away person's seat and its chips."""

    def mutate(change: Change) -> None:
        host = _host(change, hashes)
        _playing(change)
        if position == host:
            raise Refused("own_seat", _("Pass the host role on before you leave your seat."))
        name = give_to_computer(change, position)
        talk.log_event(change.table.id, host, change.name_of(host), "computer", name)

    apply_change(table_id, mutate)


def give_to_computer(change: Change, position: int) -> str:
    """Inside a change: a computer player takes the away person's seat at ``position`` and its
    chips (refused when nobody, or nobody away, sits there); returns the person's name. Also
    the tournament host's control (``tables.write.tournament_control.computer_plays``)."""
    seat = change.seats.get(position)
    if seat is None or seat.is_computer:
        raise Refused("no_person", _("Nobody sits in that seat."))
    if not seat.away:
        raise Refused(
            "not_away",
            _("%(name)s is not away: only an away person's seat can be given to the "
              "computer.") % {"name": seat.name},
        )
    name = seat.name
    change.make_computer(position)
    return name


def pass_host(table_id: int, hashes: Iterable[str], position: int) -> None:
    """Another person at the table becomes the host."""

    def mutate(change: Change) -> None:
        host = _host(change, hashes)
        if not change.table.is_open:
            raise Refused("not_open", _("This game is over."))
        seat = change.seats.get(position)
        if seat is None or seat.is_computer or position == host:
            raise Refused("no_person", _("Choose another person at the table."))
        change.table.host_position = position
        change.mark()
        talk.log_event(change.table.id, host, change.name_of(host), "host", seat.name)

    apply_change(table_id, mutate)


def set_learning(table_id: int, hashes: Iterable[str], on: bool) -> None:
    """Turn the learning table on or off for everyone (not against the computer: always on)."""

    def mutate(change: Change) -> None:
        host = _host(change, hashes)
        table = change.table
        if not table.is_open:
            raise Refused("not_open", _("This game is over."))
        if table.mode == Table.Mode.COMPUTER:
            raise Refused(
                "always_learning", _("Against the computer the table is always a learning table.")
            )
        if table.learning == on:
            return
        table.learning = on
        if not on:
            table.bot_reasons = []
        change.mark()
        event = "learning_on" if on else "learning_off"
        talk.log_event(table.id, host, change.name_of(host), event)

    apply_change(table_id, mutate)
