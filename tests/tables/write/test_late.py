"""A friend arriving late takes a computer player's seat between hands (tables.write.late)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from tables import claims, clock
from tables.models import ChatMessage, Hand, SeatRequest, Table
from tables.write import late, lobby, path
from tests.tables.helpers import Phone, game_of, new_session, phone_of
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def _game(seat_count: int = 4) -> tuple[Table, list[str], list[str]]:
    """Asha (host) and Bikash on their own phones, computers in the other seats."""
    table, sessions = seat_people_now(
        [["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=seat_count)
    )
    return table, claims.session_hashes(sessions[0]), claims.session_hashes(sessions[1])


def _until(table: Table, done: Callable[[Table], bool], limit: int = 400) -> Table:
    """Fire the table's deadlines (computers move, people run out of time, hands are dealt)
    until ``done``."""
    for _ in range(limit):
        table.refresh_from_db()
        if done(table):
            return table
        assert table.status == Table.Status.PLAYING
        clock.fire(table.id, table.version, table.next_deadline)
    raise AssertionError("never happened")


def _friend(name: str = "Chandra") -> SessionStore:
    session = new_session()
    session.save()
    return session


def test_a_late_friend_takes_a_computer_seat_between_hands_with_its_chips() -> None:
    table, asha, bikash = _game()
    chandra = _friend()
    request = late.request_seat(table.id, chandra, "Chandra")
    chandra.save()
    assert request.status == SeatRequest.Status.PENDING
    with pytest.raises(path.Refused) as refused:
        late.answer(table.id, bikash, request.pk, "yes")
    assert refused.value.code == "not_host"
    running = game_of(Table.objects.get(pk=table.pk)).hand_number
    late.answer(table.id, asha, request.pk, "yes")
    request.refresh_from_db()
    table.refresh_from_db()
    # A hand is being played: the friend waits for it to end.
    assert request.status == SeatRequest.Status.APPROVED
    assert game_of(table).hand_running and table.seats.filter(is_computer=True).count() == 2
    # Just before the next deal (the clock's "next hand" deadline), the chips at each seat:
    between = _until(table, lambda t: t.deadline_kind == Table.Deadline.NEXT_HAND)
    stacks = {s: st.stack for s, st in game_of(between).seats.items()}
    computers = dict(between.seats.filter(is_computer=True).values_list("position", "name"))
    table = _until(table, lambda t: game_of(t).hand_number == running + 1)
    request.refresh_from_db()
    assert request.status == SeatRequest.Status.SEATED and request.first_hand == running + 1
    assert request.position is not None
    seat = table.seats.get(position=request.position)
    assert seat.name == "Chandra" and not seat.is_computer
    assert seat.claim_hash in claims.session_hashes(SessionStore(chandra.session_key))
    assert request.took_over == computers[seat.position]
    game = game_of(table)
    assert game.seats[seat.position].is_person
    dealt = Hand.objects.get(table=table, number=running + 1)
    at_start = {p["seat"]: p for p in dealt.players}
    assert at_start[seat.position]["name"] == "Chandra"
    assert at_start[seat.position]["stack"] == stacks[seat.position] > 0  # the computer's chips
    assert not at_start[seat.position]["is_computer"]
    assert game.total_chips() == 4000  # R3
    log = ChatMessage.objects.get(table=table, event="took_over")
    assert (log.name, log.detail["other"]) == ("Chandra", request.took_over)


def test_the_history_says_who_took_over_and_shows_the_friend_only_their_hands() -> None:
    table, asha, _bikash = _game()
    chandra = _friend()
    request = late.request_seat(table.id, chandra, "Chandra")
    chandra.save()
    late.answer(table.id, asha, request.pk, "yes")
    running = game_of(Table.objects.get(pk=table.pk)).hand_number
    _until(table, lambda t: bool(Hand.objects.filter(
        table=t, number=running + 1, ended_at__isnull=False).exists()))
    client = phone_of(chandra)
    listing = client.get(f"/t/{table.code}/hands/").content.decode()
    assert f'/t/{table.code}/hands/{running + 1}/' in listing
    assert f'/t/{table.code}/hands/{running}/' not in listing  # the computer's hand
    assert client.get(f"/t/{table.code}/hands/{running}/").status_code == 404
    page = client.get(f"/t/{table.code}/hands/{running + 1}/").content.decode()
    request.refresh_from_db()
    assert f"Before this hand, Chandra took over the seat of {request.took_over}." in page
    recap = client.get(f"/t/{table.code}/recap/").content.decode()
    assert f"Chandra <span class=\"tag\">took over from {request.took_over}</span>" in recap


def test_with_no_computer_seat_the_friend_watches() -> None:
    table, _asha, _bikash = _game(seat_count=2)
    chandra = _friend()
    with pytest.raises(path.Refused) as refused:
        late.request_seat(table.id, chandra, "Chandra")
    assert refused.value.code == "no_computer_seat"
    assert not SeatRequest.objects.exists()
    client = phone_of(chandra)
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-screen="watch"' in page and 'data-testid="late-form"' not in page


def test_the_page_offers_a_computers_seat_and_tells_where_the_request_stands() -> None:
    table, asha, _bikash = _game()
    client = Client()
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-testid="late-form"' in page and "2 computer players hold seats" in page
    answer = client.post(f"/t/{table.code}/late/", {"name": "Chandra"})
    assert answer.status_code == 302
    page = client.get(f"/t/{table.code}/").content.decode()
    assert 'data-testid="late-pending"' in page and "late-form" not in page
    request = SeatRequest.objects.get()
    host_session = SessionStore(
        session_key=next(s.session_key for s in _sessions_with(asha))
    )
    host = phone_of(host_session)
    host_page = host.get(f"/t/{table.code}/").content.decode()
    assert "Chandra arrived late and would like to take a computer's seat." in host_page
    host.post(f"/t/{table.code}/late/{request.pk}/", {"answer": "no"})
    request.refresh_from_db()
    assert request.status == SeatRequest.Status.REFUSED
    assert 'data-testid="late-refused"' in client.get(f"/t/{table.code}/").content.decode()


def _sessions_with(hashes: list[str]) -> list[SessionStore]:
    from django.contrib.sessions.models import Session

    found = []
    for row in Session.objects.all():
        store = SessionStore(session_key=row.session_key)
        if set(claims.session_hashes(store)) & set(hashes):
            found.append(store)
    return found


def test_the_host_may_let_anyone_sit_down_for_the_game() -> None:
    table, asha, _bikash = _game()
    first = late.request_seat(table.id, _friend(), "Chandra")
    late.answer(table.id, asha, first.pk, "all")
    second = late.request_seat(table.id, _friend(), "Dipak")
    assert second.status == SeatRequest.Status.APPROVED  # nobody had to ask the host
    with pytest.raises(path.Refused) as taken:
        late.request_seat(table.id, _friend(), "chandra")
    assert taken.value.code == "name_taken"
    running = game_of(Table.objects.get(pk=table.pk)).hand_number
    table = _until(table, lambda t: game_of(t).hand_number == running + 1)
    assert sorted(table.seats.filter(is_computer=False).values_list("name", flat=True)) == [
        "Asha", "Bikash", "Chandra", "Dipak",
    ]
    assert game_of(table).total_chips() == 4000


async def test_the_hosts_phone_is_asked_at_once() -> None:
    table, asha, _bikash = await database_sync_to_async(_game)()
    sessions = await database_sync_to_async(_sessions_with)(asha)
    phone = Phone(table.code, str(sessions[0].session_key))
    await phone.connect()
    friend = await database_sync_to_async(_friend)()
    await database_sync_to_async(late.request_seat)(table.id, friend, "Chandra")
    frame = await phone.next()
    assert 'id="late-requests"' in frame.text and "Chandra arrived late" in frame.text
    assert 'data-testid="late-yes"' in frame.text
    await phone.close()
