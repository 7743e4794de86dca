"""The load generator: many websocket players on loopback, playing real hands, measured.

Every player is one websocket. Each frame it receives carries the table's version and whose
turn it is (the ``#table-data`` JSON of the tables app's frames; the relay reference sends the
same JSON). When a frame says it is this player's turn, the player waits a think time and then
acts (check or call mostly, sometimes a fold or a minimum bet or raise). What is measured:

- actions per second (actions sent in the window that the whole table then saw);
- for each action, the time from sending it to the moment EVERY player at the table has
  received a frame with a version at least one above the version the action was made on:
  p50/p95/p99/max;
- deliveries per second: frames received by all sockets, per second of the window.

The lively mode thinks ``think`` seconds (a range) before each action; the saturation mode
(``think=(0, 0)``) acts at once, so the server is the only brake. Only loopback addresses are
accepted; at most 3,000 players (``manage.py loadtest_tables`` makes at most 500 tables of six a
call) and 10 minutes per run. One process drives every socket: at a human pace it spends about
5% of a core per 1,000 players (unit_costs' "load generator" CPU seconds), so 2,000 players
leave the servers their cores.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import websockets

MAX_PLAYERS = 3000
MAX_SECONDS = 600.0
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
DATA_MARK = '<script id="table-data"'
NOTICE_MARK = 'id="table-notice"'
CHAT_MARK = 'id="chat-log"'


@dataclass(frozen=True)
class PlayerSpec:
    url: str  # ws://127.0.0.1:PORT/ws/t/CODE/ (or the relay's URL)
    table: str  # players with the same key sit at the same table
    session: str | None = None  # the sessionid cookie holding the seat claim


@dataclass(frozen=True)
class LoadConfig:
    players: list[PlayerSpec]
    think: tuple[float, float] = (0.35, 0.6)  # seconds; (0, 0) = saturation
    warmup: float = 5.0
    duration: float = 60.0
    grace: float = 3.0  # after the window, how long actions sent in it may take to arrive
    connect_batch: int = 50
    seed: int = 1
    # Called when the window opens and closes, in a thread: the players' frames keep being
    # read while it samples the servers (a frozen loop would add its time to the latency of
    # the actions in flight).
    on_window: Callable[[], None] | None = None
    compression: bool = False  # offer permessage-deflate, as every browser does
    # Table talk (issue 17): one chat line per table every this many seconds, said by each
    # player in turn (0: none). Chat frames are counted apart; they carry no table version.
    chat_every: float = 0.0


@dataclass
class Result:
    players: int
    tables: int
    connected: int
    window: float
    actions: int  # sent in the window and seen by the whole table
    deliveries: int  # frames received in the window (all sockets)
    frame_bytes: float  # mean frame size
    latencies: list[float]  # seconds, action -> every player at the table has the new view
    refusals: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0  # actions sent in the window that not every player saw in time
    finished_tables: int = 0  # games that ended during the run (nobody acts there any more)
    disconnects: int = 0
    cpu_seconds: float = 0.0  # this process, during the window
    chat_sent: int = 0  # chat lines sent in the window
    chat_frames: int = 0  # chat frames received in the window (all sockets)
    machine_cpu: float = float("nan")  # the whole machine, during the window (set by callers)
    # How late this process's event loop woke a 10 ms timer in the window, seconds: the load
    # generator's own share of every latency (it reads every socket in one process).
    loop_late: list[float] = field(default_factory=list)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.window if self.window else 0.0

    @property
    def deliveries_per_s(self) -> float:
        return self.deliveries / self.window if self.window else 0.0

    def percentile(self, q: float) -> float:
        """Nearest-rank percentile in milliseconds (nan without data). Actions not seen by
        the whole table in time count as infinitely slow."""
        if not self.latencies and not self.unfinished:
            return float("nan")
        ordered = sorted(self.latencies) + [float("inf")] * self.unfinished
        rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
        return ordered[rank] * 1000


@dataclass
class Pending:
    target: int  # the version every member must reach
    sent: float
    waiting: set[int]
    counted: bool  # sent inside the window


class Table:
    def __init__(self, key: str) -> None:
        self.key = key
        self.members: list[Player] = []
        self.pending: list[Pending] = []
        self.finished = False

    def on_frame(self, player: Player, now: float) -> None:
        """``player`` now shows ``player.version``: settle the actions it completes."""
        if not self.pending:
            return
        run = player.run
        done = []
        for pending in self.pending:
            if player.version >= pending.target and player.index in pending.waiting:
                pending.waiting.discard(player.index)
                if not pending.waiting:
                    done.append(pending)
        for pending in done:
            self.pending.remove(pending)
            if pending.counted:
                run.latencies.append(now - pending.sent)
                run.actions += 1


class Run:
    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.tables: dict[str, Table] = {}
        self.players: list[Player] = []
        for index, spec in enumerate(config.players):
            table = self.tables.setdefault(spec.table, Table(spec.table))
            player = Player(self, index, spec, table)
            table.members.append(player)
            self.players.append(player)
        self.window_start = float("inf")
        self.window_end = float("inf")
        self.latencies: list[float] = []
        self.deliveries = 0
        self.delivered_bytes = 0
        self.actions = 0
        self.refusals: Counter[str] = Counter()
        self.disconnects = 0
        self.playing = False
        self.chat_sent = 0
        self.chat_frames = 0
        self.loop_late: list[float] = []

    def in_window(self, moment: float) -> bool:
        return self.window_start <= moment < self.window_end

    def think(self) -> float:
        low, high = self.config.think
        return self.rng.uniform(low, high) if high > 0 else 0.0


class Player:
    def __init__(self, run: Run, index: int, spec: PlayerSpec, table: Table) -> None:
        self.run = run
        self.index = index
        self.spec = spec
        self.table = table
        self.version = -1
        self.acted_on = -1  # the version this player last acted on
        self.ws: Any = None
        self.connected = asyncio.Event()
        self.latest: dict[str, Any] = {}

    async def play(self) -> None:
        parsed = urlparse(self.spec.url)
        headers = []
        if self.spec.session:
            headers.append(("Cookie", f"sessionid={self.spec.session}"))
        origin = f"http://{parsed.hostname}:{parsed.port}"
        try:
            async with websockets.connect(
                self.spec.url, additional_headers=headers, origin=origin,  # type: ignore[arg-type]
                compression="deflate" if self.run.config.compression else None,
                max_size=2**22, ping_interval=None, open_timeout=60,
                close_timeout=2,
            ) as ws:
                self.ws = ws
                self.connected.set()
                async for message in ws:
                    self.on_message(message if isinstance(message, str) else message.decode())
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
            self.run.disconnects += 1
        finally:
            self.connected.set()

    def on_message(self, text: str) -> None:
        now = time.perf_counter()
        run = self.run
        at = text.find(DATA_MARK)
        if at < 0:
            if CHAT_MARK in text and run.in_window(now):
                run.chat_frames += 1
            if NOTICE_MARK in text:
                start = text.find('data-code="') + 11
                run.refusals[text[start : text.find('"', start)]] += 1
            return
        if run.in_window(now):
            run.deliveries += 1
            run.delivered_bytes += len(text)
        if NOTICE_MARK in text:
            start = text.find('data-code="', text.find(NOTICE_MARK)) + 11
            run.refusals[text[start : text.find('"', start)]] += 1
        body = text[text.find(">", at) + 1 : text.find("</script>", at)]
        data = json.loads(body)
        version = int(data["version"])
        if version > self.version:
            self.version = version
        self.latest = data
        self.table.on_frame(self, now)
        if data.get("screen") == "over":
            self.table.finished = True
        if run.playing:
            self.maybe_act()

    def maybe_act(self) -> None:
        """Act on the newest frame if it is this player's turn and not acted on yet."""
        data = self.latest
        if (
            data.get("screen") == "play"
            and data.get("to_act") is not None
            and data.get("to_act") == data.get("you")
            and data.get("legal")
            and int(data["version"]) == self.version
            and self.version > self.acted_on
        ):
            self.acted_on = self.version
            asyncio.get_running_loop().create_task(self.act(self.version, data["legal"]))

    async def act(self, version: int, legal: dict[str, Any]) -> None:
        pause = self.run.think()
        if pause:
            await asyncio.sleep(pause)
        if not self.run.playing or self.version != version or self.ws is None:
            return
        message = {"type": "action", "version": version, "action_id": secrets.token_hex(8)}
        message.update(choose(legal, self.run.rng))
        now = time.perf_counter()
        members = self.table.members
        self.table.pending.append(
            Pending(version + 1, now, {m.index for m in members}, self.run.in_window(now))
        )
        try:
            await self.ws.send(json.dumps(message))
        except websockets.exceptions.WebSocketException:
            return


