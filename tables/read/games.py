"""The games a phone sat in: every table where one of its seat claims holds or held a seat
(tables.claims; ``FormerClaim`` for seats a computer took over), newest first."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from tables.models import FormerClaim, GroupGame, Seat, Table, Tournament
from tables.read import tournament_history
from tables.read.statistics import Result, results

PER_PAGE = 20


def table_ids(hashes: list[str]) -> set[int]:
    if not hashes:
        return set()
    held = Seat.objects.filter(claim_hash__in=hashes).values_list("table_id", flat=True)
    former = FormerClaim.objects.filter(claim_hash__in=hashes).values_list(
        "table_id", flat=True
    )
    return set(held) | set(former)


def tables_of(hashes: list[str]) -> QuerySet[Table]:
    return Table.objects.filter(pk__in=table_ids(hashes)).order_by("-created_at", "-pk")


@dataclass
class GameLine:
    """One game as its list shows it."""

    table: Table
    people: list[Result]
    mine: list[Result]  # the seats this phone held (several: pass and play)
    left: bool  # this phone's seat was taken over by a computer player
    group_code: str = ""
    group_name: str = ""
    people_text: str = ""  # the names, computer players marked
    links: dict[str, str] = field(default_factory=dict)  # table, hands, recap, exports, group


def lines(tables: list[Table], hashes: list[str]) -> list[GameLine]:
    """The list's lines for these tables (their seats and groups read in two queries)."""
    own = set(hashes)
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables):
        seats.setdefault(seat.table_id, []).append(seat)
    former: dict[int, set[int]] = {}
    for claim in FormerClaim.objects.filter(table__in=tables):  # a few rows: matched here
        if claim.claim_hash in own:
            former.setdefault(claim.table_id, set()).add(claim.position)
    groups = {
        g.table_id: g for g in GroupGame.objects.filter(table__in=tables).select_related("group")
    }
    out = []
    for table in tables:
        people = results(table, seats.get(table.pk, []))
        mine = [r for r in people if r.claim_hash and r.claim_hash in own]
        gone = [r for r in people if r.seat in former.get(table.pk, set()) and r not in mine]
        group = groups.get(table.pk)
        out.append(GameLine(
            table, people, mine or gone, bool(gone) and not mine,
            group.group.code if group else "", group.group.name if group else "",
            ", ".join(
                _("%(name)s (computer)") % {"name": r.name} if r.computer else r.name
                for r in people
            ),
            _links(table.code, group.group.code if group else ""),
        ))
    return out


_LINKS = {
    "table": "tables:table", "hands": "tables:history", "recap": "tables:recap",
    "phh": "tables:game_phh", "text": "tables:game_pokerstars", "csv": "tables:results_csv",
}
_MARK = "CODE"  # never in a table code (tables.codes has no O)


@cache
def _patterns() -> dict[str, str]:
    return {key: reverse(name, args=[_MARK]) for key, name in _LINKS.items()}


def _links(code: str, group: str) -> dict[str, str]:
    # Each link reversed once with a mark, then filled in: the list draws six links a game.
    links = {key: url.replace(_MARK, code, 1) for key, url in _patterns().items()}
    if group:
        links["group"] = reverse("tables:group", args=[group])
    return links


def game_entries(hashes: list[str]) -> list[tuple[str, datetime, int]]:
    """Every game these claims played, newest first, as (kind, created, pk): a table, or a
    tournament as one game (its tables are not listed apart)."""
    tables = tables_of(hashes).filter(tournament__isnull=True)
    return sorted(
        [("table", at, pk) for at, pk in tables.values_list("created_at", "pk")]
        + [("tournament", at, pk) for at, pk in
           tournament_history.tournaments_of(hashes).values_list("created_at", "pk")],
        key=lambda entry: (entry[1], entry[2]), reverse=True,
    )


def entry_lines(shown: list[tuple[str, datetime, int]], hashes: list[str]
                ) -> list[dict[str, Any]]:
    """The lines of these entries: {"kind", "line"} (a GameLine or a TournamentLine)."""
    tables = [pk for kind, _at, pk in shown if kind == "table"]
    tournaments = [pk for kind, _at, pk in shown if kind == "tournament"]
    by_table = {
        line.table.pk: line
        for line in lines(list(Table.objects.filter(pk__in=tables)), hashes)
    } if tables else {}
    by_tournament = {
        line.tournament.pk: line for line in tournament_history.lines(
            list(Tournament.objects.filter(pk__in=tournaments)), hashes
        )
    } if tournaments else {}
    return [
        {"kind": kind, "line": by_table[pk] if kind == "table" else by_tournament[pk]}
        for kind, _at, pk in shown
    ]
