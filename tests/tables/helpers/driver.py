"""Plays whole games over real websockets, checking every frame every phone receives.

Everything runs in one sequence (one action or one clock tick per step, then every phone
receives the new version), so the table's state at each version is known exactly and each
frame is checked against it: no card of another player before it is shown, never the deck or a
burnt card, and (pass and play) never two seats' hidden cards in one frame.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from engine.history import replay
from tables import claims, clock
from tables.models import Table
from tables.write import lobby, play
from tests.tables.helpers import Frame, Phone, allowed_cards, leaked_cards, new_session


@dataclass
class Person:
    session: Any
    phone: Phone
    seats: list[int] = field(default_factory=list)
    sleepy: float = 0.0  # chance of letting the clock run out instead of acting


@dataclass
class Stats:
    hands: int = 0
    frames: int = 0
    actions: int = 0
    timeouts: int = 0
    handoffs: int = 0


def _table_row(table_id: int) -> tuple[int, str, dict[str, Any] | None, str]:
    row = Table.objects.values_list("version", "status", "state", "deadline_kind").get(pk=table_id)
    return row[0], row[1], row[2], row[3]


class Driver:
    def __init__(
        self, table: Table, persons: list[Person], watchers: list[Phone], seed: int,
        calm: bool = False,
    ) -> None:
        self.calm = calm  # never push all in (keeps short tests from ending in one hand)
        self.table = table
        self.persons = persons
        self.watchers = watchers
        self.rng = random.Random(seed)
        self.states: dict[int, dict[str, Any] | None] = {}
        self.stats = Stats()
        self.allowed: dict[tuple[int, int | None], set[Any]] = {}
        self.version = table.version

    @property
    def phones(self) -> list[Phone]:
        return [p.phone for p in self.persons] + self.watchers

    async def connect(self) -> None:
        await self._record()
        for phone in self.phones:
            frame = await phone.connect()
            self.check(phone, frame)

    async def _record(self) -> tuple[int, str, dict[str, Any] | None, str]:
        version, status, state, kind = await database_sync_to_async(_table_row)(self.table.id)
        self.states[version] = state
        self.version = version
        return version, status, state, kind

    def owner(self, phone: Phone) -> Person | None:
        return next((p for p in self.persons if p.phone is phone), None)

    def check(self, phone: Phone, frame: Frame) -> None:
        self.stats.frames += 1
        if frame.maybe_version is None:
            return
        state = self.states[frame.version]
        person = self.owner(phone)
        seat = frame.data.get("you")
        if person is None:
            assert seat is None, "a watcher got a seat's view"
        else:
            assert seat is None or seat in person.seats, "a phone got another phone's seat"
        if frame.data.get("handoff") is not None:
            assert seat is None, "a hand-off frame carries a seat's cards"
        key = (frame.version, seat)
        if key not in self.allowed:
            self.allowed[key] = allowed_cards(state, seat)
        allowed = self.allowed[key]
        leaks = leaked_cards(frame.text, allowed)
        assert not leaks, f"cards {leaks} leaked to seat {seat} at version {frame.version}"

    async def wait_all(self, version: int) -> list[Frame]:
        """Every phone receives frames until it shows ``version``; returns their last frames."""
        last = []
        for phone in self.phones:
            while True:
                frame = await phone.next()
                self.check(phone, frame)
                if frame.maybe_version is not None and frame.version >= version:
                    last.append(frame)
                    break
        return last

    async def step(self) -> bool:
        """One action or one clock tick; False when the game is over."""
        version, status, state, kind = await self._record()
        if status != Table.Status.PLAYING:
            return False
        assert state is not None
        hand = replay(state["hand"]) if state.get("hand") else None
        to_act = hand.seat_to_act if hand is not None and not hand.finished else None
        person = next((p for p in self.persons if to_act in p.seats), None)
        if person is None or kind != Table.Deadline.TURN or self.rng.random() < person.sleepy:
            if hand is not None and hand.finished:
                self.stats.hands += 1
            later = timezone.now() + timedelta(seconds=120)
            fired = await database_sync_to_async(clock.tick)(later)
            assert fired == 1, f"the clock fired {fired} deadlines ({kind})"
            if kind == Table.Deadline.TURN:
                self.stats.timeouts += 1
        else:
            await self.act(person, to_act)
        new_version = await self._await_change(version)
        assert new_version == version + 1
        await self.wait_all(new_version)
        return True

    async def _await_change(self, version: int) -> int:
        bound = time.monotonic() + 60  # a bound for a loaded machine, not a pace
        while time.monotonic() < bound:
            new_version, *_rest = await self._record()
            if new_version != version:
                return new_version
            await asyncio.sleep(0.005)
        notices = [f.text for p in self.phones for f in p.frames[-2:] if f.is_notice_only]
        raise AssertionError(f"the table did not change: {notices}")

    async def act(self, person: Person, seat: int | None) -> None:
        phone = person.phone
        frame = phone.frames[-1]
        if len(person.seats) > 1:
            assert frame.data.get("handoff") == seat, "no hand-off before another seat's turn"
            self.stats.handoffs += 1
            await phone.send({"type": "reveal", "seat": seat})
            frame = await phone.next()
            self.check(phone, frame)
        legal = frame.data["legal"]
        assert legal is not None and legal["seat"] == seat
        message = self.choose(legal)
        message.update(type="action", version=frame.version, action_id=play.random_action_id())
        await phone.send(message)
        self.stats.actions += 1

    def choose(self, legal: dict[str, Any]) -> dict[str, Any]:
        roll = self.rng.random()
        if legal["bet_or_raise"] and roll < 0.15:
            amount = legal["max_to"] if roll < 0.04 and not self.calm else legal["min_to"]
            return {"kind": legal["bet_or_raise"], "amount": amount}
        if roll < 0.25 and not legal["check"]:
            return {"kind": "fold"}
        return {"kind": "check"} if legal["check"] else {"kind": "call"}

    async def until_a_person_acts(self) -> tuple[Person, Frame]:
        """Step the table until a person is to act: that person and their phone's last frame."""
        for _ in range(100):
            for person in self.persons:
                frame = person.phone.frames[-1]
                if frame.data.get("legal"):
                    return person, frame
            await self.step()
        raise AssertionError("no person's turn")

    async def play(self, max_steps: int = 100_000) -> Stats:
        for _ in range(max_steps):
            if not await self.step():
                return self.stats
        raise AssertionError("the game did not end")

    async def close(self) -> None:
        for phone in self.phones:
            await phone.close()


