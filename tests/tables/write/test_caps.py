"""Caps against strangers: late-arrival requests per table and per client, wrong admin
passwords per address, and the password validators."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client, override_settings
from django.utils import translation

from tables.models import SeatRequest, Table
from tables.write import late, lobby, path
from tests.tables.helpers import NewPhone
from tests.tables.helpers.driver import seat_people_now

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
def test_only_so_many_requests_wait_at_one_table(new_phone: NewPhone) -> None:
    table = _game()
    for k in range(3):
        late.request_seat(table.id, new_phone(), f"Friend {k}", [f"client-{k}"])
    with pytest.raises(path.Refused) as refused:
        late.request_seat(table.id, new_phone(), "One too many", ["client-x"])
    assert refused.value.code == "too_many_waiting"
    assert _waiting(table) == 3
    # Another table is not affected.
    other = _game()
    late.request_seat(other.id, new_phone(), "Elsewhere", ["client-y"])


@override_settings(TABLES_LATE_WAITING_PER_TABLE=100, TABLES_LATE_REQUESTS_PER_MINUTE=2)
def test_one_client_asks_only_so_many_times_a_minute_over_every_table(new_phone: NewPhone) -> None:
    first, second = _game(), _game()
    same_ip = ["the-ip-key"]
    late.request_seat(first.id, new_phone(), "Fresh jar 1", same_ip)
    late.request_seat(second.id, new_phone(), "Fresh jar 2", same_ip)
    with pytest.raises(path.Refused) as refused:
        late.request_seat(first.id, new_phone(), "Fresh jar 3", [*same_ip, "new-session"])
    assert refused.value.code == "rate_limited"
    assert _waiting(first) + _waiting(second) == 2
    # Someone else (another address, another session) still may.
    late.request_seat(first.id, new_phone(), "Someone else", ["another-ip"])


def test_asking_again_from_the_same_phone_returns_the_same_request(new_phone: NewPhone) -> None:
    table = _game()
    session = new_phone()
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


def test_the_refusals_are_translated(new_phone: NewPhone) -> None:
    table = _game()
    with override_settings(TABLES_LATE_WAITING_PER_TABLE=1), translation.override("ne"):
        late.request_seat(table.id, new_phone(), "Chandra", ["a"])
        with pytest.raises(path.Refused) as waiting:
            late.request_seat(table.id, new_phone(), "Dipa", ["b"])
    with (
        override_settings(TABLES_LATE_REQUESTS_PER_MINUTE=1), translation.override("ne"),
        pytest.raises(path.Refused) as limited,
    ):
        late.request_seat(_game().id, new_phone(), "Hari", ["a"])
    for refusal in (waiting.value, limited.value):
        assert refusal.message and not refusal.message.isascii()


# ------------------------------------------------------------------------------ admin login
def _login(client: Client, username: str, password: str, ip: str = "198.51.100.4") -> int:
    response = client.post("/admin/login/", {"username": username, "password": password},
                           REMOTE_ADDR=ip)
    return response.status_code


def test_wrong_admin_passwords_are_throttled_per_address_then_even_the_right_one_waits() -> None:
    User.objects.create_superuser("root", "root@example.org", "correct horse battery")
    attacker = Client()
    answers = [_login(attacker, "root", f"guess {k}") for k in range(30)]
    assert answers[:5] == [200] * 5  # the form again, with its error
    assert set(answers[5:]) == {429}
    assert _login(attacker, "root", "correct horse battery") == 429  # not even checked
    # Another address is not held up by this one's guesses, and logs in.
    assert _login(Client(), "root", "correct horse battery", ip="192.0.2.1") == 302


def test_the_admin_login_page_still_opens_and_a_right_password_is_not_counted() -> None:
    User.objects.create_superuser("root", "root@example.org", "correct horse battery")
    assert Client().get("/admin/login/").status_code == 200
    for _ in range(8):
        assert _login(Client(), "root", "correct horse battery") == 302


def test_the_standard_password_validators_are_on() -> None:
    with pytest.raises(ValidationError):
        validate_password("password")  # common
    with pytest.raises(ValidationError):
        validate_password("123456789012")  # only digits
    with pytest.raises(ValidationError):
        validate_password("short!x")  # under 10 characters
    validate_password("correct horse battery")
