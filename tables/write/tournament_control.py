"""The tournament host's controls: pause and resume the whole tournament, end it now, and let
the computer play for an away entrant at one of its tables.

A paused tournament deals no new hand: the hands in progress play to their end, then each
table waits. ``pause`` only marks the Tournament row (locked); each table stops at its next
deal, where ``tables.write.tournament_between_hands.between_hands`` sees the mark and calls
``hold``:
the table's clock is paused through the write path, as a host's pause of a friends table is
(``tables.write.host``), so its phones show "Paused by <host>" and the clock fires nothing
there. ``resume`` clears the mark and lets every held table deal at once. A pause also stops
the minutes of a level by time (``playing_seconds``): the blinds do not rise during a break.

``end`` calls off the hands being played at every table (every chip back where it was when
each began), places everyone still in by chips (T6, as when one player holds every chip) and
ends every table's game. ``computer_plays`` gives an away entrant's seat to a computer player
with its chips, as the host of a friends table does (``tables.write.host.give_to_computer``):
a table of away entrants no longer crawls through time-outs.

Locks are taken in the order ``between_hands`` takes them: the tournament row, then its
tables in id order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import tournament as rules
from engine.game import Game
from tables.models import ModerationAction, Table
from tables.models.tournament import Tournament
from tables.read.tournament_lobby import playing_seconds
from tables.write import talk
from tables.write.host import give_to_computer
from tables.write.path import Change, Refused, apply_change


def is_host(tournament: Tournament, hashes: Iterable[str]) -> bool:
    return bool(tournament.host_claim) and tournament.host_claim in set(hashes)


def _locked_for_host(tournament_id: int, hashes: Iterable[str]) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if not is_host(tournament, hashes):
        raise Refused("not_host", _("Only the host can do that."))
    if tournament.status != Tournament.Status.PLAYING:
        raise Refused("not_playing", _("The tournament is not being played right now."))
    return tournament


def pause(tournament_id: int, hashes: Iterable[str]) -> None:
    """The host pauses the tournament: no table deals a new hand until ``resume``."""
    with transaction.atomic():
        tournament = _locked_for_host(tournament_id, hashes)
        if tournament.paused:
            raise Refused("already_paused", _("The tournament is already paused."))
        tournament.paused = True
        tournament.paused_at = timezone.now()
        tournament.version += 1
        tournament.save(update_fields=["paused", "paused_at", "version"])


def resume(tournament_id: int, hashes: Iterable[str]) -> None:
    """The host resumes: every table held by the pause deals its next hand at once."""
    with transaction.atomic():
        tournament = _locked_for_host(tournament_id, hashes)
        if not tournament.paused:
            raise Refused("not_paused", _("The tournament is not paused."))
        now = timezone.now()
        tournament.paused_seconds = playing_seconds(tournament, now, paused=True)
        tournament.paused = False
        tournament.paused_at = None
        tournament.version += 1
        tournament.save(update_fields=["paused", "paused_at", "paused_seconds", "version"])
        held = Table.objects.filter(
            tournament=tournament, paused=True, status=Table.Status.PLAYING
        ).order_by("id").values_list("id", flat=True)
        for table_id in list(held):
            apply_change(table_id, _release(tournament.host_name))


def hold(table_id: int, host_name: str) -> None:
    """At a paused tournament's table between hands: stop its clock (inside ``between_hands``'
    transaction, the table already locked)."""

    def mutate(change: Change) -> None:
        table = change.table
        change.stop_clock()  # between hands: the next deal waits for the resume
        ModerationAction.objects.create(
            table=table, at=change.now, action=ModerationAction.HOST_PAUSE,
            detail={"remaining": 0.0, "deadline": table.deadline_kind, "host": host_name},
        )

    apply_change(table_id, mutate)


def _release(host_name: str) -> Callable[[Change], None]:
    def mutate(change: Change) -> None:
        table = change.table
        if not table.paused:
            return
        change.start_clock(at_once=True)  # the next hand: dealt at the clock's next tick
        ModerationAction.objects.create(
            table=table, at=change.now, action=ModerationAction.HOST_RESUME,
            detail={"host": host_name},
        )

    return mutate



def end(tournament_id: int, hashes: Iterable[str]) -> None:
    """The host ends the tournament now (see the module's doc)."""
    with transaction.atomic():
        tournament = _locked_for_host(tournament_id, hashes)
        tables = list(
            Table.objects.select_for_update().filter(tournament=tournament).order_by("id")
        )
        entrants = list(tournament.entrants.all())
        standings = rules.Standings(
            len(entrants), {str(e.id): e.place for e in entrants if e.place is not None}
        )
        chips: dict[tuple[int, int], int] = {}
        for table in tables:
            if table.state is None:
                continue
            if table.status == Table.Status.PLAYING:
                stacks = apply_change(table.id, _end_table(tournament.host_name))
            else:  # a table staff closed: its players' chips stay where they are
                stacks = {p: s.stack for p, s in Game.from_dict(table.state).seats.items()}
            chips.update({(table.id, p): stack for p, stack in stacks.items()})
        left = [e for e in entrants if e.place is None]
        given = standings.finish({
            str(e.id): chips.get((e.table_id or 0, e.position or 0), 0) for e in left
        })
        for entrant in left:
            entrant.place = given[str(entrant.id)]
            entrant.save(update_fields=["place"])
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = timezone.now()
        tournament.paused = False
        tournament.version += 1
        tournament.save(update_fields=["status", "finished_at", "paused", "version"])


def _end_table(host_name: str) -> Callable[[Change], dict[int, int]]:
    def mutate(change: Change) -> dict[int, int]:
        game = change.game
        game.cancel_hand()
        if not game.finished:
            game.end_now()
        change.table.paused = False
        change.mark()
        talk.log_event(change.table.id, 0, host_name, "ended_tournament")
        return {p: s.stack for p, s in game.seats.items()}

    return mutate


def computer_plays(table_id: int, hashes: Iterable[str], position: int) -> None:
    """The tournament's host lets a computer player take an away entrant's seat at this table,
    with its chips; the entrant stays in the tournament, played by the computer."""

    def mutate(change: Change) -> None:
        tournament = Tournament.objects.filter(pk=change.table.tournament_id or 0).first()
        if tournament is None or not is_host(tournament, hashes):
            raise Refused("not_host", _("Only the host can do that."))
        if change.table.status != Table.Status.PLAYING:
            raise Refused("not_playing", _("The game is not being played right now."))
        name = give_to_computer(change, position)
        talk.log_event(change.table.id, position, tournament.host_name, "computer", name)

    apply_change(table_id, mutate)
