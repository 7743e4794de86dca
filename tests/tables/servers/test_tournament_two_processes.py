"""Two server processes, one tournament: 20 computer players to the end (issue 30, item 4).

A 20-entrant tournament of computer players (``tables.write.tournament_setup.create`` and ``start``,
computers filling up, levels rising every few hands, short pauses) is made in a scratch
database next to DATABASE_URL's and held (its tables paused) while two daphne processes start
on loopback ports, sharing that database and Redis (the helpers of ``test_two_processes``).
Then it is released, and both processes' clocks race for every deadline of its four tables:
computer moves, and the next-hand deadlines that run ``between_hands`` (busts, places, moves
between tables, breaking, the final table) under the Tournament row's lock. The test waits,
polling the database, until the tournament is finished (within ``FINISH_WITHIN``).

Checked afterwards, from the stored rows and two triggers of the scratch database:

- every entrant has exactly one place, 1 to 20 (two out in one hand with the same chips share
  one, by T5); the winner holds all 20,000 chips, in the one seat left; a player out earlier
  is placed lower than one out later, and in the same hand the one who started it with fewer
  chips;
- chips after every hand: each stored hand keeps its chips, every player starts each hand with
  what they had at the end of their previous one (at whichever table it was; 1,000 at their
  first), and no player is dealt into a hand before their previous hand ended. So the chips
  at the tables plus the chips of those who left stay 20,000 after every hand; at the end
  every table's game has its ``chips_expected`` and only the final table has chips;
- every stored hand replays through the engine to its stored result;
- at every commit (a deferred constraint trigger), the tournament's Seats are exactly its
  seated entrants (same table, position, name): no seat lost, none twice, no name seated at
  two tables;
- every write to a table row bumps its version by exactly one; every computer move was made at
  or after its stored deadline, one move per version (the hands hold exactly as many actions
  as there were such changes: no move made twice), each change by one of the two processes
  (a table's deadlines go to the process that holds it: the other clock's look in the
  database leaves a just-due deadline to it, ``tables.clock``);
- both processes exit with status 0 on SIGTERM, having run their clock and logged no error.
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from engine.blinds import STARTING_STACK
from engine.game import Game
from engine.history import replay
from tests.helpers.servers import (
    Server,
    cluster_env,
    manage,
    row_audit,
    scratch_database,
    sql,
)

pytestmark = pytest.mark.services  # about 40 s: not marked slow

ENTRANTS = 20
LEVEL_HANDS = 3  # the blinds rise every 3 hands at the busiest table: a short tournament
TURN_SECONDS = 5
BOT_PAUSE = (0.05, 0.15)
NEXT_HAND_PAUSE = 0.1
FINISH_WITHIN = 180.0  # seconds: a bound for a loaded machine, not a pace


# Every write to a table row (version, deadline, time, which process), as in
# test_two_processes; and, at every commit that touched a Seat or an Entrant of a tournament,
# whatever does not match between the tournament's Seats and its seated entrants.
AUDIT = row_audit("tournament_audit", [
    ("table_id", "bigint", "NEW.id"), ("version", "bigint", "NEW.version"),
    ("deadline_kind", "varchar(10)", "NEW.deadline_kind"),
    ("next_deadline", "timestamptz", "NEW.next_deadline"),
    ("at", "timestamptz", "clock_timestamp()"),
    ("process", "text", "current_setting('application_name')"), ("status", "text", "NEW.status"),
]) + """

CREATE TABLE IF NOT EXISTS tournament_seat_audit (
    tournament_id bigint, problem text, at timestamptz
);
CREATE OR REPLACE FUNCTION tournament_seat_check() RETURNS trigger AS $$
DECLARE
    tid bigint;
