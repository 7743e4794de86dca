"""A player's hands across the tables of a tournament they played.

A person's seat claim follows them from table to table
(tables.write.tournament_between_hands): at each
table they left, a ``FormerClaim`` keeps the seat and the last hand they were dealt there; at
the table they sit at now, their ``Seat`` holds the claim. A seat of a tournament's table is
held by several players one after the other (a player out, another moved in), so "the hands of
that seat" are not all theirs: a hand is theirs when its stored players (``Hand.players``, the
names dealt in at its start) have their name at that seat. Names are unique in a tournament
(tables.write.tournament_setup), so this is exact; it is also what the history's replayer keeps to
at a tournament's table (``own_numbers``, called by tables.pages.history).

Only finished hands that were not called off count, as in the history (P3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import QuerySet
from django.urls import reverse

from engine.history import replay
from tables.models import FormerClaim, Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament


@dataclass(frozen=True)
class Stint:
    """One seat a player held at one of the tournament's tables; ``last_hand``: the last hand
    they were dealt there when they left it (moved, out, or a computer took the seat over
    with their name: the hands after are not theirs), None while they hold it; ``first_hand``:
    the first hand of their window there (a seat taken over or moved: never the hands before)."""

    table: Table
    position: int
    name: str
    last_hand: int | None = None
    first_hand: int = 0


@dataclass
class HandLine:
    table_number: int
    number: int
    started_at: datetime
    small_blind: int
    big_blind: int
    pot: int
    winners: str
    result: int  # the player's chips after the hand minus before
    cards: list[str]  # the player's own hole cards
    board: list[str]
    url: str  # the hand in the table's replayer, through this seat's eyes


@dataclass
class TableHands:
    """The hands a player played at one table, in a row of their tournament."""

    number: int
    code: str
    seat: int  # from 1
    hands: list[HandLine] = field(default_factory=list)


def tournaments_of(hashes: list[str]) -> QuerySet[Tournament]:
    """The tournaments these claims entered (started or not), newest first."""
    if not hashes:
        return Tournament.objects.none()
    return Tournament.objects.filter(
        entrants__claim_hash__in=hashes
    ).distinct().order_by("-created_at", "-pk")


def entrant_of(tournament: Tournament, hashes: list[str]) -> Entrant | None:
    if not hashes:
        return None
    return tournament.entrants.filter(claim_hash__in=hashes).order_by("id").first()


def has_entered(tournament_id: int, hashes: Iterable[str]) -> bool:
    """Whether these claims are a player of the tournament, still in or out, as far as the
    product can know: an entrant's claim, or a claim that holds or held a person's seat at
    one of its tables (a seat moved to this phone, a review-only copy taken along from the
    entrant's phone). A fresh browser that no claim leads to is a new person to the product."""
    wanted = [h for h in hashes if h]
    if not wanted:
        return False
    return (
        Entrant.objects.filter(tournament_id=tournament_id, claim_hash__in=wanted).exists()
        or Seat.objects.filter(
            table__tournament_id=tournament_id, claim_hash__in=wanted, is_computer=False
        ).exists()
        or FormerClaim.objects.filter(
            table__tournament_id=tournament_id, claim_hash__in=wanted
        ).exists()
    )


def stints(tournament: Tournament, hashes: list[str]) -> list[Stint]:
    """Every seat these claims hold or held at the tournament's tables."""
    if not hashes:
        return []
    tables = Table.objects.filter(tournament=tournament)
    held = Seat.objects.filter(table__in=tables, claim_hash__in=hashes).select_related("table")
    found: dict[tuple[int, int, str], Stint] = {
        (r.table_id, r.position, r.name): Stint(r.table, r.position, r.name, None, r.first_hand)
        for r in held
    }
    for r in FormerClaim.objects.filter(table__in=tables, claim_hash__in=hashes).select_related(
        "table"
    ):
        key = (r.table_id, r.position, r.name)
        before = found.get(key)
        if before is None or (before.last_hand is not None and before.last_hand < r.last_hand):
            found[key] = Stint(r.table, r.position, r.name, r.last_hand, r.first_hand)
    return sorted(found.values(), key=lambda s: (s.table.tournament_number or 0, s.position))


def _dealt_in(players: list[dict[str, object]], position: int, name: str) -> bool:
    """Whether ``name`` was dealt in at ``position`` as a person (a computer that took a
    person's seat over plays on under their name)."""
    return any(
        int(str(p["seat"])) == position and p["name"] == name and not p.get("is_computer")
        for p in players
    )


def own_numbers(table: Table, position: int, name: str) -> list[int]:
    """The finished hands of ``table`` in which ``name`` was dealt in at ``position``."""
    rows = Hand.objects.filter(
        table=table, ended_at__isnull=False, cancelled=False
    ).values_list("number", "players")
    return sorted(n for n, players in rows if _dealt_in(players, position, name))


def own_numbers_for(table: Table, position: int, hashes: list[str]) -> list[int]:
    """The finished hands of a tournament's ``table`` these claims played at ``position``:
    the hands its history may show through that seat's eyes (tables.pages.history)."""
    names = {
        *Seat.objects.filter(table=table, position=position, claim_hash__in=hashes)
        .values_list("name", flat=True),
        *FormerClaim.objects.filter(table=table, position=position, claim_hash__in=hashes)
        .values_list("name", flat=True),
    }
    found: set[int] = set()
    for name in names:
        found |= set(own_numbers(table, position, name))
    return sorted(found)


def player_hands(tournament: Tournament, hashes: list[str]) -> list[TableHands]:
    """The player's hands at every table they sat at, in the order they played them (a table
    they came back to is a new part of the list)."""
    found: list[tuple[datetime, int, Stint, Hand]] = []
    for stint in stints(tournament, hashes):
        rows = Hand.objects.filter(
            table=stint.table, ended_at__isnull=False, cancelled=False
        ).order_by("number")
        if stint.last_hand is not None:
            rows = rows.filter(number__lte=stint.last_hand)
        rows = rows.filter(number__gte=stint.first_hand)
        for row in rows:
            if _dealt_in(row.players, stint.position, stint.name):
                found.append((row.started_at, row.pk, stint, row))
    found.sort(key=lambda item: (item[0], item[1]))
    parts: list[TableHands] = []
    for _at, _pk, stint, row in found:
        table = stint.table
        if not parts or (parts[-1].code, parts[-1].seat) != (table.code, stint.position + 1):
            parts.append(TableHands(table.tournament_number or 0, table.code, stint.position + 1))
        parts[-1].hands.append(_line(row, stint))
    return parts


def _line(row: Hand, stint: Stint) -> HandLine:
    hand = replay(row.record)
    names = {int(p["seat"]): str(p["name"]) for p in row.players}
    seat = stint.position
    start = dict(zip(hand.seats, hand.settings.stacks, strict=True))
    url = reverse("tables:hand", args=[stint.table.code, row.number]) + f"?seat={seat}"
    return HandLine(
        table_number=stint.table.tournament_number or 0,
        number=row.number,
        started_at=row.started_at,
        small_blind=hand.settings.small_blind,
        big_blind=hand.settings.big_blind,
        pot=sum(a.amount for a in hand.awards),
        winners=", ".join(sorted({names.get(a.seat, "?") for a in hand.awards})),
        result=hand.final_stacks[seat] - start[seat],
        cards=[str(c) for c in hand.hole[hand.index_of(seat)]],  # their own: P3
        board=[str(c) for c in hand.board],
        url=url,
    )


@dataclass
class TournamentLine:
    """A tournament in a phone's list of games: one game, however many tables it had."""

    tournament: Tournament
    mine: Entrant | None
    entrants: int
    tables: int
    links: dict[str, str]


def lines(tournaments: list[Tournament], hashes: list[str]) -> list[TournamentLine]:
    """The list's lines for these tournaments (their entrants and tables in two queries)."""
    own = set(hashes)
    entrants: dict[int, list[Entrant]] = {}
    for e in Entrant.objects.filter(tournament__in=tournaments):
        entrants.setdefault(e.tournament_id, []).append(e)
    tables: dict[int, int] = {}
    for tournament_id in Table.objects.filter(tournament__in=tournaments).values_list(
        "tournament_id", flat=True
    ):
        if tournament_id is not None:
            tables[tournament_id] = tables.get(tournament_id, 0) + 1
    out = []
    for t in tournaments:
        people = entrants.get(t.pk, [])
        mine = next((e for e in people if e.claim_hash and e.claim_hash in own), None)
        out.append(TournamentLine(t, mine, len(people), tables.get(t.pk, 0), {
            "page": reverse("tournament:page", args=[t.code]),
            "hands": reverse("tournament:hands", args=[t.code]),
            "csv": reverse("tournament:results_csv", args=[t.code]),
        }))
    return out
