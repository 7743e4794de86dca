"""The tournament's rules carried out through the write path (issue 30): seating (T1), a move
that waits for the end of a hand and lands on the worst seat with the phone following (T2,
T4), a table breaking (T3), places across tables (T5), the shared level (T8)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine import tournament as rules
from engine.game import Game
from tables import claims, clock
from tables.models import FormerClaim, Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament
from tables.write import lobby
from tables.write import tournament_setup as setup
from tables.write.path import Refused
from tests.tables.helpers import NewPhone, Phone
from tests.tables.helpers.tournaments import (
    computer_tournament,
    fire,
    game,
    play_to_the_end,
    seats_of,
    tables_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _with_chips(table: Table) -> int:
    return len(game(table).players_with_chips)


def _to_hand_end(table: Table) -> None:
    """Play the table's running hand to its end (persons time out, computers decide)."""
    for _step in range(500):
        table.refresh_from_db()
        if table.state is None or not game(table).hand_running:
            return
        assert fire(table)
    raise AssertionError("the hand did not end")


def _departed(g: Game) -> Game:
    """The game once its players out have left (T7), as the tournament sees it next."""
    twin = g.copy()
    for position, state in list(twin.seats.items()):
        if state.stack == 0:
            twin.depart(position)
    return twin


# ------------------------------------------------------------------------ T1, T8: the start
def test_t1_start_seats_everyone_at_the_fewest_even_tables_with_computers_filling_up() -> None:
    people = [(f"Friend {i}", claims.claim_hash(f"secret {i}")) for i in range(3)]
    tournament = setup.create(people, entrants_wanted=13, level_hands=10)
    assert tournament.host_name == "Friend 0"
    entrant = setup.join(tournament.id, "Maya", claims.claim_hash("maya"))
    assert setup.join(tournament.id, "Other name", claims.claim_hash("maya")) == entrant
    with pytest.raises(Refused) as refused:
        setup.join(tournament.id, "maya", claims.claim_hash("someone else"))
    assert refused.value.code == "name_taken"
    tables = setup.start(tournament.id)
    assert sorted(_with_chips(t) for t in tables) == [4, 4, 5]  # T1
    assert [t.tournament_number for t in tables] == [1, 2, 3]
    entrants = list(Entrant.objects.filter(tournament=tournament))
    assert len(entrants) == 13 and sum(not e.is_computer for e in entrants) == 4
    assert len({e.name for e in entrants}) == 13
    for e in entrants:  # each entrant's seat, with their claim (a computer has none)
        assert e.table_id is not None and e.position is not None
        seat = Seat.objects.get(table_id=e.table_id, position=e.position)
        assert (seat.name, seat.claim_hash, seat.is_computer) == (
            e.name, e.claim_hash, e.is_computer
        )
    for table in tables:  # T8: every table at the tournament's level, its first hand dealt
        g = game(table)
        assert g.shared_level == 0 and g.hand_running and g.hand_number == 1
        assert not g.settings.stand_alone
    with pytest.raises(Refused):
        setup.start(tournament.id)
    with pytest.raises(Refused):
        setup.join(tournament.id, "Late", claims.claim_hash("late"))


def test_t1_a_tournament_has_7_to_36_entrants() -> None:
    with pytest.raises(Refused):
        setup.create(entrants_wanted=6)
    with pytest.raises(Refused):
        setup.create(entrants_wanted=37)
    lonely = setup.create([("Asha", "a" * 64)], entrants_wanted=7, computer_fill=False)
    with pytest.raises(Refused) as refused:
        setup.start(lonely.id)
    assert refused.value.code == "too_few"
    lonely.refresh_from_db()
    assert lonely.status == Tournament.Status.WAITING
    assert not Table.objects.filter(tournament=lonely).exists()


def test_t8_the_level_rises_at_every_table_by_the_hands_of_the_busiest() -> None:
    tournament = computer_tournament(12, level_hands=2)
    first, second = tables_of(tournament)
    for _hand in range(2):  # the first table alone deals its second and third hands
        _to_hand_end(first)
        assert fire(first)
    _to_hand_end(first)
    _to_hand_end(second)
    assert fire(second)  # the second table's second hand: the first table dealt two already
    tournament.refresh_from_db()
    assert tournament.level == 1
    second.refresh_from_db()
    g = game(second)
    assert g.hand_number == 2 and g.shared_level == 1
    assert g.hand is not None and (g.hand.settings.small_blind, g.hand.settings.big_blind) == (
        15, 30
    )