async def chatter(run: Run, table: Table, every: float) -> None:
    """One chat line at ``table`` every ``every`` seconds, each player in turn (so that no
    phone meets its own rate limit: a burst of 5, then one every 2 s)."""
    turn = 0
    await asyncio.sleep(run.rng.uniform(0, every))  # the tables do not all talk at once
    while run.playing:
        members = [m for m in table.members if m.ws is not None]
        if members:
            speaker = members[turn % len(members)]
            turn += 1
            with contextlib.suppress(websockets.exceptions.WebSocketException):
                await speaker.ws.send(json.dumps({"type": "chat", "text": f"gg {turn} <b>!</b>"}))
                if run.in_window(time.perf_counter()):
                    run.chat_sent += 1
        await asyncio.sleep(every)


async def watch_loop(run: Run, every: float = 0.01) -> None:
    """How late the event loop wakes a timer, in the window: if it is busy (or starved of a
    core), a frame waits there before it is read, and the action's latency grows with it."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(every)
        now = time.perf_counter()
        if run.in_window(now):
            run.loop_late.append(now - before - every)


def late_ms(late: list[float], q: float) -> float:
    """Nearest-rank percentile of the loop's lateness, milliseconds (0 without samples)."""
    if not late:
        return 0.0
    ordered = sorted(late)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))] * 1000


