"""Hybrid tables (issue 18): a friends table where some people share the host's phone (pass and
play) while the others join from their own phones."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.models import Seat, Table
from tables.write import lobby, seat_moves
from tests.tables.helpers import NewPhone, create_form
from tests.tables.helpers.driver import Stats, build
from tests.tables.helpers.pages import frame_data


@pytest.mark.django_db
def test_the_host_seats_people_on_this_phone_and_friends_join_by_code() -> None:
    host = Client()
    form = create_form("friends", name="Asha", name_2="Bikash", seats="4")
    response = host.post(reverse("tables:create"), form)
    assert response.status_code == 302
    table = Table.objects.get(code=response["Location"].strip("/").split("/")[-1])
    assert table.mode == Table.Mode.FRIENDS and table.status == Table.Status.WAITING
    hashes = set(claims.session_hashes(host.session))
    here = {s.name for s in Seat.objects.filter(table=table) if s.claim_hash in hashes}
    assert here == {"Asha", "Bikash"}
    chandra = Client()
    chandra.post(reverse("tables:join", args=[table.code]), {"name": "Chandra"})
    seats = {s.name: s for s in Seat.objects.filter(table=table)}
    assert seats["Chandra"].claim_hash not in hashes and seats["Chandra"].claim_hash
    host.post(reverse("tables:start", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    data, _html = frame_data(host, table)
    assert sorted(data["mine"]) == sorted([seats["Asha"].position, seats["Bikash"].position])
    remote, _html = frame_data(chandra, table)
    assert remote["mine"] == [seats["Chandra"].position]


@pytest.mark.django_db
def test_the_create_page_offers_people_on_this_phone_for_friends_tables_only() -> None:
    friends = Client().get(reverse("tables:create") + "?mode=friends").content.decode()
    assert "People on this phone" in friends and 'name="name_2"' in friends
    computer = Client().get(reverse("tables:create") + "?mode=computer").content.decode()
    assert 'name="name_2"' not in computer
    response = Client().post(
        reverse("tables:create"), create_form("computer", name="Asha", name_2="Bikash")
    )
    table = Table.objects.get(code=response["Location"].strip("/").split("/")[-1])
    assert [s.name for s in Seat.objects.filter(table=table, is_computer=False)] == ["Asha"]


@pytest.mark.django_db(transaction=True)
async def test_no_phone_at_a_hybrid_table_sees_a_card_it_should_not_over_many_hands() -> None:
    """Two people on the host's phone, one on her own, one watcher: every frame of every phone
    (the shared phone at each hand-off step too) holds only what its holder may see (checked by
    the Driver against the table's state at that version)."""
    total = Stats()
    game = 0
    while total.hands < 120:
        driver = await build(
            [["Asha", "Bikash"], ["Chandra"]],
            lobby.TableSettings(seat_count=5, max_hands=30, blind_every=10),
            watchers=1, seed=100 + game, sleepy=0.05,
        )
        stats = await driver.play()
        await driver.close()
        total.hands += stats.hands + 1
        total.frames += stats.frames
        total.handoffs += stats.handoffs
        game += 1
    assert total.handoffs > 30 and total.frames > 5 * total.hands


@pytest.mark.django_db
def test_a_person_on_the_shared_phone_can_move_to_their_own_phone(new_phone: NewPhone) -> None:
    host = new_phone()
    table = lobby.create_table(
        host, ["Asha", "Bikash"], lobby.TableSettings(seat_count=3)
    )
    lobby.start_game(table.id, claims.session_hashes(host))
    bikash = Seat.objects.get(table=table, name="Bikash").position
    link = seat_moves.make_link(table, claims.session_hashes(host), bikash)
    own = new_phone()
    seat_moves.use_link(link.token, own, [])
    hashes = claims.session_hashes(host)
    mine = {s.name for s in Seat.objects.filter(table=table) if s.claim_hash in hashes}
    assert mine == {"Asha"}
    assert Seat.objects.get(table=table, name="Bikash").claim_hash in claims.session_hashes(own)
