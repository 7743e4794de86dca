"""A person out of chips, still at the party: "tell me when the next game starts".

A friend whose chips are gone keeps their seat at the table (R31: out of the game, not of the
evening) and sees where they finished (templates/table/out.html); they may watch, leave, or ask
to be told when the next game of their group starts. The choice is kept on their seat
(``Seat.tell_next_game``) through the one write path, so every phone of theirs shows it.

The ways of telling are in ``NEXT_GAME_TELLERS``, each a function taking the new game's code and
the claim hashes of the people who asked: a notification on their phones
(``tables.write.push.next_game``, for the phones that turned notifications on).
``tables.write.lobby.start_game`` calls ``next_game_started`` once a game starts (after the
commit); ``to_tell`` says who asked, at the game before it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _

from tables.models import Seat, Table
from tables.write import push
from tables.write.path import Change, Refused, apply_change

log = logging.getLogger(__name__)

# The ways people are told the next game started: each called with the new game's code and
# the claim hashes of the people of the game before it who asked.
NEXT_GAME_TELLERS: list[Callable[[str, list[str]], None]] = [push.next_game]


def tell_when_next_game_starts(table_id: int, hashes: Iterable[str], on: bool) -> None:
    """A person out of chips asks to be told when the next game starts (``on``), or no longer."""
    wanted = set(hashes)

    def mutate(change: Change) -> None:
        mine = [s for s in change.seats.values() if s.claim_hash and s.claim_hash in wanted]
        if not mine:
            raise Refused("not_seated", _("Only the players of this game can ask that."))
        game = change.game if change.has_game else None
        out = [s for s in mine if game is not None and s.position in game.seats
               and game.seats[s.position].stack == 0]
        if not out:
            raise Refused("not_out", _("You still have chips: you are in this game."))
        for seat in out:
            if seat.tell_next_game != on:
                seat.tell_next_game = on
                change.save_seat(seat, "tell_next_game")

    apply_change(table_id, mutate)


def to_tell(table_id: int) -> list[str]:
    """The claim hashes of the people at the table ``table_id`` who asked to be told when the
    next game starts."""
    return list(
        Seat.objects.filter(table_id=table_id, tell_next_game=True)
        .exclude(claim_hash="").values_list("claim_hash", flat=True)
    )


def next_game_started(table_id: int) -> None:
    """The game at ``table_id`` started: the people of the game before it (the table that
    played again into this one) who asked are told, by every teller."""
    before = Table.objects.filter(next_table_id=table_id).values_list("id", flat=True).first()
    if before is None or not NEXT_GAME_TELLERS:
        return
    hashes = to_tell(before)
    code = Table.objects.filter(pk=table_id).values_list("code", flat=True).first()
    if not hashes or code is None:
        return
    for teller in NEXT_GAME_TELLERS:
        try:
            teller(code, hashes)
        except Exception:  # one way of telling failing must not stop the others, nor the game
            log.exception("telling of the next game failed at table %s", code)
