"""A friend arriving late: taking a computer player's seat in a running game.

Opening the link of a running game (with friends or against the computer) offers "take a
computer's seat" when a computer player holds one that still has chips. The friend types a
name; the host answers on their phone (yes, no, or "yes, and anyone may this game"). Between
hands the friend sits down in a computer's seat with that computer's chips: the seat becomes
theirs (a claim in their session, as for anyone who joins), the game counts them as a person,
and the table's log says who took over from whom; so does the first hand they play (its page
in the history). They see the table's hands from that hand on, never the computer's before.
With no computer seat left, the friend watches.

Seating goes through the write path (``tables.write.path.apply_change``): at once when no hand
is running, else just before the next deal (``seat_waiting``, called by the clock).

The boxes each phone shows are drawn by ``tables.live.late``; the form posts are
``tables.pages.late``.

At a tournament's table there is no host to ask (the tournament's host sits at one
table of several; who may come was decided by sharing the code): a late friend sits down
between hands without an answer, and becomes the tournament's entrant of that seat (its name
and claim, a person from then on: the places say who finished where). Someone who is already an
entrant of the tournament (still in, or out) takes no seat: they watch.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from tables import claims, ratelimit
from tables.models import LateSeats, SeatRequest, Table
from tables.models.tournament import Entrant
from tables.read import tournament_history
from tables.write import push, talk
from tables.write.announce import group_name, tell
from tables.write.lobby import clean_name
from tables.write.path import Change, Refused, apply_change

OPEN_MODES = (Table.Mode.FRIENDS, Table.Mode.COMPUTER)


def _announce(table_id: int) -> None:
    """Every phone at the table: the requests changed (each draws its own part)."""
    tell(group_name(table_id), {"type": "chat.event", "kind": "late"})


def free_computer_seats(change: Change) -> list[int]:
    """Computer players' seats that still have chips (a seat out of the game is no use)."""
    if not change.has_game:
        return []
    game = change.game
    return [
        p for p, seat in sorted(change.seats.items())
        if seat.is_computer and p in game.seats and game.seats[p].stack > 0
    ]


def request_seat(
    table_id: int, session: MutableMapping[str, Any], name: str, client: Iterable[str] = ()
) -> SeatRequest:
    """Ask for a computer's seat. The claim is made now, so that the phone's connection (opened
    after this) already holds the seat once the friend sits down.

    Caps, against a stranger filling the host's screen or squatting names: one request per
    session at a table (asking again returns it), at most ``TABLES_LATE_WAITING_PER_TABLE``
    requests waiting at a table, and at most ``TABLES_LATE_REQUESTS_PER_MINUTE`` requests a
    minute from one client (``client``: its keys from ``tables.ratelimit.client_keys``)."""
    cleaned = clean_name(name)
    keys = list(client)
    hashes = set(claims.session_hashes(session))

    def mutate(change: Change) -> SeatRequest:
        table = change.table
        if table.status != Table.Status.PLAYING or table.mode not in OPEN_MODES:
            raise Refused("not_playing", _("Only a running game has seats to take over."))
        if change.positions_of(hashes):
            raise Refused("seated", _("You already have a seat at this table."))
        asked = SeatRequest.objects.filter(
            table=table, claim_hash__in=hashes,
            status__in=(SeatRequest.Status.PENDING, SeatRequest.Status.APPROVED),
        ).first()
        if asked is not None:
            return asked
        entrants = (
            list(Entrant.objects.filter(tournament_id=table.tournament_id))
            if table.tournament_id is not None else []
        )
        if table.tournament_id is not None and tournament_history.has_entered(
            table.tournament_id, hashes
        ):
            raise Refused("in_tournament", _(
                "You are already a player of this tournament: you cannot take a second seat."
            ))
        if not free_computer_seats(change):
            raise Refused("no_computer_seat", _("No computer player holds a seat: you watch."))
        waiting = SeatRequest.objects.filter(
            table=table, status__in=(SeatRequest.Status.PENDING, SeatRequest.Status.APPROVED)
        ).count()
        if waiting >= settings.TABLES_LATE_WAITING_PER_TABLE:
            raise Refused("too_many_waiting", _(
                "Too many people are already waiting for a seat here. Try again in a minute."
            ))
        if ratelimit.too_many("late", keys, settings.TABLES_LATE_REQUESTS_PER_MINUTE):
            raise Refused("rate_limited", _("Too many requests for a seat: wait a minute."))
        taken = {s.name.casefold() for s in change.seats.values()} | {
            r.name.casefold() for r in SeatRequest.objects.filter(
                table=table, status__in=(SeatRequest.Status.PENDING, SeatRequest.Status.APPROVED)
            )
        } | {e.name.casefold() for e in entrants}
        if cleaned.casefold() in taken:
            raise Refused(
                "name_taken",
                _("Someone at this table is already called %(name)s. Please pick another name.")
                % {"name": cleaned},
            )
        open_ = table.tournament_id is not None or (
            LateSeats.objects.filter(table=table, open=True).exists()
        )
        ratelimit.record("late", keys)
        request = SeatRequest.objects.create(
            table=table, name=cleaned, claim_hash=claims.new_claim(session),
            status=SeatRequest.Status.APPROVED if open_ else SeatRequest.Status.PENDING,
        )
        if open_:
            seat_waiting(change)
        transaction.on_commit(lambda: _announce(table.id))
        return request

    return apply_change(table_id, mutate)


