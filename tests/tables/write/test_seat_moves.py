"""Moving a seat to another phone (tables.write.seat_moves): a single-use link valid for
five minutes moves the seat, also mid-hand (the cards follow); the old phone only watches; bad
links are refused readably, change nothing, and are rate-limited like wrong table codes."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.history import replay
from tables import claims
from tables.models import FormerClaim, Seat, SeatMove, Table
from tables.write import announce, lobby, seat_moves
from tests.tables.helpers import NewPhone, Phone, cards_in, game_of, my_cards
from tests.tables.helpers.pages import frame_data, page_text, started


def link_of(client: Client, table: Table, position: int) -> str:
    """Make a move link on ``client``'s phone; returns its path (/move/<token>/)."""
    response = client.post(reverse("tables:seat_moves", args=[table.code]), {"seat": position})
    assert response.status_code == 200, response.content.decode()[:2000]
    html = response.content.decode()
    assert "<svg" in html  # the QR code
    found = re.search(r'href="https?://[^/"]+(/move/[A-Za-z0-9_-]+/)"', html)
    assert found is not None
    return found.group(1)


def seat_of(table: Table, name: str) -> Seat:
    return Seat.objects.get(table=table, name=name)


def hole_cards(table: Table, position: int) -> set[str]:
    table.refresh_from_db()
    hand = game_of(table).hand
    assert hand is not None
    return {str(c) for c in hand.hole[hand.seats.index(position)]}


@pytest.mark.django_db
def test_a_seat_moves_mid_hand_with_its_cards_and_the_old_phone_only_watches() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    seat = seat_of(table, "Asha")
    assert game_of(table).hand_running
    cards = hole_cards(table, seat.position)
    path = link_of(asha, table, seat.position)
    token = path.split("/")[2]
    assert len(token) == 32  # 24 random bytes: 192 bits
    move = SeatMove.objects.get()
    assert move.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(SeatMove.objects.values().get())  # only its hash is kept
    assert move.expires_at - move.created_at == timedelta(minutes=5)

    new = Client()
    confirm = new.get(path)
    assert confirm.status_code == 200 and "Play as Asha on this phone?" in confirm.content.decode()
    assert seat_of(table, "Asha").claim_hash == seat.claim_hash  # opening it changes nothing
    response = new.post(path)
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"

    moved = seat_of(table, "Asha")
    assert moved.claim_hash != seat.claim_hash
    data, html = frame_data(new, table)
    assert data["you"] == seat.position and data["screen"] == "play"
    assert cards <= {str(c) for c in cards_in(page_text(html))}  # the cards followed
    old_data, old_html = frame_data(asha, table)
    assert old_data["you"] is None and old_data["screen"] == "watch"
    assert not cards & {str(c) for c in cards_in(page_text(old_html))}
    # The old phone keeps the hands it played (up to this one), like someone who left.
    former = FormerClaim.objects.get(table=table, claim_hash=seat.claim_hash)
    assert former.last_hand == game_of(table).hand_number
    # It can no longer act for the seat: nothing changes.
    table.refresh_from_db()
    version = table.version
    asha.post(reverse("tables:act", args=[table.code]), {
        "kind": "fold", "version": str(version), "action_id": "x" * 24,
        "seat": str(seat.position),
    })
    table.refresh_from_db()
    assert table.version == version
    assert seat_of(table, "Asha").claim_hash == moved.claim_hash


@pytest.mark.django_db
def test_a_link_works_once() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    path = link_of(asha, table, seat_of(table, "Asha").position)
    first, second = Client(), Client()
    assert first.post(path).status_code == 302
    claim = seat_of(table, "Asha").claim_hash
    for attempt in (second.get(path), second.post(path), first.post(path)):
        assert attempt.status_code == 410
        assert "already used" in attempt.content.decode()
    assert seat_of(table, "Asha").claim_hash == claim


@pytest.mark.django_db
def test_an_expired_link_is_refused_and_changes_nothing() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    path = link_of(asha, table, seat_of(table, "Asha").position)
    SeatMove.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    claim = seat_of(table, "Asha").claim_hash
    version = Table.objects.get(pk=table.pk).version
    response = Client().post(path)
    assert response.status_code == 410
    assert "expired: links last five minutes" in response.content.decode()
    assert seat_of(table, "Asha").claim_hash == claim
    assert Table.objects.get(pk=table.pk).version == version


@pytest.mark.django_db
@pytest.mark.parametrize(
    "token", ["A" * 32, "short", "x" * 33, "%2e%2e", "a" * 31 + "!", "-" * 32],
)
def test_unknown_or_malformed_links_are_refused(token: str) -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    link_of(asha, table, seat_of(table, "Asha").position)
    claim = seat_of(table, "Asha").claim_hash
    for response in (Client().get(f"/move/{token}/"), Client().post(f"/move/{token}/")):
        assert response.status_code == 404
        assert "This move link is not valid." in response.content.decode()
    assert seat_of(table, "Asha").claim_hash == claim


