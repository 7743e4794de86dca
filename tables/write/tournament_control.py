"""The host's pause and resume of a whole tournament.

A paused tournament deals no new hand: the hands in progress play to their end, then each
table waits. ``pause`` only marks the Tournament row (locked); each table stops at its next
deal, where ``tables.write.tournament_between_hands.between_hands`` sees the mark and calls
``hold``:
the table's clock is paused through the write path, as a host's pause of a friends table is
(``tables.write.host``), so its phones show "Paused by <host>" and the clock fires nothing
there. ``resume`` clears the mark and lets every held table deal at once. A pause also stops
the minutes of a level by time (``playing_seconds``): the blinds do not rise during a break.

Locks are taken in the order ``between_hands`` takes them: the tournament row, then its
tables in id order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import ModerationAction, Table
from tables.models.tournament import Tournament
from tables.read.tournament_lobby import playing_seconds
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

