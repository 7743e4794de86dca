"""Every export writes strangers' names through one helper (engine.export.neutral): no CSV
cell runs as a formula, no PokerStars line is misread, no PHH string breaks out."""

from __future__ import annotations

import csv
import io
import re
import tomllib

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import given
from hypothesis import strategies as st

from engine.export import csv_row, neutral
from tables.models import Hand, Seat, Table
from tables.models.season import GroupGame
from tables.models.tournament import Entrant
from tests.engine.pokerstars import parse, split_hands
from tests.tables.helpers import client_lobby, play_out
from tests.tables.helpers.tournaments import computer_tournament

pytestmark = pytest.mark.django_db

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
HOSTILE = [
    '=HYPERLINK("//e.x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "＝1+1",
    "Seat 9: x", "*** SUMMARY ***", "Dealt to me [Ah]", 'a"b\nc: d', "PokerStars Hand #1:",
]

# Every view that hands over a file; the test below fails when a new export is not listed.
EXPORT_URL_NAMES = {
    "tables:results_csv", "tables:group_csv", "tournament:results_csv",
    "tables:hand_pokerstars", "tables:hand_phh", "tables:game_pokerstars", "tables:game_phh",
}


def _url_names() -> set[str]:
    found: set[str] = set()

    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, f"{p.namespace}:" if p.namespace else prefix)
            elif p.name:
                found.add(prefix + p.name)

    walk(get_resolver().url_patterns, "")
    return found


def test_the_list_of_exports_is_every_export_view() -> None:
    names = _url_names()
    assert names >= EXPORT_URL_NAMES
    looks_like_export = {n for n in names if re.search(r"csv|phh|pokerstars", n)}
    assert looks_like_export == EXPORT_URL_NAMES


# ------------------------------------------------------------------------------ the helper
def formula_cell(cell: str) -> bool:
    return cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cell)


@given(st.text(max_size=30))
def test_no_csv_cell_starts_a_formula(text: str) -> None:
    cell = neutral(text, "csv")
    assert not formula_cell(cell)
    assert "\n" not in cell and "\r" not in cell
    if text and text == text.strip() and text.isprintable() and not text.startswith(
        FORMULA_STARTS
    ):
        assert cell == text  # harmless text is left alone


def test_numbers_stay_numbers_in_a_csv_row() -> None:
    assert csv_row([3, "-12", "0.50", "=1", "Asha"]) == [3, "-12", "0.50", "'=1", "Asha"]


@given(st.text(max_size=30))
def test_no_name_breaks_a_pokerstars_line(text: str) -> None:
    name = neutral(text, "text")
    assert not set(name) & set(":[]'\"\n\r\t")
    assert not name.casefold().startswith(("seat ", "*", "pokerstars", "dealt to", "board "))


@given(st.text(max_size=30))
def test_a_phh_name_reads_back_as_one_line(text: str) -> None:
    from engine.phh.write import _toml_string

    name = neutral(text, "phh")
    assert tomllib.loads(f"players = [{_toml_string(name)}]")["players"] == [name]
    assert name.isprintable()


# ------------------------------------------------------------------------------ the views
def _hostile_game() -> tuple[Table, Client]:
    table, (host, _guest) = client_lobby("Asha", "Bikash", seats=3, length="30")
    Seat.objects.filter(table=table, position=0).update(name=HOSTILE[0])
    Seat.objects.filter(table=table, position=1).update(name="Seat 9: x")
    host.post(reverse("tables:start", args=[table.code]))
    return play_out(table.pk), host


def test_every_table_export_neutralises_a_hostile_name() -> None:
    table, host = _hostile_game()
    assert Hand.objects.filter(table=table, ended_at__isnull=False).exists()
    names = {str(p["name"]) for row in Hand.objects.filter(table=table) for p in row.players}
    assert HOSTILE[0] in names  # the hands really carry the hostile name

    rows = list(csv.reader(io.StringIO(
        host.get(reverse("tables:results_csv", args=[table.code])).content.decode())))
    assert "'" + HOSTILE[0] in {r[1] for r in rows[1:]}
    assert not any(formula_cell(cell) for row in rows for cell in row)

    stars = host.get(reverse("tables:game_pokerstars", args=[table.code])).content.decode()
    assert HOSTILE[0] not in stars and "Seat 9: x" not in stars
    for part in split_hands(stars):
        parse(part + "\n")  # still a history a tracker reads
    assert not re.search(r"^Seat 9", stars, flags=re.M)
    first = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number").first()
    assert first is not None
    one = host.get(reverse("tables:hand_pokerstars", args=[table.code, first.number]))
    assert "_Seat 9. x" in one.content.decode()

    phhs = host.get(reverse("tables:game_phh", args=[table.code])).content.decode()
    loaded = tomllib.loads(phhs)
    assert all(set(h["players"]) >= {HOSTILE[0], "Seat 9: x"} for h in loaded.values())
    phh = host.get(reverse("tables:hand_phh", args=[table.code, first.number]))
    assert set(tomllib.loads(phh.content.decode())["players"]) >= {HOSTILE[0], "Seat 9: x"}

    # The season of this game, once the host plays again.
    assert host.post(reverse("tables:again", args=[table.code])).status_code == 302
    group = GroupGame.objects.get(table=table).group
    text = Client().get(reverse("tables:group_csv", args=[group.code])).content.decode()
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert "'" + HOSTILE[0] in cells
    assert not any(formula_cell(cell) for cell in cells)


def test_the_tournament_results_neutralise_every_hostile_name() -> None:
    tournament = computer_tournament(len(HOSTILE))
    for entrant, name in zip(Entrant.objects.filter(tournament=tournament), HOSTILE,
                             strict=True):
        Entrant.objects.filter(pk=entrant.pk).update(name=name)
    response = Client().get(reverse("tournament:results_csv", args=[tournament.code]))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert not any(formula_cell(cell) for cell in cells)
    assert {r[1] for r in rows[1:]} == {neutral(name, "csv") for name in HOSTILE}
    assert "'" + HOSTILE[0] in cells
