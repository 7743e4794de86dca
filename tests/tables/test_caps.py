"""Caps against strangers: late-arrival requests per table and per client."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.utils import translation

from tables.models import SeatRequest, Table
from tables.write import late, lobby, path
from tests.tables.driver import seat_people_now
from tests.tables.helpers import new_session

pytestmark = pytest.mark.django_db


def _game(seat_count: int = 6) -> Table:
    """Asha (host) on her phone, computers in the other seats, the game running."""
    table, _sessions = seat_people_now([["Asha"]], lobby.TableSettings(seat_count=seat_count))
    assert table.status == Table.Status.PLAYING
    return table


def _waiting(table: Table) -> int:
    return SeatRequest.objects.filter(
        table=table, status__in=(SeatRequest.Status.PENDING, SeatRequest.Status.APPROVED)
    ).count()


@override_settings(TABLES_LATE_WAITING_PER_TABLE=3, TABLES_LATE_REQUESTS_PER_MINUTE=100)
def test_only_so_many_requests_wait_at_one_table() -> None:
    table = _game()
    for k in range(3):
        late.request_seat(table.id, new_session(), f"Friend {k}", [f"client-{k}"])
    with pytest.raises(path.Refused) as refused:
        late.request_seat(table.id, new_session(), "One too many", ["client-x"])
    assert refused.value.code == "too_many_waiting"
    assert _waiting(table) == 3
    # Another table is not affected.
    other = _game()
    late.request_seat(other.id, new_session(), "Elsewhere", ["client-y"])


@override_settings(TABLES_LATE_WAITING_PER_TABLE=100, TABLES_LATE_REQUESTS_PER_MINUTE=2)
def test_one_client_asks_only_so_many_times_a_minute_over_every_table() -> None:
    first, second = _game(), _game()
    same_ip = ["the-ip-key"]
    late.request_seat(first.id, new_session(), "Fresh jar 1", same_ip)
    late.request_seat(second.id, new_session(), "Fresh jar 2", same_ip)
    with pytest.raises(path.Refused) as refused:
        late.request_seat(first.id, new_session(), "Fresh jar 3", same_ip + ["new-session"])
    assert refused.value.code == "rate_limited"
    assert _waiting(first) + _waiting(second) == 2
    # Someone else (another address, another session) still may.
    late.request_seat(first.id, new_session(), "Someone else", ["another-ip"])


def test_asking_again_from_the_same_phone_returns_the_same_request() -> None:
    table = _game()
    session = new_session()
    one = late.request_seat(table.id, session, "Chandra", ["ip"])
    again = late.request_seat(table.id, session, "Chandra", ["ip"])
    assert one.pk == again.pk and _waiting(table) == 1


@override_settings(TABLES_LATE_REQUESTS_PER_MINUTE=100)
def test_twenty_fresh_cookie_jars_from_one_address_fill_neither_the_screen_nor_the_names() -> None:
    table = _game()
    for k in range(20):
        Client(REMOTE_ADDR="203.0.113.9").post(f"/t/{table.code}/late/", {"name": f"Squat {k}"})
    assert _waiting(table) == 6  # the default cap: one per seat a table can have


def test_twenty_fresh_cookie_jars_from_one_address_are_refused_after_a_few() -> None:
    table = _game()
    refused = []
    for k in range(20):
        phone = Client(REMOTE_ADDR="203.0.113.7")
        page = phone.post(f"/t/{table.code}/late/", {"name": f"Squat {k}"}, follow=True)
        refused.append("Too many requests for a seat" in page.content.decode())
    assert _waiting(table) == 3  # TABLES_LATE_REQUESTS_PER_MINUTE
    assert all(refused[3:]) and not any(refused[:3])


def test_the_refusals_are_translated() -> None:
    table = _game()
    with override_settings(TABLES_LATE_WAITING_PER_TABLE=1), translation.override("ne"):
        late.request_seat(table.id, new_session(), "Chandra", ["a"])
        with pytest.raises(path.Refused) as waiting:
            late.request_seat(table.id, new_session(), "Dipa", ["b"])
    with override_settings(TABLES_LATE_REQUESTS_PER_MINUTE=1), translation.override("ne"):
        with pytest.raises(path.Refused) as limited:
            late.request_seat(_game().id, new_session(), "Hari", ["a"])
    for refusal in (waiting.value, limited.value):
        assert refusal.message and not refusal.message.isascii()