def answer(table_id: int, hashes: Iterable[str], request_id: int, reply: str) -> SeatRequest:
    """The host's answer: "yes", "no", or "all" (yes, and anyone may this game)."""
    wanted = set(hashes)

    def mutate(change: Change) -> SeatRequest:
        table = change.table
        if table.host_position is None or table.host_position not in change.positions_of(wanted):
            raise Refused("not_host", _("Only the host can answer."))
        request = SeatRequest.objects.filter(table=table, pk=request_id).first()
        if request is None or request.status != SeatRequest.Status.PENDING:
            raise Refused("no_request", _("Nobody is waiting for that answer any more."))
        if reply not in ("yes", "no", "all"):
            raise Refused("bad_answer", _("Answer yes or no."))
        if reply == "all":
            LateSeats.objects.update_or_create(table=table, defaults={"open": True})
        request.status = (
            SeatRequest.Status.REFUSED if reply == "no" else SeatRequest.Status.APPROVED
        )
        request.save(update_fields=["status"])
        if reply != "no":
            seat_waiting(change)
            host = change.name_of(table.host_position)
            transaction.on_commit(lambda: push.let_in(request.claim_hash, host, table.code))
        transaction.on_commit(lambda: _announce(table.id))
        return request

    return apply_change(table_id, mutate)


def seat_waiting(change: Change) -> list[SeatRequest]:
    """Between hands, seat every approved friend in a computer's seat (oldest request first).
    Called inside a change: at once when no hand is running, else by the clock before it deals
    the next hand."""
    table = change.table
    if table.status != Table.Status.PLAYING or not change.has_game or change.game.hand_running:
        return []
    waiting = list(SeatRequest.objects.filter(table=table, status=SeatRequest.Status.APPROVED))
    seated = []
    for request in waiting:
        free = free_computer_seats(change)
        if not free:
            break  # the others wait for a seat (or watch)
        position = free[0]
        seat = change.seats[position]
        computer_name = seat.name
        seat.is_computer = False
        seat.level = ""
        seat.name = request.name
        seat.away = False
        seat.timeouts_in_row = 0
        seat.bank_used = 0  # P4: a whole time bank, whoever held the seat before
        # Between hands: the friend's window opens at the next hand, never the computer's.
        change.hand_over(
            seat, request.claim_hash, "is_computer", "level", "name", "away", "timeouts_in_row",
            "bank_used",
        )
        change.game.set_person(position, True)
        if table.tournament_id is not None:
            _becomes_entrant(table, position, request)
        request.status = SeatRequest.Status.SEATED
        request.position = position
        request.took_over = computer_name
        request.first_hand = change.game.hand_number + 1
        request.save(update_fields=["status", "position", "took_over", "first_hand"])
        talk.log_event(table.id, position, request.name, "took_over", computer_name)
        seated.append(request)
    if seated:
        change.mark()
        transaction.on_commit(lambda: _announce(table.id))
    return seated


def _becomes_entrant(table: Table, position: int, request: SeatRequest) -> None:
    """At a tournament's table: the computer's entrant at this seat is the friend from now on."""
    Entrant.objects.filter(
        tournament=table.tournament_id, table=table, position=position, place=None
    ).update(name=request.name, claim_hash=request.claim_hash, is_computer=False)


def took_over_before(table: Table, number: int) -> list[SeatRequest]:
    """Who sat down in a computer's seat just before hand ``number``."""
    return list(SeatRequest.objects.filter(
        table=table, status=SeatRequest.Status.SEATED, first_hand=number
    ))
