"""The deck fixed before the first card, at the table (issue 18): the root stored with each hand
when it is dealt and shown on every phone, and each player's proof.json (P3: only what they
saw)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from engine.hand import Hand as EngineHand
from engine.history import replay
from engine.proof import ProofError, hand_commitment, short_root, verify
from tables import cache
from tables.live import frames, perspective
from tables.models import Hand, Seat, Table
from tests.tables.helpers import game_of
from tests.tables.helpers.pages import (
    ended_hands,
    pass_and_play_played,
    play_until,
    seen_by,
    started,
)

pytestmark = pytest.mark.django_db


def proof_url(table: Table, number: int, seat: int | None = None) -> str:
    url = reverse("tables:hand_proof", args=[table.code, number])
    return url if seat is None else f"{url}?seat={seat}"


def play_until_a_hand(table: Table, wanted: Callable[[EngineHand], bool]) -> Table:
    """Play on, a few hands at a time, until some finished hand is ``wanted``."""
    for finished in range(2, 80, 2):
        table = play_until(table, finished)
        rows = Hand.objects.filter(table=table, ended_at__isnull=False)
        if any(wanted(replay(row.record)) for row in rows):
            return table
    raise AssertionError("no such hand came")


def seat_of(table: Table, name: str) -> int:
    return Seat.objects.get(table=table, name=name).position


def test_every_hand_is_stored_with_the_root_of_the_deck_it_was_dealt_from() -> None:
    table, _clients = started("Asha", "Bikash")
    table = play_until(table, 6)
    running = game_of(table).hand
    assert running is not None and not running.finished
    for row in Hand.objects.filter(table=table):
        made = hand_commitment(replay(row.record))
        assert made is not None and row.deck_root == made.root.hex()
    # The running hand's row got its root when it was dealt, before anyone acted.
    row = Hand.objects.get(table=table, number=game_of(table).hand_number)
    assert row.ended_at is None and len(row.deck_root) == 64
    assert len(set(Hand.objects.filter(table=table).values_list("deck_root", flat=True))) == (
        Hand.objects.filter(table=table).count()
    )


def test_every_phone_is_shown_the_root_while_the_hand_is_played() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    number = game_of(table).hand_number
    root = Hand.objects.get(table=table, number=number).deck_root
    shown = short_root(root)
    for client in (asha, Client()):  # a player and someone watching
        page = client.get(reverse("tables:table", args=[table.code])).content.decode()
        found = re.search(r'data-testid="deck-root"[^>]*>([^<]*)<', page)
        assert found is not None and shown in found.group(1)
    # The first frame of the hand carries it: drawn for every seat from the snapshot.
    snapshot = cache.load_snapshot(table.id)
    assert snapshot is not None
    for seat in (None, seat_of(table, "Asha")):
        persp = perspective.Perspective((seat,) if seat is not None else (), seat, seat, None)
        html = frames.render_frame(snapshot, persp, frames.FrameOptions())
        assert shown in html


def test_each_players_proof_verifies_and_reveals_only_what_they_saw() -> None:
    table, (asha, bikash) = started("Asha", "Bikash", seats=6)
    table = play_until_a_hand(table, lambda hand: bool(hand.shown))
    seats = {"Asha": seat_of(table, "Asha"), "Bikash": seat_of(table, "Bikash")}
    showdowns = 0
    for row, hand in ended_hands(table):
        showdowns += bool(hand.shown)
        for name, client in (("Asha", asha), ("Bikash", bikash)):
            response = client.get(proof_url(table, row.number))
            assert response.status_code == 200
            assert response["Cache-Control"] == "private, no-store"
            data = response.json()
            assert data["root"] == row.deck_root
            assert data["hand"] == row.number and data["table"] == table.code
            revealed = verify(data)
            assert {r.card for r in revealed} == {str(c) for c in seen_by(hand, seats[name])}
    assert showdowns > 0


def test_outsiders_get_no_proof_and_staff_get_every_hole_card() -> None:
    table, _clients = started("Asha", "Bikash")
    table = play_until(table, 1)
    _other, (chandra,) = started("Chandra")
    for outsider in (Client(), chandra):
        response = outsider.get(proof_url(table, 1))
        assert response.status_code == 403
        assert "commitments" not in response.json()
    staff = Client()
    staff.force_login(User.objects.create_user("alice", "a@example.org", "a long secret",
                                               is_staff=True))
    hand = replay(Hand.objects.get(table=table, number=1).record)
    revealed = verify(staff.get(proof_url(table, 1)).json())
    holes = {str(c) for cards in hand.hole for c in cards}
    assert {r.card for r in revealed} == holes | {str(c) for c in hand.board}


def test_a_running_hand_has_no_proof() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    number = game_of(table).hand_number
    response = asha.get(proof_url(table, number))
    assert response.status_code == 404
    assert "cards" not in response.content.decode() and "salt" not in response.content.decode()
    assert asha.get(proof_url(table, 999)).status_code == 404


def test_a_hand_dealt_before_commitments_says_so() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    table = play_until(table, 1)
    Hand.objects.filter(table=table, number=1).update(deck_root="")
    response = asha.get(proof_url(table, 1))
    assert response.status_code == 404
    assert "before decks were fixed in advance" in response.json()["error"]
    page = asha.get(reverse("tables:hand", args=[table.code, 1])).content.decode()
    assert "data-deck-proof" not in page


def test_a_deck_changed_after_the_deal_fails_its_proof() -> None:
    """The stored root is the one phones were shown: a server that swapped a card later (here a
    board card for one never dealt) could not make the proof hold."""
    table, (asha, _bikash) = started("Asha", "Bikash")
    table = play_until_a_hand(table, lambda hand: bool(hand.board))
    row, hand = next(
        (row, hand) for row in Hand.objects.filter(table=table, ended_at__isnull=False)
        if (hand := replay(row.record)).board
    )
    record = dict(row.record)
    deck = list(record["deck"])
    flop_at = deck.index(str(hand.board[0]))
    deck[flop_at], deck[51] = deck[51], deck[flop_at]
    record["deck"] = deck
    Hand.objects.filter(pk=row.pk).update(record=record)
    data = asha.get(proof_url(table, row.number)).json()
    with pytest.raises(ProofError, match="the deck changed"):
        verify(data)


def test_the_hand_page_checks_the_proof_and_the_how_to_play_page_explains_it() -> None:
    table, (asha, _bikash) = started("Asha", "Bikash")
    table = play_until(table, 1)
    row = Hand.objects.get(table=table, number=1)
    page = asha.get(reverse("tables:hand", args=[table.code, 1])).content.decode()
    assert f'data-url="{proof_url(table, 1)}"' in page
    assert f'data-root="{row.deck_root}"' in page
    assert short_root(row.deck_root) in page and "js/deck-proof.js" in page
    guide = Client().get("/how-to-play/").content.decode()
    assert 'id="deck"' in guide
    assert "did not change after the deal" in guide and "shuffled fairly" in guide


def test_a_pass_and_play_phone_gets_the_proof_of_the_seat_it_chose() -> None:
    table, host = pass_and_play_played(3)
    for row, hand in ended_hands(table):
        for seat in (0, 1):
            revealed = verify(host.get(proof_url(table, row.number, seat)).json())
            assert {r.card for r in revealed} == {str(c) for c in seen_by(hand, seat)}
