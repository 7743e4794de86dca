"""Two server processes, one table: PostgreSQL and Redis shared, both clocks running.

Two daphne processes on loopback ports serve the same database (a scratch database next to
DATABASE_URL's, created if missing and migrated here) and the same Redis pub/sub layer. One
table (made by ``manage.py loadtest_tables``) has five seats: person A plays through server 1,
person B through server 2, person C never connects (their turns are stored time-out deadlines,
then away deadlines), and two computer players (bot deadlines); each server also has a
spectator. The table is held (paused) until every phone is connected. Every deadline (computer
moves, time-outs, away moves, next deals) is fired by one of the two clocks, which race for
every one of them (they look every 0.05 s).

A trigger in the scratch database records every write to the table row (version, deadline,
time), which is how the test sees each change exactly.

Checked: every socket sees every change promptly (whichever process made it), versions go up
by exactly one per change and never backwards, each deadline fires exactly once (every change
not made by a websocket action was made by the clock at or after the deadline the previous
version stored, never before, as a second firing of the same deadline would be; the hand log
holds exactly one action per such change and per websocket action), chips are conserved, and
both processes shut down cleanly on SIGTERM (exit status 0, nothing logged as an error).

The test runs twice: with the one Redis server of ``REDIS_URL``, and with two (a second
``redis-server`` of the test's own on a free port, ``REDIS_URL`` naming both separated by a
comma) and a table whose group channels-redis places on the second server, which must then
have carried at least one message per change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from engine.blinds import STARTING_STACK
from engine.game import Game
from tests.helpers.servers import (
    RedisServer,
    Server,
    cluster_env,
    manage,
    publishes,
    row_audit,
    scratch_database,
    second_redis,
    sql,
)

pytestmark = pytest.mark.services

BOT_PAUSE = (0.2, 0.3)
AWAY_PAUSE = 0.2
NEXT_HAND_PAUSE = 0.25
TURN_SECONDS = 2
PROMPT = 2.0  # seconds: a due deadline fires, and a change reaches every phone, within this
HANDS = 5  # play until this many hands are over (or PLAY_SECONDS have passed)
PLAY_SECONDS = 25.0
ABSENT = 2  # the person who never connects


# ---------------------------------------------------------------------------------- helpers
# ---------------------------------------------------------------------------------- phones
@dataclass
class Seen:
    at: float
    version: int
    data: dict[str, Any]


@dataclass
class Phone:
    name: str
    url: str
    session: str | None
    seen: list[Seen] = field(default_factory=list)
    notices: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    acting: bool = False
    acted_on: int = -1
    ws: Any = None
    pending: asyncio.Task[None] | None = None

    @property
    def version(self) -> int:
        return self.seen[-1].version if self.seen else -1

    async def run(self, rng: random.Random) -> None:
        import websockets

        headers = [("Cookie", f"sessionid={self.session}")] if self.session else []
        origin = "http://" + urlparse(self.url).netloc
        async with websockets.connect(
            self.url, additional_headers=headers, origin=origin,  # type: ignore[arg-type]
            ping_interval=None, max_size=2**22,
        ) as ws:
            self.ws = ws
            with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                async for text in ws:
                    self.on_message(str(text), rng)

    def on_message(self, text: str, rng: random.Random) -> None:
        now = time.time()  # wall clock: compared with the database's change times
        if 'id="table-notice"' in text:
            start = text.find('data-code="', text.find('id="table-notice"')) + 11
            self.notices[text[start : text.find('"', start)]] += 1
        at = text.find('<script id="table-data"')
        if at < 0:
            return
        data = json.loads(text[text.find(">", at) + 1 : text.find("</script>", at)])
        version = int(data["version"])
        assert version >= self.version, f"{self.name} went back from {self.version} to {version}"
        self.seen.append(Seen(now, version, data))
        self.maybe_act(rng)

    def maybe_act(self, rng: random.Random) -> None:
        data = self.seen[-1].data
        legal = data.get("legal")
        if (
            self.acting and data.get("screen") == "play" and legal
            and data.get("to_act") == data.get("you") and self.version > self.acted_on
        ):
            self.acted_on = self.version
            self.pending = asyncio.create_task(self.act(self.version, legal, rng))

    async def act(self, version: int, legal: dict[str, Any], rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0.02, 0.12))
        if self.acting and self.version == version:
            message = {"type": "action", "version": version, "action_id": secrets.token_hex(8)}
            message.update(_choose(legal, rng))
            self.sent += 1
            await self.ws.send(json.dumps(message))


def _choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    if legal.get("check"):
        if legal.get("bet_or_raise") and legal.get("min_to") and roll < 0.15:
            return {"kind": legal["bet_or_raise"], "amount": legal["min_to"]}
        return {"kind": "check"}
    if roll < 0.15:
        return {"kind": "fold"}
    return {"kind": "call"}


# ---------------------------------------------------------------------------------- fixture
AUDIT = row_audit("twoproc_audit", [
    ("table_id", "bigint", "NEW.id"), ("version", "bigint", "NEW.version"),
    ("deadline_kind", "varchar(10)", "NEW.deadline_kind"),
    ("next_deadline", "timestamptz", "NEW.next_deadline"), ("paused", "boolean", "NEW.paused"),
    ("at", "timestamptz", "clock_timestamp()"),
    ("last_action", "text", "NEW.recent_actions->>-1"),
])


@dataclass
class Cluster:
    database: str
    servers: list[Server]
    table: dict[str, Any]
    second_redis: RedisServer | None = None  # the two-Redis case: the table's group lives here


def _group_server(table_id: int, servers: int) -> int:
    """Which of ``servers`` Redis servers channels-redis puts this table's group on."""
    from channels_redis.utils import _consistent_hash

    prefix = os.environ.get("REDIS_PREFIX") or "asgi"
    return int(_consistent_hash(f"{prefix}__group__table.{table_id}", servers))


