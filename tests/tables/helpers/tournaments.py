"""Driving a tournament of computer players through the clock, in this process, and phones
with seat claims to enter one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Max
from django.test import Client
from django.utils import timezone

from engine.game import Game
from tables import claims, clock
from tables.models import Hand, Table
from tables.models.tournament import Entrant, Tournament
from tables.write import tournament_setup as setup

LATER = timedelta(minutes=5)


def computer_tournament(entrants: int, *, level_hands: int = 5, level: str = "easy") -> Tournament:
    """A started tournament of ``entrants`` computer players (no person)."""
    tournament = setup.create(
        entrants_wanted=entrants, level_hands=level_hands, computer_level=level
    )
    setup.start(tournament.id)
    tournament.refresh_from_db()
    return tournament


def tables_of(tournament: Tournament) -> list[Table]:
    return list(Table.objects.filter(tournament=tournament).order_by("id"))


def game(table: Table) -> Game:
    assert table.state is not None
    return Game.from_dict(table.state)


def chips(tournament: Tournament) -> int:
    """Every chip at every table of the tournament, the running hands' pots included."""
    return sum(game(t).total_chips() for t in tables_of(tournament) if t.state is not None)


def fire(table: Table) -> bool:
    """Fire the table's pending deadline (whatever its time), as the clock would."""
    table.refresh_from_db()
    return clock.fire(table.id, table.version, timezone.now() + LATER)


def seats_of(tournament: Tournament) -> dict[int, tuple[int | None, int | None]]:
    """Where every entrant still in sits: entrant id -> (table id, position)."""
    return {
        e.id: (e.table_id, e.position)
        for e in Entrant.objects.filter(tournament=tournament, place=None)
    }


@dataclass
class Played:
    ticks: int = 0
    hands_ended: int = 0
    moves: int = 0
    tables_dealing_when_six_left: set[int] = field(default_factory=set)


def play_to_the_end(tournament: Tournament, max_ticks: int = 100_000) -> Played:
    """Tick the clock until the tournament is over, checking after every hand that no chip
    appeared or vanished, that nobody moved out of a hand in progress, and which tables dealt
    once six players or fewer were left."""
    total = 1000 * tournament.entrants.count()
    played = Played()
    ended = 0
    where = seats_of(tournament)
    running = _running_hands(tournament)
    for _tick in range(max_ticks):
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return played
        left = len(where)
        newest = Hand.objects.filter(table__tournament=tournament).order_by("-id").first()
        before = newest.id if newest else 0
        fired = clock.tick(timezone.now() + LATER)
        played.ticks += 1
        assert fired, "the tournament stalled: no deadline was due"
        now_ended = Hand.objects.filter(table__tournament=tournament, ended_at__isnull=False)
        count = now_ended.count()
        if count != ended:
            ended = count
            played.hands_ended = count
            assert chips(tournament) == total
        if left <= 6:
            played.tables_dealing_when_six_left |= set(
                Hand.objects.filter(table__tournament=tournament, id__gt=before)
                .values_list("table_id", flat=True)
            )
        now_where = seats_of(tournament)
        for entrant, (table_id, _position) in now_where.items():
            old_table = where[entrant][0]
            if old_table is not None and old_table != table_id:
                played.moves += 1
                # The hand they were in at the old table (if any) had ended before they left.
                assert running.get(old_table) is None or _ended(running[old_table])
        where = now_where
        running = _running_hands(tournament)
    raise AssertionError("the tournament did not end")


def _running_hands(tournament: Tournament) -> dict[int, int]:
    """Table id -> id of its newest hand row."""
    rows = Hand.objects.filter(table__tournament=tournament).values("table_id").annotate(
        newest=Max("id")
    )
    return {row["table_id"]: row["newest"] for row in rows}


def _ended(hand_id: int) -> bool:
    return Hand.objects.filter(pk=hand_id, ended_at__isnull=False).exists()


def phones_with_claims(count: int) -> tuple[list[tuple[str, str]], dict[str, Client]]:
    """``count`` phones, each with a seat claim in its session: (name, claim) and the phones."""
    people, phones = [], {}
    for i in range(count):
        phone = Client()
        session = phone.session
        claim = claims.new_claim(session)
        session.save()
        name = f"Friend {i}"
        people.append((name, claim))
        phones[name] = phone
    return people, phones
