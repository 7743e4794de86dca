"""Helpers of the tests of frames: a snapshot made by hand, a frame drawn from it for some seats,
a snapshot's fields to compare, and the group messages a run of changes announces."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from engine.game import Game, GameSettings
from tables import cache
from tables.cache import SeatInfo, Snapshot
from tables.live.frames import FrameOptions, render_frame
from tables.live.perspective import PassState, perspective
from tables.models import Table
from tables.write import announce as announcing
from tables.write import play
from tests.tables.helpers import Frame, pass_and_play


def fields(snapshot: cache.Snapshot) -> dict[str, object]:
    values = {f.name: getattr(snapshot, f.name) for f in dataclasses.fields(snapshot)}
    game = values.pop("game")
    values.pop("memo")
    values["state"] = game.to_dict() if game is not None else None
    return values


NAMES = ["Asha", "Bikash", "Chandra", "Computer 1"]


PERSONS = (0, 1, 2)


def snapshot_of(game: Game, version: int = 1, **fields: object) -> Snapshot:
    seats = {
        s: SeatInfo(s, name, s not in PERSONS, "medium", False, f"hash{s}" if s in PERSONS else "")
        for s, name in enumerate(NAMES)
    }
    values: dict[str, object] = {
        "id": 1, "code": "K7Q4MX", "mode": "friends", "status": "playing", "version": version,
        "seat_count": 4, "max_hands": None, "blind_every": 10, "computer_level": "medium",
        "turn_seconds": 30, "host_position": 0,
        "next_deadline": timezone.now() + timedelta(seconds=20), "deadline_kind": "turn",
        "paused": False, "closed_reason": "", "next_code": None, "seats": seats, "game": game,
    }
    values.update(fields)
    return Snapshot(**values)  # type: ignore[arg-type]


def draw(snapshot: Snapshot, mine: list[int], language: str = "en") -> Frame:
    persp = perspective(snapshot, mine, PassState())
    return Frame(render_frame(snapshot, persp, FrameOptions(join_url="/t/K7Q4MX/",
                                                            language=language)))


def next_change(table: Table, hashes: list[str], rng: random.Random) -> None:
    """The next change at a pass-and-play table: the clock fires (a computer's turn, the next
    hand), or the person to act does something legal at random, bets and raises included."""
    from tables import clock

    table.refresh_from_db()
    snapshot = cache.load_snapshot(table.id)
    assert snapshot is not None and snapshot.game is not None
    hand = snapshot.game.hand
    legal = hand.legal_actions() if hand is not None and not hand.finished else None
    if legal is None or snapshot.seats[legal.seat].is_computer:
        assert clock.fire(table.id, table.version, now=table.next_deadline)
        return
    choices = ["fold", "check" if legal.can_check else "call"]
    if legal.bet_or_raise is not None:
        choices += [legal.bet_or_raise.value] * 2
    kind = rng.choice(choices)
    amount = None
    if kind in ("bet", "raise"):
        assert legal.min_to is not None and legal.max_to is not None
        amount = rng.choice([legal.min_to, legal.max_to, (legal.min_to + legal.max_to) // 2])
    play.act(
        table.id, hashes, kind=kind, amount=amount, version=table.version,
        action_id=play.random_action_id(), revealed=legal.seat,
    )


async def announced(changes: int = 20) -> list[dict[str, Any]]:
    """The group messages of ``changes`` changes at a table, through this run's channel layer."""
    table, hashes = await database_sync_to_async(pass_and_play)(["Asha", "Bikash"], 2)
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(announcing.group_name(table.id), channel)
    rng = random.Random(5)
    messages = []
    for _ in range(changes):
        await announcing.write_then_notify(next_change, table, hashes, rng)
        messages.append(await asyncio.wait_for(layer.receive(channel), 5))
    return messages


def played(hands: int, seed: int) -> list[Snapshot]:
    """Every version of a four-seat table over a few hands (bets, raises, folds, all ins)."""
    rng = random.Random(seed)
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=rng)
    out: list[Snapshot] = []
    for _ in range(hands):
        if game.finished:
            break
        hand = game.start_hand(seed=rng.getrandbits(32))
        out.append(snapshot_of(Game.from_dict(game.to_dict()), len(out) + 1))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            r = rng.random()
            if legal.bet_or_raise is not None and legal.min_to is not None and r < 0.25:
                game.act(legal.seat, legal.bet_or_raise, legal.min_to)
            elif not legal.can_check and r < 0.45:
                game.act(legal.seat, "fold")
            elif legal.bet_or_raise is not None and r < 0.5:
                game.act(legal.seat, "all_in")
            else:
                game.act(legal.seat, "check" if legal.can_check else "call")
            out.append(snapshot_of(Game.from_dict(game.to_dict()), len(out) + 1))
    return out


def same(text: str) -> str:
    """A frame without what differs from one drawing to the next (the ids of the action
    forms, the seconds left on the clock)."""
    text = re.sub(r"[0-9a-f]{32}", "ID", text)
    text = re.sub(r"(data-countdown-secs>)\d+", r"\1S", text)
    return re.sub(r'(data-remaining="|"remaining":)[\d.]+', r"\1R", text)
