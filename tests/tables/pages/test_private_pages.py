"""Pages that can carry hole cards send ``Cache-Control: private, no-store``
(config.security.PrivatePagesMiddleware): checked over every URL pattern of the table's,
the tournament's and the admin's namespaces."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tables.models import Hand, Table
from tests.tables.helpers import client_lobby, play_out
from tests.tables.helpers.tournaments import computer_tournament

pytestmark = pytest.mark.django_db

# The pages that show the viewer's own hole cards (or every card, to staff) at the table used
# below: each must answer 200 there, so the header is checked on the real page.
CARD_PAGES = {
    "tables:table", "tables:frame", "tables:history", "tables:hand", "tables:hand_pokerstars",
    "tables:hand_phh", "tables:game_pokerstars", "tables:game_phh", "tables:results_csv",
    "tables:hand_proof", "tables:recap",
}


def _patterns() -> list[tuple[str, URLPattern]]:
    found: list[tuple[str, URLPattern]] = []

    def walk(patterns: list[URLPattern | URLResolver], namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif namespace in ("tables", "tournament") and p.name:
                found.append((f"{namespace}:{p.name}", p))

    walk(get_resolver().url_patterns, "")
    return found


def _private(response: Any) -> bool:
    value = response.get("Cache-Control", "")
    directives = {d.strip() for d in value.split(",")}
    return {"private", "no-store"} <= directives


def test_every_page_of_the_tables_and_tournaments_is_private() -> None:
    table, (host, _guest) = client_lobby("Asha", "Bikash", seats=3, length="30")
    host.post(reverse("tables:start", args=[table.code]))
    table = play_out(table.pk)
    assert table.status == Table.Status.FINISHED
    first = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number").first()
    assert first is not None
    tournament = computer_tournament(7)
    patterns = _patterns()
    assert {name for name, _ in patterns} >= CARD_PAGES
    checked = 0
    for name, pattern in patterns:
        kwargs: dict[str, Any] = {}
        for key in pattern.pattern.converters:
            kwargs[key] = {
                "code": tournament.code if name.startswith("tournament:") else table.code,
                "number": first.number, "position": 0, "seat": 0, "request_id": 1,
                "token": "x", "night_id": 1,
            }[key]
        response = host.get(reverse(name, kwargs=kwargs))
        assert _private(response), (name, response.status_code, response.get("Cache-Control"))
        if name in CARD_PAGES:
            assert response.status_code == 200, name
        checked += 1
    assert checked == len(patterns) > 30


def test_the_admins_hand_pages_are_private_and_other_pages_are_not_touched() -> None:
    User.objects.create_superuser("boss", "boss@example.org", "correct horse battery")
    staff = Client()
    assert staff.login(username="boss", password="correct horse battery")
    response = staff.get("/admin/tables/hand/")
    assert response.status_code == 200 and _private(response)
    assert not _private(Client().get(reverse("how_to_play")))
