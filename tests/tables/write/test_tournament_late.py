"""A friend arriving late at a tournament's table (issue 30, tables.write.late): they take a
computer's seat between hands without waiting for an answer and become that seat's entrant
(name, claim, a person: the places say who finished where); a player of the tournament takes
no second seat."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore

from tables import claims
from tables.live.late import offer_context
from tables.models import Seat, SeatRequest, Table
from tables.models.tournament import Entrant, Tournament
from tables.write import late
from tables.write import tournament_setup as setup
from tables.write.path import Refused
from tests.tables.helpers import NewPhone, new_session
from tests.tables.helpers.tournaments import chips, fire, game, play_to_the_end, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament() -> tuple[Tournament, SessionStore]:
    """Asha and seven computers, started (two tables)."""
    asha = new_session()
    tournament = setup.create(
        [("Asha", claims.new_claim(asha))], entrants_wanted=8, level_hands=2,
        computer_level="easy",
    )
    asha.save()
    setup.start(tournament.id)
    tournament.refresh_from_db()
    return tournament, asha


def _between_hands(table: Table) -> Table:
    for _step in range(500):
        table.refresh_from_db()
        if not game(table).hand_running:
            return table
        assert fire(table)
    raise AssertionError("the hand did not end")


def _computer_table(tournament: Tournament, asha: SessionStore) -> Table:
    """A table where Asha does not sit."""
    mine = set(claims.session_hashes(asha))
    for table in tables_of(tournament):
        if not table.seats.filter(claim_hash__in=mine).exists():
            return table
    raise AssertionError("Asha sits at every table")


def test_a_late_friend_takes_a_computers_seat_and_becomes_its_entrant(new_phone: NewPhone) -> None:
    tournament, asha = _tournament()
    table = _between_hands(_computer_table(tournament, asha))
    dipa = new_phone()
    assert offer_context(table.id, claims.session_hashes(dipa), seated=False)["show"]
    request = late.request_seat(table.id, dipa, "Dipa")
    dipa.save()
    # No host to ask at a tournament's table: seated at once, between hands.
    request.refresh_from_db()
    assert request.status == SeatRequest.Status.SEATED
    claim = request.claim_hash
    seat = Seat.objects.get(table=table, claim_hash=claim)
    assert (seat.name, seat.is_computer) == ("Dipa", False)
    entrant = Entrant.objects.get(tournament=tournament, table=table, position=seat.position)
    assert (entrant.name, entrant.claim_hash, entrant.is_computer) == ("Dipa", claim, False)
    assert Entrant.objects.filter(tournament=tournament).count() == 8  # nobody added
    table.refresh_from_db()
    assert game(table).seats[seat.position].is_person
    # The tournament plays on to its end: Dipa is placed once, under her own name.
    play_to_the_end(tournament)
    assert chips(tournament) == 8000
    names = list(Entrant.objects.filter(tournament=tournament).values_list("name", "place"))
    assert sorted(n for n, _p in names).count("Dipa") == 1
    assert all(place is not None for _n, place in names)
    assert request.took_over not in {n for n, _p in names}


def test_a_late_friend_asking_mid_hand_sits_down_at_that_tables_next_deal(
    new_phone: NewPhone,
) -> None:
    tournament, asha = _tournament()
    table = _computer_table(tournament, asha)
    table.refresh_from_db()
    assert game(table).hand_running  # the first hand is dealt at the start
    hari = new_phone()
    request = late.request_seat(table.id, hari, "Hari")
    hari.save()
    request.refresh_from_db()
    assert request.status == SeatRequest.Status.APPROVED  # waits for the end of the hand
    _between_hands(table)
    assert fire(table)  # the tournament's next-hand deadline: seated, then dealt
    request.refresh_from_db()
    assert request.status == SeatRequest.Status.SEATED
    entrant = Entrant.objects.get(tournament=tournament, claim_hash=request.claim_hash)
    assert (entrant.name, entrant.is_computer) == ("Hari", False)
    assert entrant.table_id == table.id and entrant.position == request.position


def test_a_player_of_the_tournament_takes_no_second_seat_and_no_entrants_name(
    new_phone: NewPhone,
) -> None:
    tournament, asha = _tournament()
    table = _between_hands(_computer_table(tournament, asha))
    assert not offer_context(table.id, claims.session_hashes(asha), seated=False)["show"]
    with pytest.raises(Refused) as refused:
        late.request_seat(table.id, asha, "Asha again")
    assert refused.value.code == "in_tournament"
    somebody = Entrant.objects.filter(tournament=tournament, is_computer=True).exclude(
        table=table
    ).first()
    assert somebody is not None
    with pytest.raises(Refused) as taken:
        late.request_seat(table.id, new_phone(), somebody.name.upper())
    assert taken.value.code == "name_taken"
