"""A tournament's table page links back to the tournament's lobby (issue 30): one small line
with the tournament's name, the table's number, the level, the players left and the link."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import clock
from tables.models import Table
from tables.models.tournament import Entrant, Tournament
from tests.tables.helpers.tournaments import LATER, computer_tournament, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def _line(table: Table, language: str = "en") -> str | None:
    phone = Client()
    phone.cookies["django_language"] = language
    response = phone.get(reverse("tables:table", args=[table.code]))
    assert response.status_code == 200
    found = re.search(
        r'<p class="tourney-line[^"]*" data-testid="tournament-line"[^>]*>(.*?)</p>',
        html.unescape(response.content.decode()), flags=re.S,
    )
    return found.group(1) if found else None


def _text(line: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip()


def test_each_table_of_a_tournament_links_to_its_lobby_with_its_level_and_players_left(
) -> None:
    tournament = computer_tournament(13, level_hands=1)
    tables = tables_of(tournament)
    assert len(tables) == 3
    lobby = reverse("tournament:page", args=[tournament.code])
    for table in tables:
        line = _line(table)
        assert line is not None
        assert f'href="{lobby}"' in line
        assert 'title="10/20"' in line  # the level's blinds
        assert _text(line) == (
            f"Tournament {tournament.code} · table {table.tournament_number} · "
            "level 1 · 13 of 13 left"
        )


def _polled(table: Table) -> str:
    """The line as the page's line asks for it again (its own hx-get, every few seconds)."""
    page = Client().get(reverse("tables:table", args=[table.code])).content.decode()
    found = re.search(r'data-testid="tournament-line"[^>]* hx-get="([^"]+)" '
                      r'hx-trigger="every (\d+)s" hx-swap="outerHTML"', page)
    assert found is not None, "the line does not ask for itself again"
    response = Client().get(html.unescape(found.group(1)))
    assert response.status_code == 200
    return response.content.decode()


def test_the_line_follows_the_level_and_the_players_out() -> None:
    tournament = computer_tournament(13, level_hands=1)
    watched = tables_of(tournament)[0]
    assert "13 of 13 left" in _text(_polled(watched))
    for _step in range(5000):
        if Entrant.objects.filter(tournament=tournament, place__isnull=False).exists():
            break
        assert clock.tick(timezone.now() + LATER)
    else:
        raise AssertionError("nobody went out")
    tournament.refresh_from_db()
    left = Entrant.objects.filter(tournament=tournament, place__isnull=True).count()
    assert left < 13 and tournament.level > 0
    table = next(t for t in tables_of(tournament) if t.status == Table.Status.PLAYING)
    line = _line(table)
    assert line is not None
    assert f"level {tournament.level + 1} · " in _text(line)
    assert f"{left} of 13 left" in _text(line)
    # A phone that stays on its table's page sees it too: the line it asks for again says so.
    polled = _polled(table)
    assert f'data-left="{left}"' in polled and f"level {tournament.level + 1} · " in _text(polled)


def test_the_line_asked_for_at_a_table_of_no_tournament_is_nothing() -> None:
    table = Table.objects.create(code="ABC234", mode=Table.Mode.FRIENDS)
    phone = Client()
    assert phone.get(reverse("tournament:table_line", args=[table.code])).status_code == 204
    assert phone.get(reverse("tournament:table_line", args=["??"])).status_code == 204
    assert phone.post(reverse("tournament:table_line", args=[table.code])).status_code == 405


def test_a_table_of_no_tournament_has_no_such_line() -> None:
    table = Table.objects.create(code="ABC234", mode=Table.Mode.FRIENDS)
    assert _line(table) is None
    assert not Tournament.objects.exists()


def test_the_line_speaks_nepali() -> None:
    tournament = computer_tournament(7, level_hands=1)
    line = _line(tables_of(tournament)[0], "ne")
    assert line is not None
    text = _text(line)
    assert "प्रतियोगिता" in text and "तह 1 ·" in text and "7 मध्ये 7 बाँकी" in text
