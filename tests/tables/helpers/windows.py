"""What one phone can read of one seat's hands at a table: the probe of the seat-window tests.

Every way a seat changes hands (moved to another phone, taken over from a computer, play again,
a tournament's move between tables, games taken to another phone) must leave the new holder
seeing that seat's hands only from the hand they took it. ``assert_window`` reads everything a
phone can read of a table's hands (the list, each hand's page, its PokerStars and PHH exports
and deck proof, the game's exports, the results CSV) and checks it against the window.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.cards import Card, parse_card
from engine.history import replay
from tables import clock
from tables.models import Hand, Table
from tests.tables.helpers import cards_in, game_of

DEALT = re.compile(r"^Dealt to (.+?) \[(\w\w) (\w\w)\]$", re.M)


def finished_numbers(table: Table) -> list[int]:
    return sorted(
        Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False)
        .values_list("number", flat=True)
    )


def play_until(table: Table, finished: int) -> Table:
    """Fire deadlines until ``finished`` hands ended and the next one is being played."""
    for _ in range(3000):
        table.refresh_from_db()
        if len(finished_numbers(table)) >= finished and game_of(table).hand_running:
            return table
        assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    raise AssertionError("the hands did not finish")


def play_between_hands(table: Table) -> Table:
    """Fire deadlines until the running hand is over and the next not yet dealt."""
    for _ in range(3000):
        table.refresh_from_db()
        if not game_of(table).hand_running:
            return table
        assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    raise AssertionError("the hand did not end")


def listed(client: Client, table: Table, query: str = "") -> list[int]:
    page = client.get(reverse("tables:history", args=[table.code]) + query).content.decode()
    return sorted(int(n) for n in re.findall(r'class="hand-no">.*?#(\d+)</span>', page, re.S))


def hole(table: Table, number: int, seat: int) -> set[Card]:
    hand = replay(Hand.objects.get(table=table, number=number).record)
    if seat not in hand.seats:
        return set()
    return set(hand.hole[hand.seats.index(seat)])


def shown(table: Table, number: int, seat: int) -> bool:
    hand = replay(Hand.objects.get(table=table, number=number).record)
    return seat in hand.shown_seats()


def hand_urls(table: Table, number: int) -> list[str]:
    return [
        reverse(name, args=[table.code, number])
        for name in ("tables:hand", "tables:hand_pokerstars", "tables:hand_phh",
                     "tables:hand_proof")
    ]


def assert_window(
    client: Client, table: Table, seat: int, first: int, last: int | None = None,
    query: str = "",
) -> list[int]:
    """``client`` reads exactly the finished hands ``first``..``last`` of ``table`` through
    ``seat``'s eyes, and no hand outside them in any page or export. Returns the window."""
    numbers = finished_numbers(table)
    window = [n for n in numbers if n >= first and (last is None or n <= last)]
    assert window, "the window holds no finished hand: the test proves nothing"
    assert listed(client, table, query) == window
    for number in numbers:
        for url in hand_urls(table, number):
            status = client.get(url + query).status_code
            assert status == (200 if number in window else 404), (url, status, window)
    for number in window:
        # Through the seat's eyes: the seat's own cards in its PokerStars export.
        stars = client.get(hand_urls(table, number)[1] + query).content.decode()
        dealt = DEALT.findall(stars)
        cards = hole(table, number, seat)
        if cards:
            assert len(dealt) == 1 and {parse_card(c) for c in dealt[0][1:]} == cards, stars
    game = client.get(reverse("tables:game_pokerstars", args=[table.code]) + query)
    assert game.status_code == 200
    text = game.content.decode()
    assert text.count("Hand #") == len(window), (text.count("Hand #"), window)
    for number in numbers:
        if number in window or shown(table, number, seat):
            continue
        # A hand outside the window: its page is refused, and the whole-game export holds no
        # hand with that seat's cards dealt to it.
        cards = hole(table, number, seat)
        for _name, a, b in DEALT.findall(text):
            assert {parse_card(a), parse_card(b)} != cards, number
    phh = client.get(reverse("tables:game_phh", args=[table.code]) + query).content.decode()
    assert len(re.findall(r"^\[\d+\]$", phh, re.M)) == len(window)
    assert client.get(reverse("tables:results_csv", args=[table.code]) + query).status_code == 200
    return window


def frame_cards(html: str) -> set[Card]:
    """The cards a table page shows (icons left out)."""
    return cards_in(re.sub(r"<(svg|style)\b.*?</\1>", "", html, flags=re.S))


def until_turn(table: Table, position: int) -> Table:
    """Fire deadlines until it is ``position``'s turn."""
    for _ in range(3000):
        table.refresh_from_db()
        hand = game_of(table).hand
        if hand is not None and not hand.finished and hand.seat_to_act == position:
            return table
        assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    raise AssertionError("the turn never came")


def asha_on_her_phone() -> tuple[Table, str, int]:
    """A started table of three: Asha's phone (its session key, her seat), Bikash on another,
    a computer in the third seat."""
    from tables import claims
    from tables.models import Seat
    from tables.write import lobby
    from tests.tables.helpers import new_session

    session = new_session()
    table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=3))
    session.save()
    lobby.join_table(table.id, "Bikash", new_session())
    lobby.start_game(table.id, claims.session_hashes(session))
    table.refresh_from_db()
    return table, str(session.session_key), Seat.objects.get(table=table, name="Asha").position