def _make_table(env: dict[str, str], database: str, out: Path, on_server: int | None) -> Any:
    """A started table with three persons and two computers, held (paused, as a moderator
    would) until every phone is connected. ``on_server``: tables are made until one's group
    is on that Redis server (the others stay held)."""
    for _attempt in range(8):
        manage(
            env, "loadtest_tables", "--tables", "4", "--persons", "3", "--seats", "5",
            "--turn-seconds", str(TURN_SECONDS), "--level", "easy", "--output", str(out),
        )
        made = json.loads(out.read_text())["tables"]
        sql(database, "UPDATE tables_table SET paused = true WHERE id = ANY(%s)",
             ([t["id"] for t in made],))
        for table in made:
            if on_server is None or _group_server(table["id"], 2) == on_server:
                return table
    raise AssertionError("no table's group landed on the second Redis server")


@pytest.fixture(params=["one Redis", "two Redis"])
def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    database = scratch_database("twoproc")
    with contextlib.ExitStack() as stack:
        extra = None
        redis_url = os.environ["REDIS_URL"]
        if request.param == "two Redis":
            extra = stack.enter_context(second_redis(tmp_path))
            redis_url = f"{redis_url},{extra.url}"
        env = cluster_env(database, redis_url, BOT_PAUSE, AWAY_PAUSE, NEXT_HAND_PAUSE)
        manage(env, "migrate", "--noinput", "-v", "0")  # no flush: the checks are per table
        sql(database, AUDIT)
        table = _make_table(env, database, tmp_path / "table.json", 1 if extra else None)
        servers = [
            Server(env, log=tmp_path / f"daphne-{n}.log", inherit=False) for n in (1, 2)
        ]
        try:
            for server in servers:
                server.start(wait=False)
            for server in servers:
                server.wait_listening(30)
            yield Cluster(database, servers, table, extra)
        finally:
            for server in servers:
                server.kill()


