"""Helpers of the tests that go through the pages: a started table of friends, hands played
to a number, what a page and a player saw, a table page's data, a whole game played and ended
(talk, a pause, a mute: everything retention and backups must handle), a pass-and-play table
played, the ended hands of a table replayed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.cards import Card
from engine.hand import Hand as EngineHand
from engine.history import replay
from tables import claims, clock
from tables.models import Hand, Table
from tables.write import host, talk
from tests.tables.helpers import client_lobby, create_form, game_of


def started(*names: str, seats: int = 4, **fields: str) -> tuple[Table, list[Client]]:
    table, clients = client_lobby(*names, seats=seats, **fields)
    clients[0].post(reverse("tables:start", args=[table.code]))
    table.refresh_from_db()
    return table, clients


def friends_played(hands: int) -> tuple[Table, list[Client]]:
    """Asha and Bikash (and a computer) at a started table, ``hands`` hands played: the table
    and their two phones."""
    table, clients = started("Asha", "Bikash", seats=3)
    return play_until(table, hands), clients


def play_until(table: Table, finished: int) -> Table:
    """Fire deadlines until ``finished`` hands ended and the next one is being played."""
    for _ in range(2000):
        table.refresh_from_db()
        done = Hand.objects.filter(table=table, ended_at__isnull=False).count()
        if done >= finished and game_of(table).hand_running:
            return table
        assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    raise AssertionError("the hands did not finish")


def page_text(html: str) -> str:
    """What a page holds, without icons (SVG path data such as ``2h.1`` looks like cards)."""
    return re.sub(r"<(svg|style)\b.*?</\1>", "", html, flags=re.S)


def seen_by(hand: EngineHand, viewer: int | None) -> set[Card]:
    """The cards ``viewer`` saw: the board, the hands shown, their own hole cards."""
    seen = set(hand.board)
    for i, seat in enumerate(hand.seats):
        if seat == viewer or seat in hand.shown_seats():
            seen |= set(hand.hole[i])
    return seen


def frame_data(client: Client, table: Table) -> tuple[dict[str, Any], str]:
    html = client.get(reverse("tables:table", args=[table.code])).content.decode()
    found = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data, html


def played_game(*, hands: int = 2, ended: bool = True) -> Table:
    """A game of Asha and Bikash with a computer: ``hands`` hands played, talk said, a host's
    pause, a staff mute; ended by the host unless ``ended`` is false."""
    table, clients = client_lobby("Asha", "Bikash", seats=3)
    clients[0].post(reverse("tables:start", args=[table.code]))
    play_until(table, hands)
    asha = claims.session_hashes(clients[0].session)
    host.pause_game(table.id, asha)
    host.resume_game(table.id, asha)
    talk.store(table.id, 0, "Asha", asha, "nice hand", "")
    talk.store(table.id, 0, "Asha", asha, "", next(iter(talk.REACTIONS)))
    talk.mute_person(table.id, 1, staff(), "testing")
    if ended:
        host.end_game(table.id, asha)
    return Table.objects.get(pk=table.id)


def staff() -> User:
    """A moderator (made once)."""
    return User.objects.get_or_create(username="mod", defaults={"is_staff": True})[0]


def pass_and_play_played(hands: int) -> tuple[Table, Client]:
    """A pass-and-play table of Asha and Bikash on one phone (and a computer), ``hands``
    hands played: the table and the phone."""
    phone = Client()
    response = phone.post(
        reverse("tables:create"), create_form("local", name="Asha", name_2="Bikash", seats="3")
    )
    table = Table.objects.get(code=response["Location"].strip("/").split("/")[-1])
    if table.status == Table.Status.WAITING:
        phone.post(reverse("tables:start", args=[table.code]))
    return play_until(table, hands), phone


def ended_hands(table: Table) -> Iterator[tuple[Hand, EngineHand]]:
    """Each ended hand of ``table``: its row and the hand replayed from its record."""
    for row in Hand.objects.filter(table=table, ended_at__isnull=False):
        yield row, replay(row.record)
