"""A tournament gives a person one seat, as far as the product can know: a second phone that
the person's own claims lead to (their games taken along, a seat moved to it) takes no second
seat, by late arrival or by joining. A fresh browser no claim leads to is a new person (the
README says so)."""

from __future__ import annotations

import pytest
from django.test import Client

from tables import claims
from tables.models import SeatRequest, Table
from tables.models.tournament import Entrant
from tables.read import tournament_history as history
from tables.write import identity, late
from tables.write import tournament_setup as setup
from tables.write.path import Refused
from tests.tables.helpers import NewPhone

pytestmark = pytest.mark.django_db


def test_a_phone_holding_an_entrant_s_games_takes_no_late_seat(new_phone: NewPhone) -> None:
    first = new_phone()
    claim = claims.new_claim(first)
    first.save()
    tournament = setup.create(
        [("Asha", claim)], entrants_wanted=7, level_hands=5,
    )
    setup.start(tournament.id)
    table = Table.objects.get(tournament=tournament, seats__claim_hash=claim)
    # Her games go to another phone (review only: the running seat stays on the first).
    token = identity.make_link(first)
    second = new_phone()
    identity.use_link(token, second, [])
    second.save()
    hashes = claims.session_hashes(second)
    assert claim not in hashes  # no control of her running seat
    assert history.has_entered(tournament.id, hashes)
    with pytest.raises(Refused) as refused:
        late.request_seat(table.id, second, "Asha two")
    assert refused.value.code == "in_tournament"
    assert not SeatRequest.objects.filter(table=table).exists()
    # A fresh browser is a new person to the product: it may ask.
    stranger = new_phone()
    assert not history.has_entered(tournament.id, claims.session_hashes(stranger))


def test_a_phone_holding_an_entrant_s_games_does_not_join_again() -> None:
    host = Client()
    session = host.session
    claim = claims.new_claim(session)
    session.save()
    tournament = setup.create([("Asha", claim)], entrants_wanted=7, level_hands=5)
    other = Client()
    other_session = other.session
    # A seat of hers reached this phone (here: her claim itself, as a hand-over would).
    other_session[claims.SESSION_KEY] = list(session[claims.SESSION_KEY])
    other_session.save()
    other.post(f"/tournament/{tournament.code}/join/", {"name": "Asha again"})
    assert Entrant.objects.filter(tournament=tournament).count() == 1
    review = Client()
    review_session = review.session
    token = identity.make_link(session)
    identity.use_link(token, review_session, [])
    review_session.save()
    review.post(f"/tournament/{tournament.code}/join/", {"name": "Asha third"})
    # Waiting tournament: no running seat, the claim itself went along: still one entrant.
    assert Entrant.objects.filter(tournament=tournament).count() == 1
