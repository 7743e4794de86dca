"""A friend who took a computer's seat sees that seat's hands from the first hand they played
there, never the computer's before, in the pages and every export; and when they move the seat
on to another phone, the window moves with the seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import claims, clock
from tables.models import SeatRequest, Table
from tables.write import late, lobby, seat_moves
from tests.tables.helpers import NewPhone, game_of, new_session, phone_of
from tests.tables.helpers.driver import seat_people_now
from tests.tables.helpers.windows import assert_window, play_until

pytestmark = pytest.mark.django_db


def late_friend(hands_before: int) -> tuple[Table, SeatRequest, Client, list[str]]:
    """Asha (host) and Bikash with two computers; ``hands_before`` hands played; then Chandra
    is let in and plays her first hand at a computer's seat, to its end."""
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    table = play_until(table, hands_before)
    chandra = new_session()
    request = late.request_seat(table.id, chandra, "Chandra")
    chandra.save()
    late.answer(table.id, claims.session_hashes(sessions[0]), request.pk, "yes")
    for _ in range(500):  # she sits down between hands
        request.refresh_from_db()
        if request.status == SeatRequest.Status.SEATED:
            break
        clock.tick(timezone.now() + timedelta(minutes=5))
    assert request.status == SeatRequest.Status.SEATED and request.first_hand is not None
    table = play_until(table, request.first_hand)  # her first hand is over
    assert request.position is not None
    return table, request, phone_of(chandra.session_key), claims.session_hashes(chandra)


def test_a_late_friend_sees_the_seat_s_hands_only_from_their_first() -> None:
    table, request, chandra, _hashes = late_friend(2)
    assert request.first_hand is not None and request.position is not None
    assert table.seats.get(position=request.position).first_hand == request.first_hand
    assert_window(chandra, table, request.position, request.first_hand)
    for number in range(1, request.first_hand):  # the computer's hands at that seat
        url = reverse("tables:hand_pokerstars", args=[table.code, number])
        assert chandra.get(url).status_code == 404


def test_a_late_friend_s_seat_moved_on_keeps_its_window_on_the_new_phone(
    new_phone: NewPhone,
) -> None:
    table, request, chandra, hashes = late_friend(2)
    assert request.position is not None
    position = request.position
    link = seat_moves.make_link(Table.objects.get(pk=table.pk), hashes, position)
    other = new_phone()
    seat_moves.use_link(link.token, other, [])
    other.save()
    moved_in = game_of(Table.objects.get(pk=table.pk)).hand_number
    table = play_until(table, moved_in)
    new = phone_of(other.session_key)
    # From the hand the seat moved in: not the computer's hands, not even hers before.
    assert_window(new, table, position, moved_in)
    # Her old phone keeps her own window: her first hand up to the move.
    assert request.first_hand is not None
    assert_window(chandra, table, position, request.first_hand, moved_in)