def seat_people_now(
    names: list[list[str]], table_settings: lobby.TableSettings, mode: str = Table.Mode.FRIENDS
) -> tuple[Table, list[Any]]:
    """A table whose host session holds ``names[0]`` (several names: pass and play) and where
    each further list is one more phone joining; started, empty seats to the computer."""
    host = new_session()
    table = lobby.create_table(host, names[0], table_settings, mode)
    sessions = [host]
    for group in names[1:]:
        session = new_session()
        for name in group:
            lobby.join_table(table.id, name, session, another=True)
        sessions.append(session)
    for session in sessions:
        session.save()
    if table.status == Table.Status.WAITING:
        lobby.start_game(table.id, claims.session_hashes(host))
    table.refresh_from_db()
    return table, sessions


seat_people = database_sync_to_async(seat_people_now)


async def build(
    names: list[list[str]], table_settings: lobby.TableSettings, *, watchers: int = 0,
    seed: int = 1, sleepy: float = 0.0, mode: str = Table.Mode.FRIENDS, calm: bool = False,
) -> Driver:
    table, sessions = await seat_people(names, table_settings, mode)
    persons = []
    for session in sessions:
        seats = await database_sync_to_async(
            lambda s=session: sorted(
                table.seats.filter(claim_hash__in=claims.session_hashes(s)).values_list(
                    "position", flat=True
                )
            )
        )()
        persons.append(Person(session, Phone(table.code, session.session_key), seats, sleepy))
    watching = []
    for _ in range(watchers):
        session = await database_sync_to_async(new_session)()
        watching.append(Phone(table.code, session.session_key))
    driver = Driver(table, persons, watching, seed, calm)
    await driver.connect()
    return driver
