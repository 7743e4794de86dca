"""A seat moved to another phone: only with its own phone's consent or once that phone is
gone, the moved-from phone is told, a host's move is in the moderation log, and the new phone
sees the seat's hands only from the hand it took the seat in (frames, histories, exports)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import claims
from tables.models import ModerationAction, Seat, Table
from tables.write import announce, play, seat_moves
from tests.tables.helpers import NewPhone, Phone, client_lobby, game_of
from tests.tables.helpers.windows import (
    asha_on_her_phone,
    assert_window,
    frame_cards,
    hole,
    play_until,
)


def started(*names: str) -> tuple[Table, list[Client]]:
    table, clients = client_lobby(*names, seats=3)
    clients[0].post(reverse("tables:start", args=[table.code]))
    table.refresh_from_db()
    return table, clients


def ask_link(client: Client, table: Table, position: int) -> tuple[int, str]:
    response = client.post(reverse("tables:seat_moves", args=[table.code]), {"seat": position})
    html = response.content.decode()
    found = re.search(r'href="https?://[^/"]+(/move/[A-Za-z0-9_-]+/)"', html)
    return response.status_code, found.group(1) if found else html


def seat(table: Table, name: str) -> Seat:
    return Seat.objects.get(table=table, name=name)


def opened(table: Table, position: int) -> None:
    """The seat's phone has its table page open (as the socket's connect counts it)."""
    play.touch_seats(table.id, [position], opened=1)


def closed(table: Table, position: int, ago: timedelta) -> None:
    """The seat's phone closed its last table page ``ago``."""
    play.touch_seats(table.id, [position], timezone.now() - ago, opened=-1)


@pytest.mark.django_db
def test_the_host_cannot_take_the_seat_of_a_phone_still_at_the_table() -> None:
    table, (host, _bikash) = started("Asha", "Bikash")
    bikash = seat(table, "Bikash")
    opened(table, bikash.position)
    menu = host.get(reverse("tables:seat_moves", args=[table.code])).content.decode()
    assert re.search(rf'data-testid="move-seat-{bikash.position}" disabled', menu)
    assert "phone is still at the table: only they can move their seat" in menu
    status, text = ask_link(host, table, bikash.position)
    assert status == 409 and "still at the table" in text
    # Closed a moment ago: a reload or a tunnel, not gone yet.
    closed(table, bikash.position, timedelta(seconds=5))
    status, text = ask_link(host, table, bikash.position)
    assert status == 409
    assert seat(table, "Bikash").claim_hash == bikash.claim_hash
    # Gone for longer than the grace: the host may move it.
    closed(table, bikash.position, seat_moves.GRACE + timedelta(seconds=1))
    status, link = ask_link(host, table, bikash.position)
    assert status == 200 and link.startswith("/move/")


@pytest.mark.django_db
def test_an_away_player_s_seat_may_be_moved_by_the_host_even_with_a_page_open() -> None:
    table, (host, _bikash) = started("Asha", "Bikash")
    bikash = seat(table, "Bikash")
    opened(table, bikash.position)
    Seat.objects.filter(pk=bikash.pk).update(away=True)
    status, _link = ask_link(host, table, bikash.position)
    assert status == 200


@pytest.mark.django_db
def test_a_host_link_is_refused_when_the_phone_came_back_before_it_was_used() -> None:
    table, (host, _bikash) = started("Asha", "Bikash")
    bikash = seat(table, "Bikash")
    status, link = ask_link(host, table, bikash.position)  # never connected: gone
    assert status == 200
    opened(table, bikash.position)  # then their phone opens the table again
    response = Client().post(link)
    assert response.status_code == 409
    assert "still at the table" in response.content.decode()
    assert seat(table, "Bikash").claim_hash == bikash.claim_hash
    assert not ModerationAction.objects.filter(action=ModerationAction.HOST_MOVE).exists()


@pytest.mark.django_db
def test_a_moved_seat_s_new_phone_sees_its_hands_only_from_the_move_on() -> None:
    table, (host, bikash_phone) = started("Asha", "Bikash")
    table = play_until(table, 2)
    bikash = seat(table, "Bikash")
    moved_in = game_of(table).hand_number  # running: the cards go with the seat
    status, link = ask_link(host, table, bikash.position)
    assert status == 200
    new = Client()
    assert new.post(link).status_code == 302
    log = ModerationAction.objects.get(action=ModerationAction.HOST_MOVE)
    assert log.table_id == table.pk and log.detail == {"seat": bikash.position, "name": "Bikash"}
    table.refresh_from_db()
    assert seat(table, "Bikash").first_hand == moved_in
    # The running hand's cards are the new phone's now, and only its own.
    html = new.get(reverse("tables:table", args=[table.code])).content.decode()
    assert hole_now(table, bikash.position) <= frame_cards(html)
    table = play_until(table, moved_in + 1)
    # The new phone: the hands from the one it took the seat in, never those before.
    assert_window(new, table, bikash.position, moved_in)
    for number in range(1, moved_in):
        for url in (reverse("tables:hand_pokerstars", args=[table.code, number]),
                    reverse("tables:hand", args=[table.code, number])):
            assert new.get(url).status_code == 404
    # The old phone keeps the hands it played, up to the one it lost the seat in.
    assert_window(bikash_phone, table, bikash.position, 0, moved_in)
    # The host, who asked for the move, still sees only through their own seat.
    stars = host.get(
        reverse("tables:game_pokerstars", args=[table.code]) + f"?seat={bikash.position}"
    ).content.decode()
    assert "Dealt to Asha" in stars and "Dealt to Bikash" not in stars


def hole_now(table: Table, position: int) -> set[object]:
    hand = game_of(table).hand
    assert hand is not None
    return set(hand.hole[hand.seats.index(position)])


@pytest.mark.django_db
def test_the_seats_own_move_keeps_the_running_hand_and_nothing_before() -> None:
    table, (_host, bikash_phone) = started("Asha", "Bikash")
    table = play_until(table, 1)
    bikash = seat(table, "Bikash")
    opened(table, bikash.position)  # their own phone, connected: their own consent
    status, link = ask_link(bikash_phone, table, bikash.position)
    assert status == 200
    new = Client()
    assert new.post(link).status_code == 302
    assert not ModerationAction.objects.filter(action=ModerationAction.HOST_MOVE).exists()
    moved_in = game_of(Table.objects.get(pk=table.pk)).hand_number
    table = play_until(table, moved_in)
    assert_window(new, table, bikash.position, moved_in)
    assert hole(table, 1, bikash.position)  # hand 1 was dealt to the seat, and stays hidden


@pytest.mark.django_db(transaction=True)
async def test_the_moved_from_phone_is_told_and_only_watches(new_phone: NewPhone) -> None:
    table, key, position = await database_sync_to_async(asha_on_her_phone)()
    old = Phone(table.code, key)
    await old.connect()
    counted = await database_sync_to_async(
        lambda: Seat.objects.get(table_id=table.id, position=position).connections
    )()
    assert counted == 1

    def move() -> None:
        from django.contrib.sessions.backends.db import SessionStore

        store = SessionStore(session_key=key)
        link = seat_moves.make_link(
            Table.objects.get(pk=table.id), claims.session_hashes(store), position
        )
        seat_moves.use_link(link.token, new_phone(), [])

    await announce.write_then_notify(move)
    told = await old.until_notice("seat_moved")
    assert told.data.get("you") is None
    assert 'id="my-cards"' not in told.text
    await old.close()
    left = await database_sync_to_async(
        lambda: Seat.objects.get(table_id=table.id, position=position).connections
    )()
    assert left == 0
