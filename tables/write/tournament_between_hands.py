"""Between two hands of a tournament's table: busts, places, balancing, breaking, the level.

``between_hands`` runs where a table's next hand is about to be dealt (the clock's next-hand
deadline at a table of a tournament, ``tables.clock.fire``). In one transaction it locks the
Tournament row, then every table of the tournament in id order (so two tables finishing a
hand at once are handled one after the other, never interleaved), and then (unless the host
paused the tournament: then the table only holds, ``tables.write.tournament_control``):

1. records the players out (stack 0) at every table between hands, with their places by T5:
   busts whose hands ended at the same moment (``Hand.ended_at``), at one table or several,
   are one moment, ordered by the chips they started their last hand with;
2. lets them go from their tables (T7: ``Game.depart``, with no chips);
3. when one player is left, finishes the tournament (T6): every entrant has one place, every
   table's game ends;
4. else asks ``engine.tournament.plan`` what moves (T2, T3), with each table's worst seats
   (T4: ``Game.worst_seats``), and carries out the moves whose two tables are both between
   hands (a table in mid-hand waits: it is asked again after that hand; meanwhile a table
   whose player waits to leave deals no hand, so the last six play one table). A moved
   player keeps their chips; a person's Seat is made again at the new table with the same
   claim hash, so their phone's claim follows, and their old table's group is told
   ``tournament.moved`` once the transaction has committed;
5. sets the shared level (T8) for the hands dealt from now on, and deals the table's hand.

A table staff closed (the admin, T9) deals no more: its players are seated before any move,
most chips first, at the tables between hands with a free seat (``after_close`` runs a pass
at once; every later pass of any table seats those still waiting); with no table left open,
the tournament ends.

Every table changes through the one write path (``apply_change``, nested in this
transaction: the tables are already locked), which checks that its chips are its starting
chips plus those that arrived minus those that left (T7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from engine import tournament as rules
from engine.blinds import BLIND_LEVELS
from engine.game import Game
from tables import cache
from tables.models import Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament
from tables.read.tournament_lobby import playing_seconds
from tables.write import push
from tables.write.announce import group_name, tell
from tables.write.late import seat_waiting
from tables.write.lobby import deal
from tables.write.path import Busy, Change, apply_change
from tables.write.tournament_control import hold

MOVED = "tournament.moved"
# A table whose player waits for a seat at a table in mid-hand, by id: the version it waited
# at and the versions of its tournament's tables then (per process; see ``between_hands``).
_waiting: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}


@dataclass
class _Arrival:
    """A player sitting down with their chips, as their seat was at the table they left (a
    person, or a computer that took over a person's seat, keeps what the seat was)."""

    position: int
    stack: int
    seat: Seat
    is_person: bool


@dataclass
class _Work:
    """What happens at one table in this pass."""

    departs: list[int] = field(default_factory=list)
    arrivals: list[_Arrival] = field(default_factory=list)
    deal: bool = False
    end: bool = False
    closed: bool = False  # a table staff closed (T9): its players only leave

    @property
    def busy(self) -> bool:
        return bool(self.departs or self.arrivals or self.deal or self.end)


def between_hands(tournament_id: int, table_id: int, version: int) -> bool:
    """The next-hand deadline of table ``table_id`` (seen at ``version``) at a tournament's
    table. False when nothing changed: the deadline is no longer the one seen, or a player of
    this table waits for a seat at a table in mid-hand (this table is asked again once any
    table of the tournament has a new version)."""
    seen = tuple(
        Table.objects.filter(tournament_id=tournament_id).order_by("id")
        .values_list("id", "version")
    )
    if _waiting.get(table_id) == (version, seen):
        return False  # it waits for a seat elsewhere, and no table has changed since
    notes: list[dict[str, Any]] = []
    with transaction.atomic():
        tournament = _locked_tournament(tournament_id, table_id)
        tables = list(
            Table.objects.filter(tournament_id=tournament_id).select_for_update().order_by("id")
        )
        trigger = next((t for t in tables if t.id == table_id), None)
        if (
            trigger is None or trigger.version != version or trigger.paused
            or trigger.status != Table.Status.PLAYING
            or trigger.deadline_kind != Table.Deadline.NEXT_HAND
            or tournament.status != Tournament.Status.PLAYING
        ):
            return False
        if tournament.paused:  # the host paused: this table deals no new hand (control.py)
            hold(table_id, tournament.host_name)
            return True
        done = _pass(tournament, tables, trigger, notes)
        if not done:
            # Nothing to do yet: the table waits, unchanged, and is asked again once another
            # table of the tournament has changed (not at every tick of the clock).
            _waiting[table_id] = (version, tuple((t.id, t.version) for t in tables))
            return False
        _waiting.pop(table_id, None)
        transaction.on_commit(lambda: _tell(notes))
    return True


def after_close(tournament_id: int) -> None:
    """T9: staff closed a table of this tournament (the admin): its players sit down at once
    where a table between hands has a free seat, the others at the next pass of any table;
    with no table left open, the tournament ends (every player still in placed by chips)."""
    notes: list[dict[str, Any]] = []
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.PLAYING:
            return
        tables = list(
            Table.objects.filter(tournament_id=tournament_id).select_for_update().order_by("id")
        )
        _pass(tournament, tables, None, notes)
        transaction.on_commit(lambda: _tell(notes))


Seated = dict[tuple[int | None, int | None], Entrant]  # (table id, position): its entrant


@dataclass
class _Pass:
    """One pass over a tournament's locked tables: what each of its steps reads and changes."""

    tournament: Tournament
    now: datetime
    games: dict[int, Game]  # each table's game at its version (read only)
    playing: list[Table]  # the tables still playing
    closed: list[Table]  # T9: tables staff closed whose players have not all left yet
    between: set[int]  # the playing tables between two hands
    after: dict[int, Game]  # the games as this pass leaves them (copies)
    entrants: list[Entrant]
    seated: Seated  # the entrants still in, by their seat
    work: dict[int, _Work]  # what happens at each table
    notes: list[dict[str, Any]]  # the phones to tell of a move, after the commit

    @classmethod
    def over(cls, tournament: Tournament, tables: list[Table],
             notes: list[dict[str, Any]]) -> _Pass:
        games = {t.id: _game_of(t) for t in tables if t.state is not None}
        playing = [
            t for t in tables
            if t.id in games and not games[t.id].finished and t.status == Table.Status.PLAYING
        ]
        entrants = list(tournament.entrants.all())
        seated = {(e.table_id, e.position): e for e in entrants if e.place is None}
        closed = [
            t for t in tables if t.id in games and t.status == Table.Status.CLOSED
            and any((t.id, p) in seated for p in games[t.id].seats)
        ]
        between = {t.id for t in playing if not games[t.id].hand_running}
        after = {
            t.id: games[t.id].copy() for t in playing + closed if t.id in between or t in closed
        }
        return cls(
            tournament, timezone.now(), games, playing, closed, between, after, entrants,
            seated, {t.id: _Work() for t in playing + closed}, notes,
        )

    def record_busts(self) -> rules.Standings:
        """T5: places for everyone out at a table between hands (a closed table's too), one
        moment per hand end time."""
        entrants = self.entrants
        standings = rules.Standings(
            len(entrants), {str(e.id): e.place for e in entrants if e.place is not None}
        )
        between = self.between | {t.id for t in self.closed}
        moments: dict[datetime, list[tuple[Entrant, int, Table, int]]] = {}
        for table in self.playing + self.closed:
            if table.id not in between:
                continue
            out = [(p, s) for p, s in self.games[table.id].seats.items() if s.stack == 0]
            if not out:
                continue
            numbers = {s.out_hand for _p, s in out if s.out_hand is not None}
            ended = dict(
                Hand.objects.filter(table=table, number__in=numbers)
                .values_list("number", "ended_at")
            )
            for position, state in out:
                hand = state.out_hand or 0
                moment = ended.get(hand) or self.now
                moments.setdefault(moment, []).append(
                    (self.seated[(table.id, position)], state.out_stack, table, hand)
                )
        for moment in sorted(moments):
            busts = moments[moment]
            given = standings.out([rules.Bust(str(e.id), started) for e, started, _t, _h in busts])
            for entrant, started, table, hand in busts:
                entrant.place = given[str(entrant.id)]
                entrant.bust_table = table.tournament_number
                entrant.bust_hand = hand
                entrant.started_last_hand_with = started
                entrant.table, entrant.position = None, None
                entrant.save(update_fields=[
                    "place", "bust_table", "bust_hand", "started_last_hand_with", "table",
                    "position",
                ])
        return standings

    def let_the_busted_go(self) -> None:
        """Everyone left with no chip leaves their table."""
        for t in self.playing + self.closed:
            if t.id in self.after:
                for position, state in list(self.after[t.id].seats.items()):
                    if state.stack == 0:
                        self.after[t.id].depart(position)
                        self.work[t.id].departs.append(position)

    def finish(self, standings: rules.Standings) -> None:
        """T6: the one player left has every chip: placed first, the tournament over."""
        survivors: dict[str, int] = {}
        by_id: dict[str, Entrant] = {}
        for table in self.playing + self.closed:
            after = self.after[table.id].seats.items() if table.id in self.after else ()
            for position, state in after:
                entrant = self.seated[(table.id, position)]
                survivors[str(entrant.id)] = state.stack
                by_id[str(entrant.id)] = entrant
        for key, place in standings.finish(survivors).items():
            by_id[key].place = place
            by_id[key].save(update_fields=["place"])
        self.tournament.status = Tournament.Status.FINISHED
        self.tournament.finished_at = self.now
        for t in self.playing:
            self.work[t.id].end = True

    def seat_the_closed(self) -> None:
        """T9: the players of closed tables, most chips first (equal chips: the lower table and
        seat first), each to the shortest table between hands with a free seat, at its worst
        seat (T4). Those for whom no such seat is free wait for a later pass (no blinds
        meanwhile)."""
        after = self.after
        waiting = sorted(
            ((t, p, st) for t in self.closed for p, st in after[t.id].seats.items()
             if (t.id, p) in self.seated),
            key=lambda item: (-item[2].stack, item[0].id, item[1]),
        )
        for source, position, _state in waiting:
            free = [
                t for t in self.playing
                if t.id in self.between and len(after[t.id].seats) < rules.MAX_SEATS
            ]
            if not free:
                return
            target = min(free, key=lambda t: (len(after[t.id].seats), t.tournament_number or 0))
            self.carry_player(source, position, target, after[target.id].worst_seats()[0])

    def move(self) -> set[int]:
        """T2, T3: the plan's moves whose two tables are between hands; the others wait.
        Returns the tables with a player waiting to leave."""
        states = [
            _state_of(t, self.after.get(t.id) or self.games[t.id], t.id in self.between,
                      self.seated)
            for t in self.playing
        ]
        by_number = {t.tournament_number: t for t in self.playing}
        waiting: set[int] = set()
        for move in rules.plan(states):
            source, target = by_number[move.from_table], by_number[move.to_table]
            if source.id not in self.between or target.id not in self.between:
                waiting.add(source.id)
                continue
            self.carry_player(source, move.from_position, target, move.to_position)
        return waiting

    def carry_player(self, source: Table, position: int, target: Table, to: int) -> None:
        """The player at ``source``'s ``position`` sits down at ``target``'s ``to`` with their
        chips (T7); a person's claim goes with their seat, and their phone is told."""
        entrant = self.seated[(source.id, position)]
        state = self.after[source.id].seats[position]
        seat = Seat.objects.get(table=source, position=position)
        self.after[source.id].depart(position)
        self.after[target.id].arrive(to, state.stack, state.is_person)
        self.work[source.id].departs.append(position)
        self.work[target.id].arrivals.append(_Arrival(to, state.stack, seat, state.is_person))
        del self.seated[(source.id, position)]
        self.seated[(target.id, to)] = entrant
        entrant.table, entrant.position = target, to
        entrant.save(update_fields=["table", "position"])
        if seat.claim_hash and seat.is_person:
            self.notes.append({
                "table_id": source.id, "claim": seat.claim_hash, "code": target.code,
                "table": target.tournament_number, "seat": to + 1,
            })


def _pass(
    tournament: Tournament, tables: list[Table], trigger: Table | None,
    notes: list[dict[str, Any]],
) -> bool:
    """One pass over the locked tables: busts, places, the closed tables' players (T9),
    moves, the level; the trigger table (if any) deals. False when there was nothing to do."""
    run = _Pass.over(tournament, tables, notes)
    work = run.work
    if trigger is not None:
        work[trigger.id].deal = True
    standings = run.record_busts()
    run.let_the_busted_go()
    level = _level(tournament, run.games, run.now)
    if standings.left == 1 or (not run.playing and standings.left):
        run.finish(standings)
    else:
        run.seat_the_closed()
        waiting = run.move()
        if trigger is not None and trigger.id in waiting:
            # A player of this table waits for a seat at a table in mid-hand: this table
            # deals no hand meanwhile (the other table's next-hand deadline, or this one's
            # asked again, carries the move out).
            work[trigger.id].deal = False
        for t in run.playing:
            if t.id in run.after and not run.after[t.id].seats:
                work[t.id].end = True  # broken: nobody is left at it
    jobs = [(t, work[t.id]) for t in run.playing + run.closed if work[t.id].busy]
    if trigger is not None and not jobs and level == run.games[trigger.id].shared_level:
        return False
    tournament.version += 1
    tournament.save(update_fields=[
        "level", "level_started_at", "status", "finished_at", "version",
    ])
    if trigger is not None and not jobs:
        jobs = [(trigger, work[trigger.id])]
    for t, job in jobs:
        job.closed = t in run.closed
        apply_change(t.id, _carry_out(job, level))
    return True


def _locked_tournament(tournament_id: int, table_id: int) -> Tournament:
    """The tournament row, locked (another process on it: ``Busy``, the clock skips it)."""
    rows = Tournament.objects.filter(pk=tournament_id)
    if connection.features.has_select_for_update_skip_locked:
        found = list(rows.select_for_update(skip_locked=True))
        if not found:
            raise Busy(table_id)
        return found[0]
    return rows.select_for_update().get()


def _game_of(table: Table) -> Game:
    """The table's game at its version (read only: the one this process holds when it has it)."""
    kept = cache.cached_snapshot(table.id, table.code, table.created_at, table.version)
    if kept is not None and kept.game is not None:
        return kept.game
    assert table.state is not None
    return Game.from_dict(table.state, base=cache.latest_game(table))


def _level(tournament: Tournament, games: dict[int, Game], now: datetime) -> int:
    """T8: the shared level for hands dealt from now on: by the hands dealt at the busiest
    table (``level_hands``), else by the minutes since the start; never lower than before."""
    last = len(BLIND_LEVELS) - 1
    if tournament.level_hands:
        busiest = max((g.hand_number for g in games.values()), default=0)
        level = busiest // tournament.level_hands
    elif tournament.level_minutes and tournament.started_at is not None:
        elapsed = playing_seconds(tournament, now)  # a pause stops a level's minutes
        level = int(elapsed // (60 * tournament.level_minutes))
    else:
        level = tournament.level
    level = min(max(level, tournament.level), last)
    if level != tournament.level:
        tournament.level = level
        tournament.level_started_at = now
    return level


def _state_of(table: Table, game: Game, between: bool,
              seated: Seated) -> rules.TableState:
    number = table.tournament_number or 0
    seats = {
        p: rules.Player(str(seated[(table.id, p)].id), s.stack) for p, s in game.seats.items()
    }
    blinds = game.next_blinds() if between else None
    return rules.TableState(
        number=number, seats=seats,
        next_small_blind=blinds[1] if blinds else None,
        next_big_blind=blinds[2] if blinds else None,
        between_hands=between,
        free_order=tuple(game.worst_seats()) if between else None,
    )


def _carry_out(job: _Work, level: int) -> Callable[[Change], None]:
    """One table's part of the pass, through the write path."""

    def mutate(change: Change) -> None:
        game = change.game
        for position in job.departs:
            seat = change.seats[position]
            if seat.is_person:
                change.retire_claim(seat)  # the phone may still review the hands it played here
            game.depart(position)
            change.remove_seat(position)
        for arrival in job.arrivals:
            seat = arrival.seat
            game.arrive(arrival.position, arrival.stack, arrival.is_person)
            change.add_seat(
                position=arrival.position, name=seat.name, is_computer=seat.is_computer,
                level=seat.level, claim_hash=seat.claim_hash, joined_at=seat.joined_at,
                last_seen=seat.last_seen, away=seat.away, timeouts_in_row=seat.timeouts_in_row,
                bank_used=seat.bank_used,  # P4: the bank goes with its person
                first_hand=game.hand_number + 1,  # a new window: never the hands before here
            )
        if job.closed:  # T9: a closed table's players only leave it
            change.mark()
            return
        if not game.hand_running and game.shared_level != level:
            game.set_level(level)
        if job.end:
            game.end_now()
        elif job.deal and game.can_deal:
            seat_waiting(change)  # a late friend takes a computer's seat (tables.write.late)
            deal(change)
        change.mark()

    return mutate


def moved_message(note: dict[str, Any]) -> dict[str, Any]:
    """The group message to the old table: the person with this claim now sits at table
    ``table`` (its code), seat ``seat`` (from 1). Only that phone's connection acts on it."""
    return {
        "type": MOVED, "claim": note["claim"], "code": note["code"],
        "table": note["table"], "seat": note["seat"],
    }


def _tell(notes: list[dict[str, Any]]) -> None:
    # Redis away: logged and counted (tables.write.announce); the move is saved, and the phone
    # finds its new table on its next load.
    for note in notes:
        tell(group_name(note["table_id"]), moved_message(note))
        push.moved(note["claim"], note["code"], note["table"], note["seat"])