BEGIN
    IF TG_TABLE_NAME = 'tables_seat' THEN
        SELECT tournament_id INTO tid FROM tables_table
        WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.table_id ELSE NEW.table_id END);
    ELSIF TG_OP = 'DELETE' THEN
        tid := OLD.tournament_id;
    ELSE
        tid := NEW.tournament_id;
    END IF;
    IF tid IS NULL THEN
        RETURN NULL;
    END IF;
    WITH seats AS (
        SELECT s.table_id, s.position, s.name FROM tables_seat s
        JOIN tables_table t ON t.id = s.table_id WHERE t.tournament_id = tid
    ), seated AS (
        SELECT e.table_id, e.position, e.name FROM tables_entrant e
        WHERE e.tournament_id = tid AND e.table_id IS NOT NULL
    ), problems AS (
        (SELECT 'a seat with no entrant: ' || table_id || '/' || position || ' ' || name
         FROM (SELECT * FROM seats EXCEPT ALL SELECT * FROM seated) AS extra)
        UNION ALL
        (SELECT 'an entrant with no seat: ' || table_id || '/' || position || ' ' || name
         FROM (SELECT * FROM seated EXCEPT ALL SELECT * FROM seats) AS lost)
        UNION ALL
        (SELECT 'seated twice: ' || name FROM seats GROUP BY name HAVING count(*) > 1)
    )
    INSERT INTO tournament_seat_audit SELECT tid, problems.*, clock_timestamp() FROM problems;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS tournament_seat_check ON tables_seat;
CREATE CONSTRAINT TRIGGER tournament_seat_check AFTER INSERT OR UPDATE OR DELETE ON tables_seat
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tournament_seat_check();
DROP TRIGGER IF EXISTS tournament_seat_check ON tables_entrant;
CREATE CONSTRAINT TRIGGER tournament_seat_check
    AFTER INSERT OR UPDATE OR DELETE ON tables_entrant
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tournament_seat_check();
"""

# Made in a manage.py shell against the scratch database: started, then held (its tables
# paused, as a moderator would) until both servers are up.
CREATE = f"""
from tables.models import Table
from tables.write import tournament_setup as setup
made = setup.create(
    entrants_wanted={ENTRANTS}, computer_fill=True, level_hands={LEVEL_HANDS},
    turn_seconds={TURN_SECONDS}, computer_level="medium",
)
setup.start(made.id)
Table.objects.filter(tournament=made).update(paused=True)
print("tournament", made.id)
"""


@dataclass
class Write:
    """One write to a table's row, as the audit trigger saw it (its values after the write)."""

    version: int
    kind: str
    deadline: datetime | None
    status: str
    at: datetime
    process: str


@dataclass
class Cluster:
    database: str
    servers: list[Server]
    tournament_id: int


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    database = scratch_database("tournament")
    env = cluster_env(
        database, os.environ["REDIS_URL"], bot_pause=BOT_PAUSE, next_hand_pause=NEXT_HAND_PAUSE
    )
    manage(env, "migrate", "--noinput", "-v", "0")  # no flush: the checks are per tournament
    sql(database, AUDIT)
    out = manage(env, "shell", "-c", CREATE)
    tournament_id = int(out.split("tournament", 1)[1].split()[0])
    servers = [
        Server({**env, "PGAPPNAME": f"server-{n}"}, log=tmp_path / f"daphne-{n}.log",
               inherit=False)
        for n in (1, 2)
    ]
    try:
        for server in servers:
            server.start(wait=False)
        for server in servers:
            server.wait_listening(30)
        yield Cluster(database, servers, tournament_id)
    finally:
        for server in servers:
            server.kill()


