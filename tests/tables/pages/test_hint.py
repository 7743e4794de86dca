"""The hint button (issue 27): only the person to act gets a hint, it names no card but their
own and the board, and it speaks their language."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Table
from tests.tables.helpers import cards_in, first_person_turn, game_of
from tests.tables.helpers.pages import started

pytestmark = pytest.mark.django_db


def hint(client: Client, table: Table) -> tuple[int, str]:
    response = client.get(reverse("tables:hint", args=[table.code]))
    return response.status_code, response.content.decode()


def test_only_the_person_to_act_gets_a_hint_and_it_names_only_their_cards() -> None:
    table, clients = started("Asha", "Bikash", seats=4)
    _version, seat = first_person_turn(table.id)
    table.refresh_from_db()
    game = game_of(table)
    hand = game.hand
    assert hand is not None
    status, text = hint(clients[seat], table)
    assert status == 200 and 'data-testid="hint-lines"' in text
    assert "Pot odds" in text or "Your chance" in text
    own = set(hand.hole[hand.seats.index(seat)]) | set(hand.board)
    assert cards_in(text) <= own
    other = clients[1 - seat]
    status, text = hint(other, table)
    assert status == 403 and "hint-lines" not in text
    status, _ = hint(Client(), table)  # a watcher
    assert status == 403


def test_the_hint_speaks_nepali() -> None:
    table, clients = started("Asha", "Bikash", seats=3)
    _version, seat = first_person_turn(table.id)
    client = clients[seat]
    client.cookies["django_language"] = "ne"
    status, text = hint(client, table)
    lines = re.findall(r"<li>(.*?)</li>", text)
    assert status == 200 and lines
    assert all(re.search("[\u0900-\u097f]", line) for line in lines)
