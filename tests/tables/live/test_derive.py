"""A version written by another server process is worked out from the version before, held
here, and what the group message says of the change (its public actions and the row's new
values), instead of being loaded: exactly the version a load would build, or nothing.

With a table's phones on several processes, every process draws every version; before this,
each one it did not write cost a query and a rebuild (see benchmarks/load)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer

from tables import cache, claims
from tables.live import consumer
from tables.models import Table
from tables.write import announce as announcing
from tables.write import lobby, path
from tests.tables.helpers import Frame, Phone, cards_in, hold_only, new_session, pass_and_play
from tests.tables.helpers.frames import announced, fields, next_change

pytestmark = pytest.mark.django_db(transaction=True)


def written(change: Any, *args: Any) -> list[tuple[int, int, announcing.Step | None]]:
    """Make a change and return the group messages it would send: (table, version, step)."""
    notes: list[tuple[int, int, announcing.Step | None]] = []
    token = announcing._deferred.set(notes)
    try:
        change(*args)
    finally:
        announcing._deferred.reset(token)
    return notes


def test_a_change_of_play_from_another_process_is_worked_out_as_a_load_builds_it() -> None:
    rng = random.Random(7)
    derived = plain = 0
    hands: set[tuple[int, int]] = set()
    table, hashes = pass_and_play(["Asha", "Bikash", "Chandra", "Dev"], 6)
    for _ in range(200):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:  # someone won every chip: another game
            table, hashes = pass_and_play(["Asha", "Bikash", "Chandra", "Dev"], 6)
        before = cache.load_snapshot(table.id, check_cache=False)
        assert before is not None and before.version == table.version
        notes = written(next_change, table, hashes, rng)
        assert len(notes) == 1
        _, version, step = notes[0]
        assert version == table.version + 1
        # The message is JSON (a channel layer sends msgpack: the same types) and names no card.
        assert json.loads(json.dumps(step)) == step
        truth = cache.load_snapshot(table.id, check_cache=False)
        assert truth is not None and truth.game is not None and truth.version == version
        if step is None:
            # A hand dealt or ended (written under the lock with the hand's row), a seat
            # changed: the other processes load it.
            plain += 1
            continue
        assert cards_in(json.dumps(step)) == set(), step
        hold_only(before)  # this process as the other one: it holds the version before only
        told = announcing.changed_message(version, step)["step"]  # as the message carries it
        made = cache.derive(table.id, table.code, table.created_at, version, told)
        assert made is not None, step
        assert fields(made) == fields(truth)
        assert made.row == truth.row and made.seat_rows == truth.seat_rows
        assert cache.cached_snapshot(table.id, table.code, table.created_at, version) is made
        derived += 1
        hands.add((table.id, truth.game.hand_number))
    # Most changes are actions in a running hand; every hand dealt and ended is loaded.
    assert derived >= 100 and plain >= 20 and len(hands) >= 10, (derived, plain, hands)


def at_a_told_change() -> tuple[Table, cache.Snapshot, int, announcing.Step]:
    """A table whose last change (an action) this process forgot, holding the version before:
    the table, that version, the new version's number and the step told of it."""
    table, hashes = pass_and_play(["Asha", "Bikash", "Chandra"], 3)
    rng = random.Random(3)
    for _ in range(40):
        table.refresh_from_db()
        before = cache.load_snapshot(table.id, check_cache=False)
        assert before is not None
        [(_, version, step)] = written(next_change, table, hashes, rng)
        if step is not None:
            hold_only(before)
            return table, before, version, step
    raise AssertionError("no change of play in 40 changes")


