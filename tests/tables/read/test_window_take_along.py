"""Games taken to another phone: the other phone reviews the games, but a seat in a game still
being played stays on the first phone (no cards, no control) unless the person hands it over
there explicitly; "forget my games" ends every right the phone had, open pages included."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from tables.models import Seat, Table
from tables.write import identity
from tests.tables.helpers import Phone, client_lobby, game_of, phone_of, play_out
from tests.tables.helpers.windows import (
    asha_on_her_phone,
    assert_window,
    frame_cards,
    play_until,
    until_turn,
)


def take_along(first: Client, *, with_seats: bool) -> Client:
    """Make the link on ``first`` (the page's form) and open it on a new phone."""
    form = {"with_seats": "yes"} if with_seats else {}
    html = first.post(reverse("tables:games_take"), form).content.decode()
    found = re.search(r'(/games/take/[A-Za-z0-9_-]{32}/)', html)
    assert found is not None, html[:2000]
    other = Client()
    assert other.post(found.group(1)).status_code == 302
    return other


def running_table() -> tuple[Table, Client, int]:
    table, (asha, _bikash) = client_lobby("Asha", "Bikash", seats=3)
    asha.post(reverse("tables:start", args=[table.code]))
    table = play_until(table, 2)
    return table, asha, Seat.objects.get(table=table, name="Asha").position


def act(client: Client, table: Table, position: int) -> bool:
    """Whether a fold sent by ``client`` for ``position`` changed the table."""
    table.refresh_from_db()
    version = table.version
    client.post(reverse("tables:act", args=[table.code]), {
        "kind": "fold", "version": str(version), "action_id": "y" * 24, "seat": str(position),
    })
    table.refresh_from_db()
    return table.version != version


@pytest.mark.django_db
def test_taken_games_are_for_review_not_the_running_seat() -> None:
    table, asha, position = running_table()
    taken_at = game_of(table).hand_number
    other = take_along(asha, with_seats=False)
    # No control and no cards of the running hand on the other phone.
    html = other.get(reverse("tables:table", args=[table.code])).content.decode()
    hand = game_of(table).hand
    assert hand is not None
    mine = set(hand.hole[hand.seats.index(position)])
    assert not mine & frame_cards(html)
    # The hands played so far, through the seat's eyes: yes. Later ones: no.
    table = play_until(table, taken_at + 1)
    assert_window(other, table, position, 0, taken_at)
    assert_window(asha, table, position, 0)  # the first phone plays on, sees everything
    table = until_turn(table, position)
    assert not act(other, table, position)
    assert act(asha, table, position)


@pytest.mark.django_db
def test_handing_over_the_running_seat_is_asked_for_on_the_first_phone() -> None:
    table, asha, position = running_table()
    page = asha.get(reverse("tables:games_take")).content.decode()
    assert 'data-testid="with-seats"' in page  # the choice is offered, and off by default
    assert 'data-testid="with-seats" checked' not in page
    other = take_along(asha, with_seats=True)
    html = other.get(reverse("tables:table", args=[table.code])).content.decode()
    hand = game_of(table).hand
    assert hand is not None
    assert set(hand.hole[hand.seats.index(position)]) <= frame_cards(html)
    assert_window(other, table, position, 0)


@pytest.mark.django_db
def test_a_finished_game_goes_along_whole() -> None:
    table, asha, position = running_table()
    table = play_out(table.id)
    other = take_along(asha, with_seats=False)
    assert_window(other, table, position, 0)


@pytest.mark.django_db
def test_forgetting_ends_the_review_of_every_game() -> None:
    table, asha, position = running_table()
    other = take_along(asha, with_seats=True)
    assert other.post(reverse("tables:games_forget")).status_code == 302
    assert other.get(reverse("tables:history", args=[table.code])).status_code == 403
    table = until_turn(table, position)
    assert not act(other, table, position)
    html = other.get(reverse("tables:table", args=[table.code])).content.decode()
    hand = game_of(table).hand
    assert hand is not None
    assert not frame_cards(html) & set(hand.hole[hand.seats.index(position)])


@pytest.mark.django_db(transaction=True)
async def test_forgetting_drops_the_seats_of_the_phone_s_open_pages() -> None:
    table, key, position = await database_sync_to_async(asha_on_her_phone)()
    phone = Phone(table.code, key)
    frame = await phone.connect()
    assert frame.data["you"] == position

    def forget() -> None:
        store = SessionStore(session_key=key)
        identity.forget(store, key)
        store.save()

    await database_sync_to_async(forget)()
    while True:
        frame = await phone.next()
        if frame.maybe_version is not None:
            break
    assert frame.data["you"] is None and 'id="my-cards"' not in frame.text
    # A fold sent on that page now is not theirs to send.
    await phone.send({"type": "act", "kind": "fold", "version": frame.version,
                      "action_id": "z" * 24, "seat": position})
    refused = await phone.next()
    assert refused.notice_code is not None
    version = await database_sync_to_async(lambda: Table.objects.get(pk=table.id).version)()
    assert version == frame.version
    await phone.close()
    history = await database_sync_to_async(
        lambda: phone_of(key).get(reverse("tables:history", args=[table.code])).status_code
    )()
    assert history == 403