# ------------------------------------------------------------------------ T2, T4: a move
async def test_t2_t4_a_move_waits_for_the_hand_and_lands_on_the_worst_seat_the_phone_following(
    new_phone: NewPhone,
) -> None:
    def phones() -> tuple[list[SessionStore], list[tuple[str, str]]]:
        sessions = [new_phone() for _ in range(12)]
        people = [(f"Player {i}", claims.new_claim(s)) for i, s in enumerate(sessions)]
        for session in sessions:
            session.save()
        return sessions, people

    sessions, people = await database_sync_to_async(phones)()
    phone_of = {claim: s for (_name, claim), s in zip(people, sessions, strict=True)}

    def begin() -> tuple[Tournament, Table, Table]:
        tournament = setup.create(
            people, entrants_wanted=12, computer_fill=False, level_hands=1
        )
        setup.start(tournament.id)
        first, second = tables_of(tournament)
        return tournament, first, second

    tournament, full, short = await database_sync_to_async(begin)()

    def shorten() -> dict[int, tuple[int | None, int | None]]:
        """The second table plays (the first stays in its first hand) until it has two
        players out or more; then its next-hand deadline fires with the first mid-hand."""
        for _step in range(5000):
            short.refresh_from_db()
            g = game(short)
            if not g.hand_running and len(g.players_with_chips) <= 4:
                break
            assert fire(short)
        else:
            raise AssertionError("nobody went out")
        where = seats_of(tournament)
        assert fire(short)  # busts recorded, the table deals again; nobody moves
        return where

    where = await database_sync_to_async(shorten)()

    def no_move_yet(mid_hand: bool = True) -> None:
        after = seats_of(tournament)
        assert {e: w for e, w in after.items() if e in where and w != where[e]} == {}
        full.refresh_from_db()
        g = game(full)
        assert g.hand_running == mid_hand and g.hand_number == 1 and len(g.seats) == 6
        assert Entrant.objects.filter(tournament=tournament, place__isnull=False).exists()

    await database_sync_to_async(no_move_yet)()

    def both_between_hands() -> tuple[int, int, str]:
        _to_hand_end(short)
        _to_hand_end(full)
        no_move_yet(mid_hand=False)  # the hands ended; a move waits for a next-hand deadline
        full.refresh_from_db()
        short.refresh_from_db()
        assert full.deadline_kind == short.deadline_kind == Table.Deadline.NEXT_HAND
        blinds = _departed(game(full)).next_blinds()
        assert blinds is not None
        mover = blinds[2]  # T2: who would post the big blind next at the fuller table
        assert len(_departed(game(short)).seats) <= 4
        worst = _departed(game(short)).worst_seats()[0]  # T4
        return mover, worst, Seat.objects.get(table=full, position=mover).claim_hash

    mover, worst, claim = await database_sync_to_async(both_between_hands)()
    session = phone_of[claim]
    phone = Phone(full.code, session.session_key)
    await phone.connect()
    assert await database_sync_to_async(fire)(full)  # the fuller table's next hand: the move
    notice = await phone.until_notice("tournament_moved")
    assert f'data-url="/t/{short.code}/"' in notice.text
    assert f"seat {worst + 1}" in notice.text
    await phone.close()

    def moved() -> None:
        entrant = Entrant.objects.get(tournament=tournament, claim_hash=claim)
        assert (entrant.table_id, entrant.position) == (short.id, worst)
        seat = Seat.objects.get(table=short, position=worst)
        assert (seat.claim_hash, seat.name, seat.is_computer) == (claim, entrant.name, False)
        assert not Seat.objects.filter(table=full, claim_hash=claim).exists()
        assert FormerClaim.objects.filter(table=full, claim_hash=claim, position=mover).exists()
        short.refresh_from_db()
        full.refresh_from_db()
        assert game(short).seats[worst].is_person
        assert len(game(full).seats) == 5 and game(full).hand_running  # dealt, five-handed
        assert game(full).hand_number == 2

    await database_sync_to_async(moved)()
    # The phone opens the new table (live.js follows the notice's page): the seat is its own.
    there = Phone(short.code, session.session_key)
    frame = await there.connect()
    assert frame.data["mine"] == [worst]
    await there.close()


# ------------------------------------------------------------------------ T3: a table breaks
def test_t3_the_shorter_table_breaks_and_the_last_six_play_one_table() -> None:
    tournament = computer_tournament(7, level_hands=1)
    four, three = sorted(tables_of(tournament), key=lambda t: -_with_chips(t))
    for _tick in range(5000):
        where = seats_of(tournament)
        clock.tick(timezone.now() + timedelta(minutes=5))
        tables = tables_of(tournament)
        empty = [t for t in tables if t.state is not None and not game(t).seats]
        if empty:
            break
    else:
        raise AssertionError("no table broke")
    (broken,) = empty
    (final,) = [t for t in tables if t.id != broken.id]
    # The table with fewer players left (on a tie the higher number) broke.
    still_in = seats_of(tournament)
    sizes = {
        table.id: sum(1 for e in still_in if where[e][0] == table.id) for table in tables
    }
    assert (sizes[broken.id], -(broken.tournament_number or 0)) < (
        sizes[final.id], -(final.tournament_number or 0)
    )
    assert broken.status == Table.Status.FINISHED and game(broken).total_chips() == 0
    assert not Seat.objects.filter(table=broken).exists()
    left = Entrant.objects.filter(tournament=tournament, place=None)
    assert left.count() <= 6
    assert {e.table_id for e in left} == {final.id}
    assert set(_departed(game(final)).seats) == {e.position for e in left}
    hands_before = Hand.objects.filter(table=broken).count()
    for _tick in range(20):
        clock.tick(timezone.now() + timedelta(minutes=5))
    assert Hand.objects.filter(table=broken).count() == hands_before  # it deals no more
    assert {four.id, three.id} == {broken.id, final.id}


