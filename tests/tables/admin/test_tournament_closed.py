"""T9: staff closing a tournament's table in the admin does not stall the tournament (issue
30): the hand in progress is cancelled, the table's players keep their chips and sit down at
the other tables as seats come free (most chips first, the shortest table between hands, its
worst seat), and closing the last open table ends the tournament with places by chips."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tables.admin.tables import close_table
from tables.models import Hand, Table
from tables.models.tournament import Entrant, Tournament
from tests.tables.helpers.tournaments import (
    chips,
    computer_tournament,
    fire,
    game,
    play_to_the_end,
    seats_of,
    tables_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _staff() -> User:
    return User.objects.create_user("mod", password="x", is_staff=True)


def test_t9_a_closed_tables_players_go_on_at_the_other_tables_with_their_chips() -> None:
    tournament = computer_tournament(14, level_hands=3)  # three tables: 5, 5 and 4
    tables = tables_of(tournament)
    shortest = min(tables, key=lambda t: len(game(t).seats))
    assert game(shortest).hand_running  # closed in the middle of its first hand
    players = {
        e.id for e in Entrant.objects.filter(tournament=tournament, table=shortest)
    }
    assert len(players) == 4
    close_table(shortest.id, _staff(), "a broken phone charger")
    shortest.refresh_from_db()
    assert shortest.status == Table.Status.CLOSED
    # The hand is cancelled: every one of its players has their 1,000 chips back.
    assert Hand.objects.get(table=shortest, number=1).cancelled
    assert sorted(s.stack for s in game(shortest).seats.values()) == [1000] * 4
    assert chips(tournament) == 14_000

    played = play_to_the_end(tournament)  # chips checked after every hand; it never stalls
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    places = list(Entrant.objects.filter(tournament=tournament).values_list("place", flat=True))
    assert len(places) == 14 and None not in places and places.count(1) == 1
    shortest.refresh_from_db()
    assert game(shortest).seats == {}  # everyone left the closed table, with their chips
    # They played on elsewhere: each has hands at another table after the close.
    for entrant in Entrant.objects.filter(pk__in=players):
        assert entrant.bust_table != shortest.tournament_number
    assert played.moves >= 4


def test_t9_they_sit_down_most_chips_first_then_by_seat_when_a_table_is_between_hands(
) -> None:
    tournament = computer_tournament(14, level_hands=3)
    tables = tables_of(tournament)
    shortest = min(tables, key=lambda t: len(game(t).seats))
    others = [t for t in tables if t.id != shortest.id]
    close_table(shortest.id, _staff(), "")
    # Both other tables are still in their first hand: nobody has sat down yet.
    waiting = seats_of(tournament)
    assert sum(1 for table_id, _p in waiting.values() if table_id == shortest.id) == 4
    first = others[0]
    for _step in range(500):  # the first other table plays its hand to its end
        first.refresh_from_db()
        if not game(first).hand_running:
            break
        assert fire(first)
    first.refresh_from_db()
    assert first.deadline_kind == Table.Deadline.NEXT_HAND
    # (A player who went out in that hand still has a seat until the next one: the seed,
    # drawn from the table's id, decides whether anyone did.)
    seats_before = sum(1 for s in game(first).seats.values() if s.stack > 0)
    assert fire(first)  # its next hand: the closed table's players sit in its free seats
    first.refresh_from_db()
    came = [
        e for e in Entrant.objects.filter(tournament=tournament, table=first)
        if waiting.get(e.id, (None, None))[0] == shortest.id
    ]
    assert len(came) == 6 - seats_before and game(first).hand_running
    # The cancelled hand gave everyone 1,000 back: equal chips, so the lower seats came first.
    old = sorted(p or 0 for table_id, p in waiting.values() if table_id == shortest.id)
    assert sorted(waiting[e.id][1] or 0 for e in came) == old[: len(came)]
    # Each sat down with their 1,000 at a seat the table had free.
    assert all(game(first).seats[e.position or 0].stack <= 1000 for e in came)


def test_t9_closing_the_last_open_table_ends_the_tournament_with_places_by_chips() -> None:
    tournament = computer_tournament(8, level_hands=3)  # two tables of four
    staff = _staff()
    for table in tables_of(tournament):
        close_table(table.id, staff, "the venue closes")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    entrants = list(Entrant.objects.filter(tournament=tournament))
    assert all(e.place is not None for e in entrants)
    # Every hand was cancelled: all have 1,000 chips, so all share first place.
    assert {e.place for e in entrants} == {1}


def test_t9_through_the_admin_page_the_tournament_plays_on_to_its_end() -> None:
    tournament = computer_tournament(9, level_hands=2)  # two tables: 5 and 4
    table = min(tables_of(tournament), key=lambda t: len(game(t).seats))
    staff = User.objects.create_superuser("boss", password="x")
    client = Client()
    client.force_login(staff)
    answer = client.post(
        reverse("admin:tables_table_close", args=[table.pk]), {"reason": "a spilled drink"}
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    places = list(Entrant.objects.filter(tournament=tournament).values_list("place", flat=True))
    assert len(places) == 9 and None not in places and places.count(1) == 1