# ---------------------------------------------------------------------------------- the test
async def test_two_processes_share_one_table_and_fire_each_deadline_once(cluster: Cluster) -> None:
    table, (one, two) = cluster.table, cluster.servers
    table_id = table["id"]
    sessions = {p["position"]: p["session"] for p in table["players"]}
    computers = {
        row[0] for row in sql(
            cluster.database,
            "SELECT position FROM tables_seat WHERE table_id = %s AND is_computer", (table_id,),
        )
    }
    assert computers == {3, 4} and set(sessions) == {0, 1, ABSENT}

    def url(server: Server) -> str:
        return f"ws://127.0.0.1:{server.port}/ws/t/{table['code']}/"

    phones = [
        Phone("A@1", url(one), sessions[0]),
        Phone("B@2", url(two), sessions[1]),
        Phone("watch@1", url(one), None),
        Phone("watch@2", url(two), None),
    ]
    rng = random.Random(20260605)
    tasks = [asyncio.create_task(p.run(rng)) for p in phones]
    connected = time.monotonic() + 15
    while not all(p.seen for p in phones):
        assert time.monotonic() < connected, "the phones did not all get a first frame"
        await asyncio.sleep(0.05)
    assert all(phone.seen[0].version == table["version"] for phone in phones)
    published_before = publishes(cluster.second_redis) if cluster.second_redis else 0
    # Release the clocks (with a fresh deadline) and the people.
    sql(
        cluster.database,
        "UPDATE tables_table SET paused = false, next_deadline = now() + interval '0.5 second' "
        "WHERE id = %s", (table_id,),
    )
    for phone in phones[:2]:
        phone.acting = True
        phone.maybe_act(rng)

    def table_row() -> tuple[int, dict[str, Any], str]:
        rows = sql(
            cluster.database,
            "SELECT version, state, status FROM tables_table WHERE id = %s", (table_id,),
        )
        return rows[0][0], rows[0][1], rows[0][2]

    started = time.monotonic()
    while time.monotonic() - started < PLAY_SECONDS:
        await asyncio.sleep(0.25)
        for task in tasks:
            if task.done():
                task.result()  # a phone failed: show why
        _, state, status = table_row()
        if status != "playing" or state["hand_number"] > HANDS:
            break
    # Stop: the people stop acting, then the clocks are held (paused, as a moderator would) so
    # nothing more changes, and every phone must catch up with the final version.
    for phone in phones:
        phone.acting = False
    await asyncio.sleep(0.3)
    sql(cluster.database, "UPDATE tables_table SET paused = true WHERE id = %s", (table_id,))
    final, state, _status = table_row()
    caught_up = time.monotonic() + 60  # a bound for a loaded machine, not a pace
    while time.monotonic() < caught_up and any(p.version < final for p in phones):
        await asyncio.sleep(0.05)

    # Clean shutdown: the phones leave, then SIGTERM; both processes exit with status 0.
    # (Phones leave first: channels_redis logs a harmless error for a consumer it has to
    # cancel mid-subscription at shutdown.)
    for phone in phones:
        await phone.ws.close()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    await asyncio.sleep(0.3)
    for server in cluster.servers:
        server.running.send_signal(signal.SIGTERM)
    for server in cluster.servers:
        assert server.running.wait(15) == 0, server.text()[-3000:]
    logs = [server.text() for server in cluster.servers]

    # Both processes ran their clock, and neither logged an error.
    for log in logs:
        assert "clock running" in log, log[-2000:]
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]

    # -- every socket saw every change, whichever process made it --------------------------
    start_version = table["version"]
    hands = sql(
        cluster.database,
        "SELECT number, record, players, final_stacks FROM tables_hand WHERE table_id = %s "
        "ORDER BY number", (table_id,),
    )
    assert len(hands) >= 3, f"only {len(hands)} hands in {PLAY_SECONDS} s"
    for phone in phones:
        assert phone.version == final, f"{phone.name} stopped at {phone.version} of {final}"
        assert not phone.notices, f"{phone.name} was refused: {dict(phone.notices)}"
        shown_hands = {s.data["hand_number"] for s in phone.seen}
        assert shown_hands >= {number for number, *_ in hands}, phone.name
    # The database's record of every change: version -> (time, deadline kind, deadline).
    audit: dict[int, tuple[float, str, float | None]] = {}
    changed_at: dict[int, float] = {}
    last_action: dict[int, str | None] = {}  # the newest action id the table remembered
    for version, kind, deadline, at, action_id in sql(
        cluster.database,
        "SELECT version, deadline_kind, next_deadline, at, last_action FROM twoproc_audit "
        "WHERE table_id = %s AND version >= %s ORDER BY at", (table_id, start_version),
    ):
        # The last write at a version holds the deadline that was pending when it changed.
        audit[version] = (at.timestamp(), kind, deadline.timestamp() if deadline else None)
        changed_at.setdefault(version, at.timestamp())
        last_action.setdefault(version, action_id)
    assert sorted(audit) == list(range(start_version, final + 1)), "a version was skipped"
    for phone in phones:
        for version in range(start_version + 1, final + 1):
            reached = next(s.at for s in phone.seen if s.version >= version)
            late = reached - changed_at[version]
            assert late < PROMPT, f"{phone.name} saw version {version} {late:.2f} s late"

    # -- one version per change; each deadline fired once ----------------------------------
    # A hand's row gets its actions when it ends; the running hand's are in the table state.
    records = {number: record for number, record, *_ in hands}
    if state["hand"] is not None:
        records[state["hand_number"]] = state["hand"]
    actions = [a for record in records.values() for a in record["actions"]]
    by_seat = Counter(a["seat"] for a in actions)
    # Exactly one change per version: every action and every later deal bumped it once.
    assert final - start_version == len(actions) + len(hands) - 1
    # The people's actions are exactly the ones they sent over the websockets: never a
    # time-out (a deadline fired twice would time out whoever is next, at once).
    assert by_seat[0] == phones[0].sent > 0
    assert by_seat[1] == phones[1].sent > 0
    # The absent person only ever checked or folded by the clock, once per turn.
    assert by_seat[ABSENT] > 0
    assert all(a["kind"] in {"check", "fold"} for a in actions if a["seat"] == ABSENT)
    assert by_seat[3] + by_seat[4] > 0
    # Every change not made by a websocket action was made by a clock, at or after the
    # deadline the previous version stored (never before: a deadline fired a second time would
    # act on the next version's deadline early), and promptly.
    # A person's action is the one change that adds an action id to the table's list (a turn's
    # time-out adds one too, "timed-out-…", so that a tap racing it is told it came too late).
    by_people = {
        version for version in range(start_version + 1, final + 1)
        if last_action[version] != last_action[version - 1]
        and not (last_action[version] or "").startswith("timed-out-")
    }
    assert len(by_people) == phones[0].sent + phones[1].sent
    fired: Counter[str] = Counter()
    for version in range(start_version + 1, final + 1):
        if version in by_people:
            continue
        _, kind, deadline = audit[version - 1]
        assert kind and deadline is not None, f"version {version}: a change with no deadline"
        late = changed_at[version] - deadline
        what = f"the {kind} deadline of version {version - 1}"
        assert late >= -0.001, f"{what} fired {-late:.3f} s early"
        assert late < PROMPT, f"{what} fired {late:.2f} s late"
        fired[kind] += 1
    assert fired["bot"] == by_seat[3] + by_seat[4]
    # P1: the absent person's first two turns run out of time, then they are away.
    assert fired["turn"] == min(2, by_seat[ABSENT])
    assert fired["away"] == by_seat[ABSENT] - fired["turn"]
    assert fired["next_hand"] == len(hands) - 1

    # -- two Redis servers: the table's messages went through the one its group hashes to --
    if cluster.second_redis is not None:
        published = publishes(cluster.second_redis) - published_before
        assert published >= final - start_version, (published, final - start_version)

    # -- chips ----------------------------------------------------------------------------
    for number, _record, players, final_stacks in hands:
        if final_stacks is not None:
            assert sum(final_stacks.values()) == sum(p["stack"] for p in players), number
    assert Game.from_dict(state).total_chips() == 5 * STARTING_STACK