# ------------------------------------------------------------------------ T5: places
def test_t5_busts_at_two_tables_at_the_same_moment_are_placed_together_by_starting_chips(
) -> None:
    tournament = computer_tournament(24, level_hands=1)
    for _round in range(500):
        tables = [t for t in tables_of(tournament) if t.status == Table.Status.PLAYING]
        for table in tables:  # every table plays its hand to the end, none deals yet
            _to_hand_end(table)
        out = {
            t.id: [s for s in game(t).seats.values() if s.stack == 0]
            for t in tables_of(tournament) if t.state is not None
        }
        out = {table_id: busted for table_id, busted in out.items() if busted}
        by_table = [
            chips for table_id in sorted(out)
            for chips in sorted(s.out_stack for s in out[table_id])
        ]
        if len(out) >= 2 and by_table != sorted(by_table):
            # Players out at two tables at once, the first table's with more chips: placed
            # table by table, or one table's first, they would finish in another order.
            break
        for table in tables:
            table.refresh_from_db()
            if table.deadline_kind == Table.Deadline.NEXT_HAND:
                fire(table)
        assert len(tables) > 1, "one table left before two had players out together"
    else:
        raise AssertionError("no two tables had players out at once")
    # Those hands ended at the same moment.
    moment = timezone.now()
    for table_id, busted in out.items():
        number = busted[0].out_hand
        assert number is not None
        Hand.objects.filter(table_id=table_id, number=number).update(ended_at=moment)
    placed = {
        str(e.id): e.place for e in Entrant.objects.filter(tournament=tournament)
        if e.place is not None
    }
    busts = [
        rules.Bust(
            str(Entrant.objects.get(table_id=table_id, position=state.seat, place=None).id),
            state.out_stack,
        )
        for table_id, busted in out.items() for state in busted
    ]
    expected = rules.Standings(24, dict(placed)).out(busts)
    # The deadline fires at the table whose player out had the most chips: were its own busts
    # placed first (as if earlier), that player would finish lowest.
    richest = max(out, key=lambda table_id: max(s.out_stack for s in out[table_id]))
    (trigger,) = [t for t in tables_of(tournament) if t.id == richest]
    assert fire(trigger)
    got = {
        str(e.id): e.place or 0
        for e in Entrant.objects.filter(pk__in=[int(b.entrant) for b in busts])
    }
    assert got == expected
    # Fewer chips at the start of the hand finishes lower, whichever table it was at.
    ranked = sorted(busts, key=lambda b: b.started_with)
    assert [got[b.entrant] for b in ranked] == sorted(
        (got[b.entrant] for b in ranked), reverse=True
    )
    assert max(got.values()) == 24 - len(placed)  # below everyone still in
    assert min(got.values()) == 24 - len(placed) - len(busts) + 1
    # The other table let its players out go while it still shows the hand they lost: its page
    # draws that hand without them.
    for table in tables_of(tournament):
        if table.id in out and table.id != trigger.id:
            assert not game(table).hand_running
            assert all(s.stack > 0 for s in game(table).seats.values())
            page = Client().get(reverse("tables:table", args=[table.code]))
            assert page.status_code == 200, page.content.decode()[:3000]


def test_t6_a_person_who_leaves_is_played_by_a_computer_and_the_tournament_still_ends(
    new_phone: NewPhone,
) -> None:
    session = new_phone()
    claim = claims.new_claim(session)
    tournament = setup.create([("Asha", claim)], entrants_wanted=7, level_hands=3)
    setup.start(tournament.id)
    entrant = Entrant.objects.get(tournament=tournament, claim_hash=claim)
    assert entrant.table_id is not None and entrant.position is not None
    lobby.leave_table(entrant.table_id, [claim])
    table = Table.objects.get(pk=entrant.table_id)
    assert table.status == Table.Status.PLAYING and not game(table).finished
    seat = Seat.objects.get(table=table, position=entrant.position)
    assert seat.is_computer and not seat.claim_hash
    play_to_the_end(tournament)
    places = sorted(e.place or 0 for e in Entrant.objects.filter(tournament=tournament))
    assert places == list(range(1, 8))
