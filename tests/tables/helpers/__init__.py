"""Helpers of the tables tests: sessions that hold seats (``new_session``, ``phone_of``),
phones (websocket clients), frames and the cards they may show, tables made and played.

Beside it: ``driver`` (people and computers playing a table over websockets), ``frames``
(snapshots and frames drawn by hand, announcements), ``pages`` (tables played through the
pages, what a player saw), ``tournaments`` (a tournament of computers through the clock),
``windows`` (the hands a moved seat's phone may see), ``latin`` (the Latin words a page in
Nepali shows, and the allow-list)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from engine.cards import RANK_NAMES, SUIT_NAMES, Card
from engine.game import Game
from engine.history import replay
from tables import cache, claims
from tables.cache import versions
from tables.live.kept import whole
from tables.models import Hand, Table
from tables.write import lobby

ORIGIN = b"http://testserver"


def new_session() -> SessionStore:
    """A new phone: its session, saved (a cookie jar holding no seat yet)."""
    session = SessionStore()
    session.create()
    return session


NewPhone = Callable[[], SessionStore]  # the ``new_phone`` fixture: a new phone each call


def phone_of(session: SessionStore | str | None) -> Client:
    """A test client on the phone whose session (or session key) is ``session``."""
    key = session if isinstance(session, str) or session is None else session.session_key
    assert key
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


@dataclass
class Frame:
    text: str
    sent: int = 0  # bytes as the server sent it (kept parts: fewer than the text's)

    @property
    def maybe_version(self) -> int | None:
        """The table version this frame draws (None for a frame that only carries a notice)."""
        match = re.search(r'id="table-frame"[^>]*data-version="(\d+)"', self.text)
        return int(match.group(1)) if match else None

    @property
    def version(self) -> int:
        version = self.maybe_version
        assert version is not None, "a notice, not a view"
        return version

    @property
    def screen(self) -> str | None:
        match = re.search(r'data-screen="([a-z]+)"', self.text)
        return match.group(1) if match else None

    @property
    def data(self) -> dict[str, Any]:
        match = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', self.text, re.S)
        return json.loads(match.group(1)) if match else {}

    @property
    def notice_code(self) -> str | None:
        match = re.search(r'id="table-notice"[^>]*data-code="([a-z_]+)"', self.text)
        return match.group(1) if match else None

    @property
    def is_notice_only(self) -> bool:
        return "table-frame" not in self.text


class Phone:
    """A websocket client at a table, keeping every frame it received."""

    def __init__(
        self, code: str, session_key: str | None, origin: bytes | None = ORIGIN,
        language: str | None = None, query: str = "", parts: bool = True,
    ) -> None:
        from config.asgi import application

        headers = [(b"host", b"testserver")]
        if language:
            headers.append((b"accept-language", language.encode()))
        if origin is not None:
            headers.append((b"origin", origin))
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        # As live.js, the phone keeps its frames' parts (tables.live.kept) and makes each
        # frame whole before anything reads it.
        if parts:
            query = f"{query}&parts=1" if query else "?parts=1"
        self.comm = WebsocketCommunicator(
            application, f"/ws/t/{code}/{query}", headers=headers
        )
        self.frames: list[Frame] = []
        self.kept: dict[str, str] = {}

    async def connect(self) -> Frame:
        await self.open()
        return await self.next()

    async def open(self) -> None:
        """Connect without waiting for a first frame."""
        connected, _ = await self.comm.connect(timeout=10)
        assert connected

    async def next(self, timeout: float = 10) -> Frame:
        text = await self.comm.receive_from(timeout)
        made = whole(text, self.kept)
        assert made is not None, f"a marker for a part this phone does not hold: {text[:300]}"
        frame = Frame(made, len(text.encode()))
        self.frames.append(frame)
        return frame

    async def until_version(self, version: int, timeout: float = 10) -> Frame:
        while True:
            frame = await self.next(timeout)
            if frame.maybe_version is not None and frame.version >= version:
                return frame

    async def until_notice(self, code: str, timeout: float = 10) -> Frame:
        """The next message carrying the notice ``code`` (frames before it are kept too)."""
        while True:
            frame = await self.next(timeout)
            if frame.notice_code == code:
                return frame

    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.comm.send_to(text_data=text)

    async def quiet(self) -> bool:
        """Whether nothing was sent to this phone that it has not read yet: it asks the server
        "are you there?" (ping) and the answer comes next. (A state, where waiting a while
        and seeing nothing proves little on a busy machine.)"""
        await self.send({"type": "ping"})
        frame = await self.next()
        return frame.text == "pong"

    async def close(self) -> None:
        await self.comm.disconnect()


_RANK_OF_NAME = {name: rank for rank, name in RANK_NAMES.items()}
_SUIT_OF_NAME = {name: suit for suit, name in SUIT_NAMES.items()}
_SUIT_OF_SYMBOL = dict(zip("♠♥♦♣", "shdc", strict=True))
_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][shdc])(?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
_NAME = re.compile(
    r"\b(" + "|".join(RANK_NAMES.values()) + r") of (" + "|".join(SUIT_NAMES.values()) + r")\b",
    re.I,
)


def cards_in(text: str) -> set[Card]:
    """Every card a frame spells, in any form: its code (data-card="As"), its symbol (A♠, 10♥)
    or its spoken name (ace of spades)."""
    found = {Card("23456789TJQKA".index(c[0]) + 2, c[1]) for c in _CODE.findall(text)}
    for rank, symbol in _SYMBOL.findall(text):
        value = 10 if rank == "10" else "23456789TJQKA".index(rank) + 2
        found.add(Card(value, _SUIT_OF_SYMBOL[symbol]))
    for rank, suit in _NAME.findall(text):
        found.add(Card(_RANK_OF_NAME[rank.lower()], _SUIT_OF_NAME[suit.lower()]))
    return found


def allowed_cards(state: dict[str, Any] | None, viewer: int | None) -> set[Card]:
    """The cards ``viewer`` may see at this state: own hole cards, board, shown hands."""
    if not state or not state.get("hand"):
        return set()
    hand = replay(state["hand"])
    allowed = set(hand.board)
    if viewer is not None and viewer in hand.seats:
        allowed |= set(hand.hole[hand.seats.index(viewer)])
    for i in hand.shown_seats():
        allowed |= set(hand.hole[hand.seats.index(i)])
    return allowed


def leaked_cards(text: str, allowed: set[Card]) -> list[str]:
    return sorted(str(card) for card in cards_in(text) - allowed)


def pass_and_play(names: list[str], seat_count: int) -> tuple[Table, list[str]]:
    """A started pass-and-play table (every person on one phone, computers in the seats left):
    the table as saved, and that phone's seat claims."""
    session = new_session()
    table = lobby.create_table(
        session, names, lobby.TableSettings(seat_count=seat_count), mode=Table.Mode.LOCAL
    )
    hashes = claims.session_hashes(session)
    lobby.start_game(table.id, hashes)
    table.refresh_from_db()
    return table, hashes