@pytest.mark.parametrize("spoil", [
    "nothing held", "from another version", "an action out of turn", "no actions",
    "an unknown column", "another table's code", "the state itself", "another version",
    "not a step", "text that is not JSON",
])
def test_a_step_that_does_not_follow_from_the_version_held_is_not_used(spoil: str) -> None:
    table, before, version, step = at_a_told_change()
    step = json.loads(json.dumps(step))
    told: Any = step
    if spoil == "nothing held":
        hold_only()
    elif spoil == "from another version":
        step["from"] = version - 2
    elif spoil == "an action out of turn":
        assert before.game is not None and before.game.hand is not None
        to_act = before.game.hand.seat_to_act
        step["actions"] = [{"seat": next(s for s in before.seats if s != to_act), "kind": "fold"}]
    elif spoil == "no actions":
        step["actions"] = []
    elif spoil == "an unknown column":
        step["row"]["password"] = "x"
    elif spoil == "another table's code":
        step["row"]["code"] = "ZZZ234"
    elif spoil == "the state itself":
        step["row"]["state"] = None
    elif spoil == "another version":
        step["row"]["version"] = version + 1
    elif spoil == "not a step":
        told = [step]
    else:
        told = json.dumps(step)[:-1]
    assert cache.derive(table.id, table.code, table.created_at, version, told) is None
    # Nothing kept: the version is loaded as it is in the database instead.
    assert cache.cached_snapshot(table.id, table.code, table.created_at, version) is None
    loaded = cache.load_snapshot(table.id)
    assert loaded is not None and loaded.version == version


async def told_elsewhere() -> tuple[Phone, Table, int, announcing.Step]:
    """A phone at a pass-and-play table, and a change of play made, then forgotten here as if
    written by another process (which holds the version before): the table, the new version
    and the step its group message carries (not sent yet)."""

    def start() -> tuple[Table, str, list[str]]:
        session = new_session()
        made = lobby.create_table(
            session, ["Asha", "Bikash"], lobby.TableSettings(seat_count=2),
            mode=Table.Mode.LOCAL,
        )
        session.save()
        hashes = claims.session_hashes(session)
        lobby.start_game(made.id, hashes)
        made.refresh_from_db()
        return made, str(session.session_key), hashes

    table, key, hashes = await database_sync_to_async(start)()
    phone = Phone(table.code, key)
    assert (await phone.connect()).version == table.version
    layer = get_channel_layer()
    assert layer is not None
    rng = random.Random(1)
    for _ in range(30):
        before = await database_sync_to_async(cache.load_snapshot)(table.id)
        [(table_id, version, step)] = await database_sync_to_async(written)(
            next_change, table, hashes, rng
        )
        if step is not None:
            hold_only(before)  # the change was written by "another process"
            return phone, table, version, step
        await layer.group_send(announcing.group_name(table_id), announcing.changed_message(version))
        await phone.until_version(version)  # a deal: loaded, as before
    raise AssertionError("no change of play in 30 changes")


async def announce(phone: Phone, table: Table, version: int, step: announcing.Step) -> Frame:
    """Send the group message of that change, as its writer would; the phone's frame for it."""
    layer = get_channel_layer()
    assert layer is not None
    message = announcing.changed_message(version, step)
    await layer.group_send(announcing.group_name(table.id), message)
    return await phone.until_version(version)


async def test_a_connection_draws_a_version_written_elsewhere_without_loading_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    phone, table, version, step = await told_elsewhere()

    def no_load(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the version was loaded")

    monkeypatch.setattr(consumer, "load_snapshot", no_load)
    frame = await announce(phone, table, version, step)
    assert frame.version == version
    drawn = cache.cached_snapshot(table.id, table.code, table.created_at, version)
    assert drawn is not None and drawn.game is not None and drawn.game.hand is not None
    assert frame.data["hand_number"] == drawn.game.hand_number
    await phone.close()


async def test_a_step_that_fails_to_work_out_is_loaded_instead(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """Whatever goes wrong working a version out, the phone still gets it (loaded)."""
    phone, table, version, step = await told_elsewhere()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(consumer, "derive", broken)
    frame = await announce(phone, table, version, step)
    assert frame.version == version and "not worked out" in caplog.text
    await phone.close()


async def test_with_one_process_the_message_says_only_the_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The in-process layer (the embedded default) has no other process to tell, and copies a
    message for each connection: a change of play is announced by its version alone."""
    assert isinstance(get_channel_layer(), InMemoryChannelLayer)
    steps: list[announcing.Step | None] = []
    made = path._step

    def counted(*args: Any) -> announcing.Step | None:
        steps.append(made(*args))
        return steps[-1]

    monkeypatch.setattr(path, "_step", counted)
    messages = await announced()
    assert sum(step is not None for step in steps) >= 5  # changes of play were made
    assert all(set(message) == {"type", "version"} for message in messages), messages
