"""P4: the time bank at a table: the clock runs it after the time limit, the write path
charges what a turn used, a time-out empties it, every ten hands it gets ten seconds back.
Time never passes for real here: the clock is fired at a chosen moment (``clock.tick(now)``)
and an action is made at a chosen moment (``timezone.now`` patched while it is made)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import claims, clock
from tables.models import Seat, Table
from tables.models.tournament import Tournament
from tables.write import lobby, play, time_bank, tournament_setup
from tables.write.path import Change, apply_change
from tests.tables.helpers import create_form, first_person_turn, game_of
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db


def heads_up(**settings: Any) -> tuple[Table, list[Any]]:
    return seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2, **settings))


def seat_row(table: Table, position: int) -> Seat:
    return Seat.objects.get(table=table, position=position)


def set_bank_used(table: Table, used: dict[int, int]) -> None:
    """Through the write path, as any change is made (the same turn keeps its clock)."""

    def mutate(change: Change) -> None:
        for position, seconds in used.items():
            seat = change.seats[position]
            seat.bank_used = seconds
            change.save_seat(seat, "bank_used")

    apply_change(table.id, mutate)


def act(table: Table, sessions: list[Any], at: datetime | None = None) -> int:
    """The person to act checks (or calls), at ``at`` (default: now); returns their seat."""
    row = Table.objects.get(pk=table.id)
    legal = game_of(row).hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    hashes = claims.session_hashes(sessions[legal.seat])
    kind = "check" if legal.can_check else "call"
    with pytest.MonkeyPatch.context() as patch:
        if at is not None:
            patch.setattr(timezone, "now", lambda: at)
        play.act(table.id, hashes, kind=kind, amount=None, version=row.version,
                 action_id=f"{row.version}-{kind}", seat=legal.seat)
    return legal.seat


def turn_started(table: Table) -> tuple[Table, int, datetime]:
    """The table, the seat to act and when its turn started (its deadline less its allowance)."""
    row = Table.objects.get(pk=table.id)
    assert row.deadline_kind == Table.Deadline.TURN and row.next_deadline is not None
    seat = game_of(row).hand.seat_to_act  # type: ignore[union-attr]
    assert seat is not None
    left = time_bank.bank_left(row, seat_row(row, seat))
    return row, seat, row.next_deadline - timedelta(seconds=row.turn_seconds + left)


def allowance(table: Table) -> float:
    row = Table.objects.get(pk=table.id)
    assert row.next_deadline is not None
    return (row.next_deadline - row.updated_at).total_seconds()


def test_p4_the_turn_runs_for_the_limit_and_then_the_bank_default_60() -> None:
    table, _sessions = heads_up()
    assert table.time_bank == 60
    first_person_turn(table.id)
    assert 89 <= allowance(table) <= 90.5  # 30 s to act, then 60 s of bank


def test_p4_the_bank_is_used_only_after_the_limit() -> None:
    table, sessions = heads_up()
    _row, seat, start = turn_started(table)
    assert act(table, sessions, start + timedelta(seconds=29)) == seat
    assert seat_row(table, seat).bank_used == 0  # within the limit: nothing used
    _row, seat, start = turn_started(table)
    act(table, sessions, start + timedelta(seconds=45))
    assert seat_row(table, seat).bank_used == 15  # 15 s past the limit


def test_p4_used_seconds_are_gone() -> None:
    table, sessions = heads_up()
    _row, seat, start = turn_started(table)
    act(table, sessions, start + timedelta(seconds=70))
    assert time_bank.bank_left(table, seat_row(table, seat)) == 20
    while turn_started(table)[1] != seat:  # the other plays at once, using nothing
        act(table, sessions)
    assert 49 <= allowance(table) <= 50.5  # 30 s and the 20 s left
    _row, seat, start = turn_started(table)
    act(table, sessions, start + timedelta(seconds=45))
    assert time_bank.bank_left(table, seat_row(table, seat)) == 5


def test_p4_a_turn_out_of_time_empties_the_bank() -> None:
    table, _sessions = heads_up()
    _row, seat, start = turn_started(table)
    assert clock.tick(start + timedelta(seconds=31)) == 0  # past the limit: the bank runs
    assert clock.tick(start + timedelta(seconds=89)) == 0
    assert clock.tick(start + timedelta(seconds=91)) == 1  # limit and bank used: P1's time-out
    after = seat_row(table, seat)
    assert (after.bank_used, after.timeouts_in_row) == (60, 1)
    assert game_of(Table.objects.get(pk=table.id)).hand.actions[-1].seat == seat  # type: ignore[union-attr]


def test_p4_an_empty_bank_means_the_time_out_of_p1_after_the_limit() -> None:
    table, sessions = heads_up()
    set_bank_used(table, {0: 60, 1: 60})
    act(table, sessions)  # the next turn starts with no bank left
    _row, seat, start = turn_started(table)
    assert 29 <= allowance(table) <= 30.5
    assert clock.tick(start + timedelta(seconds=29)) == 0
    assert clock.tick(start + timedelta(seconds=31)) == 1
    assert seat_row(table, seat).timeouts_in_row == 1


def test_p4_every_ten_hands_ten_seconds_back_never_above_the_start() -> None:
    table, sessions = heads_up()
    set_bank_used(table, {0: 55, 1: 5})  # 5 s and 55 s left
    for _ in range(5000):
        row = Table.objects.get(pk=table.id)
        game = game_of(row)
        if game.hand_number == 10:
            assert [seat_row(table, p).bank_used for p in (0, 1)] == [55, 5]
        if game.hand_number == 11:
            break
        if row.deadline_kind == Table.Deadline.TURN:
            act(table, sessions)
        else:
            clock.tick(timezone.now() + timedelta(minutes=1))
    assert game_of(Table.objects.get(pk=table.id)).hand_number == 11
    assert [time_bank.bank_left(table, seat_row(table, p)) for p in (0, 1)] == [15, 60]


def test_p4_an_away_person_does_not_use_the_bank() -> None:
    table, sessions = heads_up()
    _row, seat, _start = turn_started(table)
    other = 1 - seat

    def away(change: Change) -> None:
        change.seats[other].away = True
        change.save_seat(change.seats[other], "away")

    apply_change(table.id, away)
    act(table, sessions)  # the away person's turn comes
    row = Table.objects.get(pk=table.id)
    assert game_of(row).hand.seat_to_act == other  # type: ignore[union-attr]
    assert row.deadline_kind == Table.Deadline.AWAY
    assert row.next_deadline is not None
    assert clock.tick(row.next_deadline + timedelta(minutes=5)) == 1
    assert seat_row(table, other).bank_used == 0


def test_p4_computer_players_have_no_bank() -> None:
    table = lobby.create_table(
        claims_session(), ["Asha"], lobby.TableSettings(seat_count=3), Table.Mode.COMPUTER
    )
    computers = list(Seat.objects.filter(table=table, is_computer=True))
    assert computers and all(time_bank.bank_left(table, s) == 0 for s in computers)
    for _ in range(200):
        row = Table.objects.get(pk=table.id)
        if row.deadline_kind == Table.Deadline.BOT:
            assert row.next_deadline is not None
            assert (row.next_deadline - row.updated_at).total_seconds() < 30
            return
        if row.deadline_kind == Table.Deadline.TURN:
            clock.tick(timezone.now() + timedelta(minutes=5))
        else:
            clock.tick(timezone.now() + timedelta(seconds=30))
    raise AssertionError("no computer player's turn came")


def claims_session() -> Any:
    from tests.tables.helpers import new_session

    return new_session()


def test_p4_a_tournament_gives_every_entrant_the_same_bank() -> None:
    tournament = tournament_setup.create(
        [("Asha", "a" * 64), ("Bikash", "b" * 64)], entrants_wanted=8, time_bank=120,
    )
    tables = tournament_setup.start(tournament.id)
    assert Tournament.objects.get(pk=tournament.id).time_bank == 120
    assert len(tables) >= 1
    persons = []
    for table in tables:
        table.refresh_from_db()
        assert table.time_bank == 120
        persons += [
            time_bank.bank_left(table, s) for s in Seat.objects.filter(table=table)
            if s.is_person
        ]
    assert persons == [120, 120]


def test_p4_none_gives_only_the_time_limit() -> None:
    table, _sessions = heads_up(time_bank=0)
    _row, seat, start = turn_started(table)
    assert 29 <= allowance(table) <= 30.5
    assert clock.tick(start + timedelta(seconds=31)) == 1
    assert seat_row(table, seat).bank_used == 0


def test_p4_the_host_chooses_the_bank_when_making_the_table() -> None:
    host = Client()
    response = host.post(reverse("tables:create"), create_form(time_bank="120"))
    assert response.status_code == 302
    assert Table.objects.latest("id").time_bank == 120
    response = host.post(reverse("tables:create"), create_form(name="Bikash", time_bank="0"))
    assert Table.objects.latest("id").time_bank == 0
    response = host.post(reverse("tables:create"), create_form(name="Chandra"))
    assert Table.objects.latest("id").time_bank == 60  # the default
    assert host.post(reverse("tables:create"), create_form(time_bank="45")).status_code == 200


def test_p4_the_ring_counts_the_bank_and_each_persons_seat_shows_what_is_left() -> None:
    from tables import cache
    from tables.live.frames import FrameOptions, render_frame
    from tables.live.perspective import PassState, perspective

    table, _sessions = seat_people_now(
        [["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=3)
    )
    set_bank_used(table, {0: 15})
    first_person_turn(table.id)
    snapshot = cache.load_snapshot(table.id)
    assert snapshot is not None
    frame = str(render_frame(snapshot, perspective(snapshot, [], PassState()), FrameOptions()))
    to_act = game_of(Table.objects.get(pk=table.id)).hand.seat_to_act  # type: ignore[union-attr]
    left = {0: 45, 1: 60}[to_act]  # type: ignore[index]
    assert f'data-bank="{left}"' in frame  # the ring: the limit, then the bank
    assert frame.count('class="bank-left"') == 2  # the two persons, not the computer player
    assert "+45 s" in frame and "+60 s" in frame


def test_p4_the_host_of_a_tournament_chooses_every_entrants_bank() -> None:
    form = {
        "mode": "tournament", "name": "Asha", "entrants": "7", "fill": "yes",
        "level_length": "m10", "turn_seconds": "30", "level": "easy", "time_bank": "30",
    }
    response = Client().post(reverse("tables:create") + "?mode=tournament", form)
    assert response.status_code == 302
    assert Tournament.objects.latest("id").time_bank == 30
    del form["time_bank"]
    Client().post(reverse("tables:create") + "?mode=tournament", {**form, "name": "Bikash"})
    assert Tournament.objects.latest("id").time_bank == 60  # the default