@pytest.mark.django_db
def test_wrong_links_are_rate_limited_like_wrong_table_codes(settings: object) -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    path = link_of(asha, table, seat_of(table, "Asha").position)
    guesser = Client()
    for _ in range(10):  # TABLES_JOIN_FAILURES_PER_MINUTE
        assert guesser.post("/move/" + "B" * 32 + "/").status_code == 404
    response = guesser.post(path)  # even the right link, until the minute is over
    assert response.status_code == 429
    assert "Too many wrong move links" in response.content.decode()
    assert seat_of(table, "Asha").claim_hash != ""
    assert SeatMove.objects.get().used_at is None
    # And wrong table codes count the same way (one limit per client).
    assert guesser.get("/t/ZZZZZZ/").status_code == 429


@pytest.mark.django_db
def test_the_host_can_move_a_seat_whose_phone_died_and_others_cannot() -> None:
    table, (asha, bikash) = started("Asha", "Bikash")
    bikash_seat = seat_of(table, "Bikash").position
    asha_seat = seat_of(table, "Asha").position
    menu = asha.get(reverse("tables:seat_moves", args=[table.code])).content.decode()
    assert "Move Bikash (their phone died)" in menu and "Move Asha (this phone)" in menu
    other = bikash.post(reverse("tables:seat_moves", args=[table.code]), {"seat": asha_seat})
    assert other.status_code == 403 and not SeatMove.objects.exists()
    assert "Move Asha" not in bikash.get(
        reverse("tables:seat_moves", args=[table.code])
    ).content.decode()
    path = link_of(asha, table, bikash_seat)
    assert SeatMove.objects.get().by_host
    borrowed = Client()
    assert borrowed.post(path).status_code == 302
    data, _html = frame_data(borrowed, table)
    assert data["you"] == bikash_seat
    assert frame_data(bikash, table)[0]["you"] is None


@pytest.mark.django_db
def test_outsiders_and_computers_seats_cannot_be_moved() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    url = reverse("tables:seat_moves", args=[table.code])
    assert Client().get(url).status_code == 403
    assert Client().post(url, {"seat": "0"}).status_code == 403
    computer = Seat.objects.filter(table=table, is_computer=True).first()
    assert computer is not None
    assert asha.post(url, {"seat": computer.position}).status_code == 403
    assert asha.post(url, {"seat": "x"}).status_code == 403
    assert not SeatMove.objects.exists()


@pytest.mark.django_db
def test_a_link_for_a_seat_that_changed_hands_or_to_the_same_phone_is_refused() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    path = link_of(asha, table, seat_of(table, "Asha").position)
    same = asha.post(path)
    assert same.status_code == 409 and "already on this phone" in same.content.decode()
    assert asha.post(reverse("tables:leave", args=[table.code])).status_code == 302
    assert seat_of(table, "Asha").is_computer  # a computer took the seat and its chips
    response = Client().post(path)
    assert response.status_code == 409
    assert "changed hands since the link was made" in response.content.decode()
    assert seat_of(table, "Asha").is_computer and not seat_of(table, "Asha").claim_hash


@pytest.mark.django_db(transaction=True)
async def test_the_old_phone_becomes_a_spectator_at_once_and_the_new_one_gets_the_cards(
    new_phone: NewPhone,
) -> None:
    def setup() -> tuple[Table, str, int]:
        session = new_phone()
        table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=3))
        session.save()
        other = new_phone()
        lobby.join_table(table.id, "Bikash", other)
        lobby.start_game(table.id, claims.session_hashes(session))
        table.refresh_from_db()
        return table, str(session.session_key), Seat.objects.get(table=table, name="Asha").position

    table, key, position = await database_sync_to_async(setup)()
    old = Phone(table.code, key)
    frame = await old.connect()
    assert frame.data["you"] == position
    mine = my_cards(frame)

    def move() -> str:
        from django.contrib.sessions.backends.db import SessionStore

        store = SessionStore(session_key=key)
        token = seat_moves.make_link(
            Table.objects.get(pk=table.id), claims.session_hashes(store), position
        ).token
        fresh = new_phone()
        seat_moves.use_link(token, fresh, [])
        fresh.save()
        return str(fresh.session_key)

    new_key = await announce.write_then_notify(move)
    frame = await old.until_version(table.version + 1)
    assert frame.data["you"] is None and frame.screen == "watch"
    assert 'id="my-cards"' not in frame.text
    new = Phone(table.code, new_key)
    got = await new.connect()
    assert got.data["you"] == position
    cards = my_cards(got)
    assert cards == mine and len(set(cards)) == 2
    hand = replay((await database_sync_to_async(Table.objects.get)(pk=table.id)).state["hand"])
    assert set(cards) == {str(c) for c in hand.hole[hand.seats.index(position)]}
    await old.close()
    await new.close()