def hold_only(*snapshots: cache.Snapshot | None) -> None:
    """This process forgets every version of every table it holds but these: as if the newer
    ones had been written, and never drawn here, by another process."""
    versions._snapshots.clear()
    versions._versions_kept.clear()
    for snapshot in snapshots:
        assert snapshot is not None
        versions._keep(snapshot)


def game_of(table: Table) -> Game:
    assert table.state is not None
    return Game.from_dict(table.state)


def assert_chips_conserved() -> None:
    for table in Table.objects.exclude(state=None):
        game = game_of(table)
        assert game.total_chips() == game.chips_expected(), table
    for hand in Hand.objects.exclude(final_stacks=None):
        start = sum(p["stack"] for p in hand.players)
        assert hand.final_stacks is not None
        assert sum(hand.final_stacks.values()) == start, hand


async def save_session(session: SessionStore) -> None:
    await sync_to_async(session.save)()


def create_form(mode: str = "friends", **fields: Any) -> dict[str, Any]:
    data = {
        "mode": mode, "name": "Asha", "seats": "6", "length": "chips", "blind_every": "10",
        "level": "medium", "turn_seconds": "30",
    }
    data.update(fields)
    return data


def client_lobby(*names: str, seats: int = 4, **fields: str) -> tuple[Table, list[Client]]:
    """A lobby made through the pages, each name on its own phone (a Django test client with
    its own session); the first one created the table."""
    host = Client()
    response = host.post(
        reverse("tables:create"), create_form(name=names[0], seats=str(seats), **fields)
    )
    assert response.status_code == 302
    table = Table.objects.get(code=response["Location"].strip("/").split("/")[-1])
    clients = [host]
    for name in names[1:]:
        phone = Client()
        phone.post(reverse("tables:join", args=[table.code]), {"name": name})
        clients.append(phone)
    return table, clients


def play_out(table_id: int, max_steps: int = 20_000) -> Table:
    """Play a started table to its end through the clock: every person times out (checks or
    folds), computer players decide. Sync; returns the finished table."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import clock

    for _ in range(max_steps):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        fired = clock.tick(timezone.now() + timedelta(minutes=5))
        assert fired == 1
    raise AssertionError("the game did not end")


def first_person_turn(table_id: int) -> tuple[int, int]:
    """Let computer players act until a person is to act; returns (version, seat)."""
    from datetime import timedelta

    from django.utils import timezone

    from tables import clock

    for _ in range(200):
        table = Table.objects.get(pk=table_id)
        if table.deadline_kind == Table.Deadline.TURN:
            game = game_of(table)
            assert game.hand is not None and game.hand.seat_to_act is not None
            return table.version, game.hand.seat_to_act
        clock.tick(timezone.now() + timedelta(seconds=10))
    raise AssertionError("no person's turn came")


def my_cards(frame: Frame) -> list[str]:
    mine = frame.text.split('id="my-cards"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'data-card="(\w\w)"', mine)


def computer_turn() -> Table:
    """A table of one person and three computer players at a computer player's turn (its
    person timed out by the clock), its newest version held in this process (loaded to draw
    it, as a connection does)."""
    from datetime import timedelta

    from tables import clock

    table = lobby.create_table(
        new_session(), ["Asha"], lobby.TableSettings(seat_count=4), Table.Mode.COMPUTER
    )
    for _ in range(10):
        row = Table.objects.get(pk=table.id)
        if row.deadline_kind == Table.Deadline.BOT:
            break
        assert row.next_deadline is not None
        clock.tick(row.next_deadline + timedelta(seconds=1))  # the person times out
    assert row.deadline_kind == Table.Deadline.BOT and row.next_deadline is not None
    held = cache.load_snapshot(row.id)
    assert held is not None and held.version == row.version
    return row
