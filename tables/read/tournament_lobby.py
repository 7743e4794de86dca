"""What a tournament's pages show, read from its rows and its tables' games: who
joined, every table with its players and stacks, the level and what is left of it, players
left, the average stack, the places; and the results' rows for the CSV."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from engine.blinds import BLIND_LEVELS
from engine.game import GameSettings
from tables.cache import load_snapshot
from tables.models import Table
from tables.models.tournament import Entrant, Tournament


def playing_seconds(tournament: Tournament, now: datetime, *, paused: bool = False) -> int:
    """The seconds the tournament has played since its start, its pauses not counted (with
    ``paused``: the seconds it has been paused, this pause included, instead)."""
    if tournament.started_at is None:
        return 0
    stopped = tournament.paused_seconds
    if tournament.paused and tournament.paused_at is not None:
        stopped += int((now - tournament.paused_at).total_seconds())
    if paused:
        return stopped
    return max(0, int((now - tournament.started_at).total_seconds()) - stopped)


@dataclass
class Player:
    name: str
    stack: int
    computer: bool
    mine: bool
    seat: int  # from 1


@dataclass
class TableView:
    number: int
    code: str
    players: list[Player] = field(default_factory=list)
    hand: int = 0
    held: bool = False  # paused by the tournament's pause
    mine: bool = False  # this phone's entrant sits here


@dataclass
class Level:
    number: int  # from 1
    small: int
    big: int
    next_small: int | None
    next_big: int | None
    minutes_left: int | None  # levels by time
    hands_left: int | None  # levels by hands


@dataclass
class Summary:
    tournament: Tournament
    entrants: list[Entrant]
    mine: Entrant | None
    tables: list[TableView]
    level: Level
    left: int
    average: int
    places: list[Entrant]  # those out (or everyone, at the end), first place first


def my_entrant(entrants: list[Entrant], hashes: list[str]) -> Entrant | None:
    mine = set(hashes)
    return next((e for e in entrants if e.claim_hash and e.claim_hash in mine), None)


def _tables(tournament: Tournament, entrants: list[Entrant], mine: Entrant | None
            ) -> list[TableView]:
    names = {(e.table_id, e.position): e for e in entrants if e.table_id is not None}
    views = []
    rows = Table.objects.filter(
        tournament=tournament, status=Table.Status.PLAYING
    ).order_by("tournament_number")
    for table in rows:
        snapshot = load_snapshot(table.id)
        if snapshot is None or snapshot.game is None:
            continue
        view = TableView(table.tournament_number or 0, table.code,
                         hand=snapshot.game.hand_number, held=snapshot.paused)
        game = snapshot.game
        # In a running hand, the chips behind each player now (as the table shows them).
        hand = game.hand if game.hand_running else None
        behind = dict(zip(hand.seats, hand.stack, strict=True)) if hand is not None else {}
        for position, state in sorted(game.seats.items()):
            seat = snapshot.seats.get(position)
            entrant = names.get((table.id, position))
            name = entrant.name if entrant else (seat.name if seat else "?")
            view.players.append(Player(
                name, behind.get(position, state.stack), bool(seat and seat.is_computer),
                mine is not None and entrant is not None and entrant.id == mine.id, position + 1,
            ))
        view.mine = any(p.mine for p in view.players)
        views.append(view)
    return views


def _level(tournament: Tournament, tables: list[TableView], now: datetime) -> Level:
    last = len(BLIND_LEVELS) - 1
    index = min(tournament.level, last)
    small, big = BLIND_LEVELS[index]
    upcoming = BLIND_LEVELS[index + 1] if index < last else None
    minutes_left = hands_left = None
    if upcoming is not None and tournament.status == Tournament.Status.PLAYING:
        if tournament.level_hands:
            busiest = max((t.hand for t in tables), default=0)
            hands_left = max(0, (index + 1) * tournament.level_hands - busiest)
        elif tournament.level_minutes and tournament.started_at is not None:
            at = (index + 1) * tournament.level_minutes * 60  # seconds played, pauses not
            minutes_left = max(0, math.ceil((at - playing_seconds(tournament, now)) / 60))
    return Level(
        index + 1, small, big, upcoming[0] if upcoming else None,
        upcoming[1] if upcoming else None, minutes_left, hands_left,
    )


def summary(tournament: Tournament, hashes: list[str]) -> Summary:
    entrants = list(tournament.entrants.all())
    mine = my_entrant(entrants, hashes)
    playing = tournament.status == Tournament.Status.PLAYING
    tables = _tables(tournament, entrants, mine) if playing else []
    left = sum(1 for e in entrants if e.place is None)
    if tournament.status == Tournament.Status.FINISHED:
        left = 1
    total = GameSettings().starting_stack * len(entrants)
    places = sorted((e for e in entrants if e.place is not None), key=lambda e: e.place or 0)
    return Summary(
        tournament=tournament, entrants=entrants, mine=mine, tables=tables,
        level=_level(tournament, tables, timezone.now()), left=left,
        average=total // left if left else 0, places=places,
    )


RESULT_COLUMNS = ("place", "name", "computer", "out_at_table", "out_in_hand")


def result_rows(tournament: Tournament) -> list[tuple[object, ...]]:
    """One row per entrant, by place (those still in, at the end of the list, without one)."""
    entrants = sorted(
        tournament.entrants.all(), key=lambda e: (e.place is None, e.place or 0, e.id)
    )
    return [
        (e.place or "", e.name, "yes" if e.is_computer else "no", e.bust_table or "",
         e.bust_hand or "")
        for e in entrants
    ]
