"""Nepali complete, on the pages: the table's screens (lobby, your turn and its hint, game over)
and the main pages (home, how to play, create, hand history, recap, group) drawn in Nepali show
no Latin word but the players' names, codes, card ranks and the explicit allow-list
(tests.tables.helpers.latin.ALLOWED, each entry with its reason)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.models import GroupGame, Hand, Seat, Table
from tables.write import host
from tests.tables.helpers import client_lobby, first_person_turn
from tests.tables.helpers.latin import allowed_for, latin_words
from tests.tables.helpers.pages import play_until

pytestmark = pytest.mark.django_db


def in_nepali(client: Client) -> Client:
    client.cookies["django_language"] = "ne"
    return client


def nepali_page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    text = response.content.decode()
    assert 'lang="ne"' in text[:400] or "<li>" in text, url  # a whole page, or the hint's list
    return text


def allowed_at(table: Table) -> set[str]:
    names = list(Seat.objects.filter(table=table).values_list("name", flat=True))
    return allowed_for(names, table.code)


def assert_nepali(pages: dict[str, str], allowed: set[str]) -> None:
    found = {name: latin_words(html, allowed) for name, html in pages.items()}
    latin = {name: words for name, words in found.items() if words}
    assert not latin, "\n".join(f"{name}: {words}" for name, words in latin.items())


def test_the_tables_screens_in_nepali_show_no_latin_word() -> None:
    table, clients = client_lobby("Asha", "Bikash", seats=3)
    asha, bikash = (in_nepali(c) for c in clients)
    url = reverse("tables:table", args=[table.code])
    pages = {"lobby (host)": nepali_page(asha, url), "lobby (guest)": nepali_page(bikash, url)}
    asha.post(reverse("tables:start", args=[table.code]))
    play_until(table, 1)
    _version, seat = first_person_turn(table.id)
    turn, waiting = (asha, bikash) if seat == 0 else (bikash, asha)
    pages["your turn"] = nepali_page(turn, url)
    pages["someone else's turn"] = nepali_page(waiting, url)
    pages["the hint"] = nepali_page(turn, reverse("tables:hint", args=[table.code]))
    host.end_game(table.id, claims.session_hashes(asha.session))
    pages["game over"] = nepali_page(asha, url)
    assert_nepali(pages, allowed_at(table))


def test_the_main_pages_in_nepali_show_no_latin_word() -> None:
    table, clients = client_lobby("Asha", "Bikash", seats=3)
    asha = in_nepali(clients[0])
    asha.post(reverse("tables:start", args=[table.code]))
    play_until(table, 2)
    host.end_game(table.id, claims.session_hashes(asha.session))
    asha.post(reverse("tables:again", args=[table.code]), {"points": "10-7-5-3-2-1"})
    group = GroupGame.objects.get(table=table).group
    number = Hand.objects.filter(table=table, ended_at__isnull=False).values_list(
        "number", flat=True
    ).first()
    pages = {
        "home": nepali_page(asha, reverse("home")),
        "how to play": nepali_page(asha, reverse("how_to_play")),
        "create": nepali_page(asha, reverse("tables:create")),
        "hand history": nepali_page(asha, reverse("tables:history", args=[table.code])),
        "a hand": nepali_page(asha, reverse("tables:hand", args=[table.code, number])),
        "recap": nepali_page(asha, reverse("tables:recap", args=[table.code])),
        "group": nepali_page(asha, reverse("tables:group", args=[group.code])),
        "your games": nepali_page(asha, reverse("tables:games")),
    }
    table.refresh_from_db()
    assert table.next_table is not None
    assert_nepali(pages, allowed_at(table) | {group.code, table.next_table.code})


def test_the_guard_finds_an_english_word() -> None:
    """The guard itself: English text outside a name or code is found; marked English is not."""
    html = '<p>टेबल Asha <span>Fold</span> <b lang="en">Poker</b> <kbd>F</kbd> A-K-Q 3f9a</p>'
    assert set(latin_words(html, allowed_for(["Asha"], "K7Q4MX"))) == {"Fold"}
