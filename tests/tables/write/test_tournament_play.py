"""Tournaments of computer players played to their end through the clock (issue 30: T1..T8)."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from engine.blinds import BLIND_LEVELS
from tables.models import Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament
from tests.tables.helpers.tournaments import (
    computer_tournament,
    game,
    play_to_the_end,
    tables_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _check_the_end(tournament: Tournament, entrants: int) -> Table:
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.finished_at is not None
    places = sorted(
        e.place or 0 for e in Entrant.objects.filter(tournament=tournament)
    )
    # T6: everyone placed exactly once; T5: players out in one hand with equal starting chips
    # share a place, and the next place goes on after them (the seed, drawn from the ids,
    # decides whether that happens).
    assert len(places) == entrants and places[0] == 1 and places.count(1) == 1
    assert all(place == 1 + sum(1 for p in places if p < place) for place in places), places
    winner = Entrant.objects.get(tournament=tournament, place=1)
    assert winner.table is not None and winner.position is not None
    final = winner.table
    final_game = game(final)
    assert final_game.seats[winner.position].stack == 1000 * entrants
    assert [s.stack for s in final_game.seats.values()] == [1000 * entrants]
    for table in tables_of(tournament):
        assert table.status == Table.Status.FINISHED
        assert table.deadline_kind == Table.Deadline.NONE
        assert game(table).total_chips() == (1000 * entrants if table.id == final.id else 0)
    assert list(Seat.objects.filter(table__tournament=tournament).values_list(
        "name", flat=True
    )) == [winner.name]
    # Busted entrants remember where they went out; the order of places follows the hands.
    out = Entrant.objects.filter(tournament=tournament).exclude(place=1)
    assert all(e.bust_table is not None and e.bust_hand for e in out)
    return final


def test_t1_t6_a_36_entrant_computer_tournament_plays_to_its_end() -> None:
    started = time.monotonic()
    tournament = computer_tournament(36)
    tables = tables_of(tournament)
    assert [len(game(t).seats) for t in tables] == [6] * 6  # T1
    assert [t.tournament_number for t in tables] == [1, 2, 3, 4, 5, 6]
    played = play_to_the_end(tournament)
    final = _check_the_end(tournament, 36)
    # T3: the last six (or fewer) played one final table, nowhere else.
    assert played.tables_dealing_when_six_left == {final.id}
    assert played.moves > 0
    tournament.refresh_from_db()
    assert tournament.level > 0  # T8: the level rose
    last = Hand.objects.filter(table=final).order_by("-number").first()
    assert last is not None
    level = min(tournament.level, len(BLIND_LEVELS) - 1)
    assert last.record["settings"]["big_blind"] <= BLIND_LEVELS[level][1]
    print(f"36 entrants: {played.hands_ended} hands, {played.ticks} ticks, "
          f"{played.moves} moves, {time.monotonic() - started:.1f} s")


def test_t1_t6_a_7_entrant_computer_tournament_plays_to_its_end() -> None:
    tournament = computer_tournament(7)
    tables = tables_of(tournament)
    assert sorted(len(game(t).seats) for t in tables) == [3, 4]  # T1: as even as can be
    played = play_to_the_end(tournament)
    final = _check_the_end(tournament, 7)
    assert played.tables_dealing_when_six_left == {final.id}
    for table in tables_of(tournament):  # a table's page draws, broken or final
        page = Client().get(reverse("tables:table", args=[table.code]))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-screen="over"' in html
        # Its end points to the tournament, not to a game of its own to play again.
        link = reverse("tournament:of_table", args=[table.code])
        assert f'href="{link}"' in html and 'data-testid="tournament-page-link"' in html
        assert "wins the game" not in html and 'data-testid="play-again"' not in html
        went = Client().get(link)
        assert went.status_code == 302
        assert went["Location"] == reverse("tournament:page", args=[tournament.code])