def test_two_processes_play_a_20_entrant_tournament_to_its_end(cluster: Cluster) -> None:
    database, tournament_id = cluster.database, cluster.tournament_id
    table_ids = [row[0] for row in sql(
        database, "SELECT id FROM tables_table WHERE tournament_id = %s ORDER BY id",
        (tournament_id,),
    )]
    assert len(table_ids) == 4  # T1: 20 players at four tables of five
    start_versions = dict(sql(
        database, "SELECT id, version FROM tables_table WHERE id = ANY(%s)", (table_ids,)
    ))
    # Release the clocks (with a fresh deadline at every table: both servers are up by now).
    released = sql(database, "SELECT clock_timestamp()")[0][0]
    sql(
        database,
        "UPDATE tables_table SET paused = false, next_deadline = now() + interval '0.3 second' "
        "WHERE tournament_id = %s", (tournament_id,),
    )
    started = time.monotonic()
    while True:
        status = sql(
            database, "SELECT status FROM tables_tournament WHERE id = %s", (tournament_id,)
        )[0][0]
        if status == "finished":
            break
        for server in cluster.servers:
            assert server.running.poll() is None, f"a server exited:\n{server.text()[-3000:]}"
        elapsed = time.monotonic() - started
        assert elapsed < FINISH_WITHIN, f"not finished after {elapsed:.0f} s"
        time.sleep(0.25)
    took = time.monotonic() - started

    # Clean shutdown: SIGTERM, exit status 0, a clock ran in each, nothing logged as an error.
    for server in cluster.servers:
        server.running.send_signal(signal.SIGTERM)
    for server in cluster.servers:
        assert server.running.wait(15) == 0, server.text()[-3000:]
    for server in cluster.servers:
        log = server.text()
        assert "clock running" in log, log[-2000:]
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]

    # -- places ---------------------------------------------------------------------------
    entrants = {
        name: (place, table_id, position)
        for name, place, table_id, position in sql(
            database,
            "SELECT name, place, table_id, position FROM tables_entrant "
            "WHERE tournament_id = %s", (tournament_id,),
        )
    }
    assert len(entrants) == ENTRANTS
    # T6: everyone has one place, 1 to 20; players out in the same hand with the same chips
    # share one (T5, as R31: then the next place is skipped, as 12, 12, 14).
    places = sorted(place for place, _t, _p in entrants.values())
    assert places[0] == 1 and places.count(1) == 1
    assert all(place == places.index(place) + 1 for place in places), places
    winner = next(name for name, (place, _t, _p) in entrants.items() if place == 1)
    _place, final_table, final_position = entrants[winner]
    assert final_table is not None
    assert all(t is None for name, (_p, t, _q) in entrants.items() if name != winner)
    seats = sql(
        database,
        "SELECT s.table_id, s.position, s.name FROM tables_seat s "
        "JOIN tables_table t ON t.id = s.table_id WHERE t.tournament_id = %s", (tournament_id,),
    )
    assert seats == [(final_table, final_position, winner)]  # one seat left: the winner's
    problems = sql(
        database, "SELECT problem FROM tournament_seat_audit WHERE tournament_id = %s",
        (tournament_id,),
    )
    assert not problems, problems[:10]  # at every commit, seats and seated entrants matched

    # -- every table at the end: over, its chips as expected, all of them at the final one --
    for table_id, status, kind, state in sql(
        database, "SELECT id, status, deadline_kind, state FROM tables_table WHERE id = ANY(%s)",
        (table_ids,),
    ):
        game = Game.from_dict(state)
        assert (status, kind) == ("finished", ""), table_id
        assert game.total_chips() == game.chips_expected(), table_id
        total = ENTRANTS * STARTING_STACK if table_id == final_table else 0
        assert game.total_chips() == total, table_id
        if table_id == final_table:
            assert {p: s.stack for p, s in game.seats.items()} == {final_position: total}

    # -- every hand: replayed, chips kept, each player's chips carried to their next hand --
    hands = sql(
        database,
        "SELECT h.table_id, h.number, h.started_at, h.ended_at, h.record, h.players, "
        "h.final_stacks, h.cancelled FROM tables_hand h WHERE h.table_id = ANY(%s) "
        "ORDER BY h.started_at, h.id", (table_ids,),
    )
    # name -> (chips after their last hand, when it ended, its table, chips they started it with)
    last: dict[str, tuple[int, datetime, int, int]] = {}
    actions: Counter[int] = Counter()
    moves = 0
    for table_id, number, started_at, ended_at, record, players, final, cancelled in hands:
        where = f"table {table_id} hand {number}"
        assert ended_at is not None and final is not None and not cancelled, where
        final_stacks = {int(seat): chips for seat, chips in final.items()}
        stacks = {p["seat"]: p["stack"] for p in players}
        hand = replay(record)
        assert hand.finished, where
        assert dict(zip(hand.settings.seats, hand.settings.stacks, strict=True)) == stacks
        assert hand.final_stacks == final_stacks, where
        assert sum(final_stacks.values()) == sum(stacks.values()), where
        actions[table_id] += len(record["actions"])
        for player in players:
            name = player["name"]
            chips, ended_before, was_at, _s = last.get(
                name, (STARTING_STACK, started_at, table_id, STARTING_STACK)
            )
            assert player["stack"] == chips, f"{name} came to {where} with other chips"
            assert ended_before <= started_at, f"{name} was dealt in at {where} mid-hand"
            moves += was_at != table_id
            last[name] = (final_stacks[player["seat"]], ended_at, table_id, chips)
    assert set(last) == set(entrants)
    assert {name: chips for name, (chips, *_rest) in last.items() if chips} == {
        winner: ENTRANTS * STARTING_STACK
    }
    # T5: out in an earlier hand, a lower place; out in the same hand (the same moment), the
    # fewer chips at its start, the lower the place; the same chips, the same place.
    out = [(ended, started_with, entrants[name][0])
           for name, (_c, ended, _t, started_with) in last.items() if name != winner]
    for (ended_a, start_a, place_a), (ended_b, start_b, place_b) in itertools.permutations(
        out, 2
    ):
        if (ended_a, start_a) < (ended_b, start_b):
            assert place_a > place_b, (place_a, place_b)
        elif (ended_a, start_a) == (ended_b, start_b):
            assert place_a == place_b, (place_a, place_b)
    assert moves > 0  # players moved between tables (balancing, breaking)

    # -- each write one version; each computer move made once, at or after its deadline ----
    audit: dict[int, list[Write]] = {}
    for table_id, *columns in sql(
        database,
        "SELECT table_id, version, deadline_kind, next_deadline, status, at, process "
        "FROM tournament_audit WHERE table_id = ANY(%s) AND at >= %s ORDER BY at",
        (table_ids, released),
    ):
        audit.setdefault(table_id, []).append(Write(*columns))
    by_process: Counter[str] = Counter()
    bot_moves: Counter[int] = Counter()
    for table_id in table_ids:
        writes = audit[table_id]
        first = start_versions[table_id]
        assert writes[0].version == first  # the release, at the version the table had
        versions = [w.version for w in writes[1:]]
        assert versions == list(range(first + 1, first + 1 + len(versions))), table_id
        for before, write in itertools.pairwise(writes):
            change = (table_id, write.version, before.kind)
            by_process[write.process] += 1
            # Only a playing table changes: a computer's move at its own deadline, or between
            # hands (its next-hand deadline, or any table's pass moving its players: then it
            # may have no deadline of its own, one player left waiting to move).
            assert before.status == "playing", change
            assert before.kind in {"bot", "next_hand", ""}, change
            if before.kind == "bot":  # only the clock makes a computer's move, at its deadline
                assert before.deadline is not None and write.at >= before.deadline, change
                bot_moves[table_id] += 1
    assert bot_moves == actions  # one version per move: none lost, none made twice
    # Whichever process holds a table makes its moves; the other clock leaves them to it.
    assert by_process and set(by_process) <= {"server-1", "server-2"}, by_process
    print(
        f"\n{ENTRANTS} entrants over two processes: finished in {took:.1f} s, {len(hands)} hands,"
        f" {sum(actions.values())} actions, {moves} moves between tables, changes by process "
        f"{dict(by_process)}"
    )
