"""The replayer's explanations (issue 27) on the hand pages: a player's own decisions only,
nothing from a card they did not see, in their language; staff get none."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tables.helpers import cards_in
from tests.tables.helpers.pages import (
    ended_hands,
    friends_played,
    page_text,
    play_until,
    seen_by,
    started,
)

pytestmark = pytest.mark.django_db


def replay_data(client: Client, code: str, number: int) -> dict[str, object]:
    html = client.get(reverse("tables:hand", args=[code, number])).content.decode()
    found = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_each_player_is_told_about_their_own_decisions_only() -> None:
    table, clients = friends_played(4)
    explained = 0
    for row, hand in ended_hands(table):
        for seat, client in enumerate(clients):
            data = replay_data(client, table.code, row.number)
            explain = data["explain"]
            assert isinstance(explain, dict)
            events = data["events"]
            assert isinstance(events, list)
            own = {
                str(i) for i, e in enumerate(events)
                if e["kind"] == "action" and e.get("seat") == seat
            }
            assert set(explain) == own
            for lines in explain.values():
                assert lines and all(isinstance(line, str) for line in lines)
                assert any("chance" in line for line in lines)
                text = " ".join(lines)
                assert cards_in(text) <= seen_by(hand, seat)
                explained += 1
            html = client.get(reverse("tables:hand", args=[table.code, row.number])).content
            assert cards_in(page_text(html.decode())) <= seen_by(hand, seat)
    assert explained >= 4


def test_staff_get_the_odds_but_no_explanations() -> None:
    table, _ = started("Asha", "Bikash")
    table = play_until(table, 1)
    staff = Client()
    staff.force_login(User.objects.create_user("alice", "a@example.org", "a long secret",
                                               is_staff=True))
    data = replay_data(staff, table.code, 1)
    assert "explain" not in data and "odds" in data


def test_the_explanations_speak_nepali() -> None:
    table, clients = friends_played(2)
    client = clients[0]
    client.cookies["django_language"] = "ne"
    lines = []
    for number in (1, 2):
        explain = replay_data(client, table.code, number)["explain"]
        assert isinstance(explain, dict)
        lines += [line for found in explain.values() for line in found]
    assert lines and all(re.search("[\u0900-\u097f]", line) for line in lines)