def choose(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A lively but mostly passive player: hands reach showdown, games rarely end early."""
    roll = rng.random()
    raise_kind = legal.get("bet_or_raise")
    if legal.get("check"):
        if raise_kind and legal.get("min_to") and roll < 0.1:
            return {"kind": raise_kind, "amount": legal["min_to"]}
        return {"kind": "check"}
    if roll < 0.12:
        return {"kind": "fold"}
    if raise_kind and legal.get("min_to") and roll < 0.17:
        return {"kind": raise_kind, "amount": legal["min_to"]}
    return {"kind": "call"}


def check_config(config: LoadConfig) -> None:
    if not 1 <= len(config.players) <= MAX_PLAYERS:
        raise ValueError(f"between 1 and {MAX_PLAYERS} players")
    if not 0 < config.warmup + config.duration + config.grace <= MAX_SECONDS:
        raise ValueError(f"a run lasts at most {MAX_SECONDS:.0f} s")
    for spec in config.players:
        parsed = urlparse(spec.url)
        if parsed.scheme != "ws" or parsed.hostname not in LOOPBACK:
            raise ValueError(f"loopback ws:// addresses only, not {spec.url!r}")


def raise_file_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files to its hard limit (processes started
    afterwards, the servers, inherit it); the soft limit now. Raises ``SystemExit`` if even the
    hard limit is under ``wanted``: a socket over the limit is refused by ``accept`` on the
    server or by ``connect`` here, which would be counted as a disconnect, not explained."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(soft, wanted) if hard == resource.RLIM_INFINITY else hard
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft < wanted:
        raise SystemExit(
            f"{wanted} open files are needed and the hard limit is {hard}: raise it "
            "(ulimit -Hn, or LimitNOFILE for a service) and run again"
        )
    return soft


async def run_load(config: LoadConfig, log: Any = None) -> Result:
    """Connect every player, play ``warmup`` then ``duration`` seconds, and measure the window."""
    check_config(config)
    raise_file_limit(len(config.players) + 256)
    run = Run(config)
    say = log or (lambda text: None)
    tasks: list[asyncio.Task[None]] = []
    started = time.perf_counter()
    for first in range(0, len(run.players), config.connect_batch):
        batch = run.players[first : first + config.connect_batch]
        for player in batch:
            tasks.append(asyncio.create_task(player.play()))
        await asyncio.gather(*(p.connected.wait() for p in batch))
    connected = sum(1 for p in run.players if p.ws is not None)
    say(f"  {connected}/{len(run.players)} connected in {time.perf_counter() - started:.1f} s")
    run.playing = True
    # Whoever is to act already got their frame before play began: nudge them now.
    for player in run.players:
        player.maybe_act()
    if config.chat_every > 0:
        for table in run.tables.values():
            tasks.append(asyncio.create_task(chatter(run, table, config.chat_every)))
    tasks.append(asyncio.create_task(watch_loop(run)))
    await asyncio.sleep(config.warmup)
    if config.on_window:
        await asyncio.to_thread(config.on_window)
    cpu_before = _cpu()
    run.window_start = time.perf_counter()
    run.window_end = run.window_start + config.duration
    await asyncio.sleep(config.duration)
    cpu_after = _cpu()
    if config.on_window:
        await asyncio.to_thread(config.on_window)
    await asyncio.sleep(config.grace)
    run.playing = False
    say(f"  the load generator's loop woke a 10 ms timer late by p50/p99/max "
        f"{late_ms(run.loop_late, 50):.1f}/{late_ms(run.loop_late, 99):.1f}/"
        f"{late_ms(run.loop_late, 100):.1f} ms in the window (part of every latency)")
    unfinished = sum(1 for t in run.tables.values() for p in t.pending if p.counted)
    for player in run.players:
        if player.ws is not None:
            with contextlib.suppress(TimeoutError, websockets.exceptions.WebSocketException):
                await asyncio.wait_for(player.ws.close(), 2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return Result(
        players=len(run.players),
        tables=len(run.tables),
        connected=connected,
        window=config.duration,
        actions=run.actions,
        deliveries=run.deliveries,
        frame_bytes=run.delivered_bytes / run.deliveries if run.deliveries else 0.0,
        latencies=run.latencies,
        refusals=run.refusals,
        unfinished=unfinished,
        finished_tables=sum(1 for t in run.tables.values() if t.finished),
        disconnects=run.disconnects,
        cpu_seconds=cpu_after - cpu_before,
        chat_sent=run.chat_sent,
        chat_frames=run.chat_frames,
        loop_late=run.loop_late,
    )


def _cpu() -> float:
    times = os.times()
    return times.user + times.system
