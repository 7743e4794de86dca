"""The soak's clients: websocket players through nginx (wss://), and a prober asking for pages.

A player holds one seat (its ``sessionid`` cookie) and behaves as a phone does: it acts when a
view says it is its turn (after a short think), reconnects when its socket closes (after a
pause that grows while the server stays away), and, back after a drop with a tap no answer came
for, either asks what became of it (``sync`` with the action id) or sends it again (the same id
and version: a retry must never count twice). Each action is followed by a ``ping`` on the same
socket: the server handles a socket's messages in order, so the ``pong`` comes only after the
action was dealt with, and no refusal before it means the action counted. Everything received is
written to the record (``benchmarks.chaos.record``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import ssl
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

from benchmarks.chaos.record import Recorder
from benchmarks.load.loadgen import choose
from tables.live.kept import whole

DATA_MARK = '<script id="table-data"'
_NOTICE = re.compile(r'id="table-notice"[^>]*data-code="([a-z_]+)"')
_CARD = re.compile(r'data-card="([2-9TJQKA][cdhs])"')
_EVENTS = re.compile(r'id="last-line"[^>]*data-announce-id="[A-Z0-9]+-(\d+)-(\d+)"')
# An opponent's seat (components/seat.html): its classes (``seat--away``: played for, P1) and
# its number; the viewer's own seat is away when the frame offers "I'm back" instead.
_SEAT = re.compile(r'<div class="seat( [^"]*)?"\s+data-seat="(\d+)"')
_COME_BACK = 'data-testid="come-back"'
# The viewer's own place (table/_me.html): away there too, also at their own turn, when the
# action bar is drawn instead of "I'm back".
_ME = re.compile(r'<div class="me( [^"]*)?" id="me"[^>]*data-seat="(\d+)"')
# What a notice says became of the action just sent, or asked about after a drop.
APPLIED = {"already_counted", "pending_applied"}
SAVING_SLOWLY = "saving_slowly"  # the database is away: try again in a moment


def away_seats(text: str, you: int | None) -> list[int] | None:
    """The seats a frame shows as away (None: a frame with no seats drawn, which says nothing)."""
    seats = _SEAT.findall(text)
    if not seats:
        return None
    away = {int(number) for classes, number in seats if "seat--away" in classes.split()}
    if you is not None and _COME_BACK in text:
        away.add(int(you))
    away |= {int(n) for classes, n in _ME.findall(text) if "seat--away" in classes.split()}
    return sorted(away)


@dataclass
class Action:
    id: str
    version: int
    hand: int
    kind: str
    amount: int | None
    seat: int


@dataclass
class Player:
    recorder: Recorder
    name: str
    table: int
    code: str
    seat: int
    session: str
    url: str
    origin: str
    context: ssl.SSLContext
    rng: random.Random
    think: tuple[float, float] = (0.2, 1.2)
    ws: Any = None
    version: int = -1
    data: dict[str, Any] = field(default_factory=dict)
    acted_on: int = -1
    counter: int = 0
    awaiting: Action | None = None  # sent on this socket, no answer yet
    unknown: Action | None = None  # sent, the socket closed before its answer
    drop_after_action: bool = False
    connections: int = 0
    stopping: bool = False

    def record(self, kind: str, /, **fields: Any) -> None:
        self.recorder.add(kind, table=self.table, player=self.name, seat=self.seat, **fields)

    async def run(self) -> None:
        failures = 0
        while not self.stopping:
            try:
                async with websockets.connect(
                    self.url, ssl=self.context, origin=self.origin,  # type: ignore[arg-type]
                    additional_headers=[("Cookie", f"sessionid={self.session}")],
                    ping_interval=None, max_size=2**22, open_timeout=10, close_timeout=2,
                ) as ws:
                    self.ws = ws
                    self.connections += 1
                    failures = 0
                    self.record("conn", state="open")
                    await self.after_reconnect()
                    kept: dict[str, str] = {}  # this socket's parts (tables.live.kept)
                    async for message in ws:
                        text = whole(str(message), kept)
                        if text is None:  # a marker for a part never sent on this socket
                            self.record("unmade", text=str(message)[:200])
                            break
                        await self.on_message(text)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                failures += 1
            finally:
                if self.ws is not None:
                    self.record("conn", state="closed")
                self.ws = None
                if self.awaiting is not None:
                    self.unknown, self.awaiting = self.awaiting, None
            if not self.stopping:
                # A phone tries again soon, then less often while the server stays away.
                pause = min(3.0, 0.3 * 2 ** min(failures, 4))
                await asyncio.sleep(pause * self.rng.uniform(0.7, 1.3))

    async def after_reconnect(self) -> None:
        action, self.unknown = self.unknown, None
        if action is None or self.ws is None:
            return
        if self.rng.random() < 0.5:
            # Sent again, the very same tap: counted at most once.
            await self.send_action(action, resend=True)
        else:
            self.awaiting = action
            self.record("sent", version=action.version, hand=action.hand, id=action.id,
                        kind="sync", amount=None, resend=True)
            await self.ws.send(json.dumps({
                "type": "sync", "action_id": action.id, "version": action.version,
                "seat": action.seat,
            }))

    async def on_message(self, text: str) -> None:
        if text == "pong":
            if self.awaiting is not None:
                self.record("fate", id=self.awaiting.id, fate="applied", code="")
                self.awaiting = None
            self.maybe_act()
            return
        notice = _NOTICE.search(text)
        code = notice.group(1) if notice else ""
        at = text.find(DATA_MARK)
        if at >= 0:
            data = json.loads(text[text.find(">", at) + 1 : text.find("</script>", at)])
            events = _EVENTS.search(text)
            version = int(data["version"])
            self.record(
                "frame", version=version, hand=int(data.get("hand_number") or 0),
                events=int(events.group(2)) if events else None, screen=data.get("screen"),
                to_act=data.get("to_act"), you=data.get("you"),
                cards=sorted(set(_CARD.findall(text))), hand_over=bool(data.get("hand_over")),
                notice=code, away=away_seats(text, data.get("you")),
            )
            if version >= self.version:
                self.version, self.data = version, data
        elif code:
            self.record("notice", code=code)
        if code and self.awaiting is not None:
            fate = "applied" if code in APPLIED else "refused"
            self.record("fate", id=self.awaiting.id, fate=fate, code=code)
            if code == SAVING_SLOWLY:
                # "try again in a moment": the same tap again, as a person would
                asyncio.get_running_loop().create_task(self.retry(self.awaiting))
            self.awaiting = None
        self.maybe_act()

    async def retry(self, action: Action) -> None:
        await asyncio.sleep(self.rng.uniform(1.0, 2.5))
        if not self.stopping and self.awaiting is None and self.version == action.version:
            await self.send_action(action, resend=True)

    def maybe_act(self) -> None:
        data = self.data
        if (
            self.awaiting is None
            and self.ws is not None
            and data.get("screen") == "play"
            and data.get("legal")
            and data.get("to_act") is not None
            and data.get("to_act") == data.get("you")
            and int(data["version"]) == self.version
            and self.version > self.acted_on
        ):
            self.acted_on = self.version
            asyncio.get_running_loop().create_task(self.act(self.version, data))

    async def act(self, version: int, data: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.stopping or self.version != version or self.ws is None or self.awaiting:
            return
        self.counter += 1
        choice = choose(data["legal"], self.rng)
        action = Action(f"{self.name}-{self.counter}", version, int(data["hand_number"]),
                        choice["kind"], choice.get("amount"), int(data["you"]))
        await self.send_action(action, resend=False)

    async def send_action(self, action: Action, *, resend: bool) -> None:
        ws = self.ws
        if ws is None:
            self.unknown = action
            return
        self.awaiting = action
        self.record("sent", version=action.version, hand=action.hand, id=action.id,
                    kind=action.kind, amount=action.amount, resend=resend)
        message: dict[str, Any] = {"type": "action", "kind": action.kind,
                                   "version": action.version, "action_id": action.id}
        if action.amount is not None:
            message["amount"] = action.amount
        try:
            await ws.send(json.dumps(message))
            if self.drop_after_action:
                self.drop_after_action = False
                self.drop()
                return
            await ws.send(json.dumps({"type": "ping"}))
        except websockets.exceptions.WebSocketException:
            pass

    def drop(self, after_action: bool = False) -> None:
        """The phone loses its connection: now, or just after its next action is sent."""
        if after_action:
            self.drop_after_action = True
            return
        ws = self.ws
        if ws is not None and ws.transport is not None:
            self.record("conn", state="drop")
            ws.transport.abort()

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)


class Prober:
    """Asks nginx for pages once a second (the home page, a table's page, /healthz) and
    records each status, and whether an error was the app's own friendly page."""

    def __init__(self, recorder: Recorder, base: str, context: ssl.SSLContext,
                 paths: list[str]) -> None:
        self.recorder = recorder
        self.base = base
        self.context = context
        self.paths = paths
        self.stopping = False

    def get(self, path: str) -> tuple[int, bool]:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(
                self.base + path, context=self.context, timeout=10
            ) as got:
                got.read()
                status, friendly = got.status, False
        except urllib.error.HTTPError as error:
            body = error.read().decode("utf-8", "replace")
            status, friendly = error.code, "data-error-page" in body
        except (OSError, TimeoutError):
            status, friendly = 0, False  # no answer at all
        self.recorder.add("http", t=self.recorder.at(started), path=path, status=status,
                          friendly=friendly, took=round(time.monotonic() - started, 3))
        return status, friendly

    async def run(self) -> None:
        turn = 0
        while not self.stopping:
            path = self.paths[turn % len(self.paths)]
            turn += 1
            await asyncio.gather(asyncio.to_thread(self.get, "/healthz"),
                                 asyncio.to_thread(self.get, path))
            await asyncio.sleep(1.0)
