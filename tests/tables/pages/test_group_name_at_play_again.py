"""Play again starts a group under a name the people choose, prefilled with the players' names
(the people's, "Asha, Bikash and Chitra"; with one person, the computer players' too), checked
like a player's name; the group page and the links to it use that name."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tables import claims
from tables.models import GroupGame, Seat, Table
from tables.write import groups, host
from tests.tables.helpers import create_form
from tests.tables.helpers.pages import started

pytestmark = pytest.mark.django_db


def finished() -> tuple[Table, list[Client]]:
    table, clients = started("Asha", "Bikash", seats=3)
    host.end_game(table.id, claims.session_hashes(clients[0].session))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table, clients


def field_value(page: str) -> str | None:
    found = re.search(r'<input[^>]*name="group_name"[^>]*value="([^"]*)"', page)
    return html.unescape(found.group(1)) if found else None


def again(client: Client, table: Table, name: str | None) -> int:
    data = {"points": "3-2-1"} | ({} if name is None else {"group_name": name})
    return client.post(reverse("tables:again", args=[table.code]), data).status_code


def test_the_name_field_is_prefilled_with_the_peoples_names() -> None:
    table, clients = finished()
    page = clients[0].get(reverse("tables:table", args=[table.code])).content.decode()
    assert field_value(page) == "Asha and Bikash"
    assert 'maxlength="40"' in page


def test_alone_with_computers_the_default_names_them_too() -> None:
    phone = Client()
    phone.post(reverse("tables:create"), create_form("computer", name="Asha", seats="3"))
    table = Table.objects.get(seats__name="Asha")
    host.end_game(table.id, claims.session_hashes(phone.session))
    seats = Seat.objects.filter(table=table).order_by("position")
    names = list(seats.values_list("name", flat=True))
    page = phone.get(reverse("tables:table", args=[table.code])).content.decode()
    assert names[0] == "Asha" and field_value(page) == f"Asha, {names[1]} and {names[2]}"


def test_the_chosen_name_names_the_group_its_page_and_its_links() -> None:
    table, clients = finished()
    assert again(clients[0], table, "  Friday   night  poker ") == 302
    group = GroupGame.objects.get(table=table).group
    assert group.name == "Friday night poker" and group.points == "3-2-1"
    page = clients[1].get(reverse("tables:group", args=[group.code])).content.decode()
    assert '<h1 data-testid="group-name">Friday night poker</h1>' in page
    games = clients[1].get(reverse("tables:games")).content.decode()
    assert re.search(r'data-testid="group-link">Friday night poker<', games)
    # Playing again from the group's next game keeps the group and its name.
    following = Table.objects.get(pk=table.pk).next_table
    assert following is not None
    clients[0].post(reverse("tables:start", args=[following.code]))
    host.end_game(following.id, claims.session_hashes(clients[0].session))
    assert again(clients[0], following, "Another name") == 302
    assert GroupGame.objects.get(table=following).group == group
    group.refresh_from_db()
    assert group.name == "Friday night poker" and group.games.count() == 3


def test_a_blank_name_gives_the_players_names() -> None:
    table, clients = finished()
    assert again(clients[0], table, "   ") == 302
    group = GroupGame.objects.get(table=table).group
    assert group.name == "Asha and Bikash"


@pytest.mark.parametrize("bad", ["x" * 41, "Poker\u200bnight", "Bad\x00name"])
def test_a_bad_name_is_refused_and_starts_nothing(bad: str) -> None:
    table, clients = finished()
    assert again(clients[0], table, bad) == 302
    table.refresh_from_db()
    assert table.next_table_id is None and not GroupGame.objects.filter(table=table).exists()


def test_many_long_names_are_counted_when_they_do_not_fit() -> None:
    names = ["Alexandra", "Bartholomew", "Christopher", "Dominique", "Evangeline", "Frederick"]
    with translation.override("en"):
        name = groups.default_group_name(names)
        assert groups.default_group_name(["Asha"]) == "Asha"
        assert groups.default_group_name(["Asha", "Bikash"]) == "Asha and Bikash"
    assert len(name) <= 40 and name.startswith("Alexandra, Bartholomew") and name.endswith("more")
    with translation.override("ne"):
        assert groups.default_group_name(["Asha", "Bikash"]) == "Asha र Bikash"
