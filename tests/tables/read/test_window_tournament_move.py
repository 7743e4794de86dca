"""A tournament moves a player between tables: at the table they moved to, the seat's window
opens at the first hand they play there (``Seat.first_hand``), so the hands played at that seat
before, by whoever sat there, are not theirs, in the pages or any export; at the table they
left they keep the hands they played there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import clock
from tables.models import FormerClaim, Hand, Seat
from tables.models.tournament import Tournament
from tables.write import tournament_setup as setup
from tests.tables.helpers.tournaments import phones_with_claims
from tests.tables.helpers.windows import assert_window

pytestmark = pytest.mark.django_db


def _moved_seat(tournament: Tournament) -> Seat | None:
    """A person's seat at a table they were moved to, once they finished a hand there after
    someone else's hands at that seat."""
    for seat in Seat.objects.filter(table__tournament=tournament, is_computer=False):
        if not seat.first_hand:
            continue
        done = Hand.objects.filter(table=seat.table, ended_at__isnull=False, cancelled=False)
        if done.filter(number__gte=seat.first_hand).exists() and done.filter(
            number__lt=seat.first_hand
        ).exists():
            return seat
    return None


def test_a_moved_player_sees_the_new_seat_s_hands_only_from_their_first_there() -> None:
    people, phones = phones_with_claims(12)
    tournament = setup.create(people, entrants_wanted=12, computer_fill=False, level_hands=1)
    setup.start(tournament.id)
    found = None
    for _step in range(20_000):
        found = _moved_seat(tournament)
        if found is not None:
            break
        assert clock.tick(timezone.now() + timedelta(minutes=5)), "the tournament stalled"
    assert found is not None
    phone = phones[found.name]
    query = f"?seat={found.position}"
    assert_window(phone, found.table, found.position, found.first_hand, query=query)
    # Where they came from: their own hands there, up to the one they left after.
    left = FormerClaim.objects.filter(claim_hash=found.claim_hash).exclude(table=found.table)
    for former in left:
        if Hand.objects.filter(
            table=former.table, ended_at__isnull=False, number__gte=former.first_hand,
            number__lte=former.last_hand,
        ).exists():
            assert_window(
                phone, former.table, former.position, former.first_hand, former.last_hand,
                query=f"?seat={former.position}",
            )
