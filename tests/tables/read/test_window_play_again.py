"""Play again: the new table's seats go to the phones that held the seats at the end of the
game. A seat moved to another phone mid-game goes on with that phone; the phone it left sees
nothing of the new table, and keeps only its own window of the old one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Seat, Table
from tables.write import seat_moves
from tests.tables.helpers import NewPhone, client_lobby, game_of, phone_of, play_out
from tests.tables.helpers.windows import assert_window, frame_cards, play_until

pytestmark = pytest.mark.django_db


def test_play_again_follows_the_seat_to_the_phone_it_moved_to(new_phone: NewPhone) -> None:
    table, (asha, bikash) = client_lobby("Asha", "Bikash", seats=3, length="30")
    asha.post(reverse("tables:start", args=[table.code]))
    table = play_until(table, 2)
    position = Seat.objects.get(table=table, name="Bikash").position
    hashes = [Seat.objects.get(table=table, name="Bikash").claim_hash]
    link = seat_moves.make_link(table, hashes, position)
    other = new_phone()
    seat_moves.use_link(link.token, other, [])
    other.save()
    moved_to = phone_of(other.session_key)
    moved_in = game_of(Table.objects.get(pk=table.pk)).hand_number
    table = play_out(table.id)
    assert asha.post(reverse("tables:again", args=[table.code])).status_code == 302
    table.refresh_from_db()
    again = table.next_table
    assert again is not None
    held = Seat.objects.get(table=again, position=position)
    assert held.claim_hash == Seat.objects.get(table=table, position=position).claim_hash
    assert held.first_hand == 0  # a new table: every hand of it is theirs
    asha.post(reverse("tables:start", args=[again.code]))
    again = play_until(again, 1)
    # The new phone plays and reviews the new table through the seat.
    html = moved_to.get(reverse("tables:table", args=[again.code])).content.decode()
    hand = game_of(again).hand
    assert hand is not None
    assert set(hand.hole[hand.seats.index(position)]) <= frame_cards(html)
    assert_window(moved_to, again, position, 0)
    # The phone the seat left: a spectator at the new table, with no hand to review there.
    old_html = bikash.get(reverse("tables:table", args=[again.code])).content.decode()
    assert not set(hand.hole[hand.seats.index(position)]) & frame_cards(old_html)
    assert bikash.get(reverse("tables:history", args=[again.code])).status_code == 403
    # ...and the hands it played at the old table, up to the move.
    assert_window(bikash, table, position, 0, moved_in)
    assert_window(moved_to, table, position, moved_in)
    assert Client().get(reverse("tables:history", args=[again.code])).status_code == 403
