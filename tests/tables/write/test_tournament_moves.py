"""A tournament's moves and the phones that follow them (issue 30): a phone away while its
player moved is pointed to the new table when it comes back; a phone that only watches
another table is left to watch."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from tables import claims, clock
from tables.models import Table
from tables.models.tournament import Entrant, Tournament
from tables.write import tournament_setup as setup
from tests.tables.helpers import Phone, new_session
from tests.tables.helpers.tournaments import seats_of, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def _people_tournament(count: int) -> tuple[Tournament, dict[str, SessionStore]]:
    """A started tournament of ``count`` people (no computer): claim hash -> session."""
    sessions = [new_session() for _ in range(count)]
    people = [(f"Player {i}", claims.new_claim(s)) for i, s in enumerate(sessions)]
    for session in sessions:
        session.save()
    tournament = setup.create(people, entrants_wanted=count, computer_fill=False, level_hands=1)
    setup.start(tournament.id)
    return tournament, {claim: s for (_name, claim), s in zip(people, sessions, strict=True)}


def _until_someone_moves(tournament: Tournament) -> tuple[Entrant, Table]:
    """Tick the clock (the people time out: check or fold) until a player still in sits at
    another table than before; that entrant and the table they left."""
    where = seats_of(tournament)
    for _tick in range(20_000):
        clock.tick(timezone.now() + timedelta(minutes=5))
        now = seats_of(tournament)
        for entrant_id, (table_id, _position) in now.items():
            before = where[entrant_id][0]
            if table_id != before and before is not None:
                old = Table.objects.get(pk=before)
                return Entrant.objects.select_related("table").get(pk=entrant_id), old
        where = now
    raise AssertionError("nobody moved")


async def test_a_phone_away_while_its_player_moved_is_sent_to_the_new_table_when_it_is_back(
) -> None:
    tournament, phone_of = await database_sync_to_async(_people_tournament)(7)
    # No phone is connected: nobody hears the move as it happens.
    entrant, old = await database_sync_to_async(_until_someone_moves)(tournament)
    assert entrant.table is not None and entrant.position is not None
    session = phone_of[entrant.claim_hash]

    phone = Phone(old.code, session.session_key)  # the phone wakes on the old table's page
    first = await phone.connect()
    assert first.data["mine"] == []  # it holds no seat here any more
    notice = await phone.until_notice("tournament_moved")
    assert f'data-url="/t/{entrant.table.code}/"' in notice.text
    number = entrant.table.tournament_number
    assert f"You moved to table {number}, seat {entrant.position + 1}." in notice.text
    await phone.close()

    there = Phone(entrant.table.code, session.session_key)  # where live.js takes it
    frame = await there.connect()
    assert frame.data["mine"] == [entrant.position]
    assert await there.quiet()  # and nothing sends it on from its own table
    await there.close()


async def test_a_player_watching_another_table_of_their_tournament_is_left_to_watch() -> None:
    tournament, phone_of = await database_sync_to_async(_people_tournament)(8)

    def two() -> tuple[Entrant, Table]:
        first, second = tables_of(tournament)
        entrant = Entrant.objects.filter(tournament=tournament, table=first).first()
        assert entrant is not None
        return entrant, second

    entrant, other = await database_sync_to_async(two)()
    phone = Phone(other.code, phone_of[entrant.claim_hash].session_key)
    frame = await phone.connect()
    assert frame.data["mine"] == [] and frame.data["screen"] == "watch"
    assert await phone.quiet()  # no "You moved": they never sat at this table
    await phone.close()
