"""Live play over websockets: join, play, reconnect, and the refusals that change nothing."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async

from tables import claims
from tables.cache import Snapshot, load_snapshot
from tables.live import consumer
from tables.models import Table
from tables.write import lobby as lobby_flows
from tables.write import path
from tests.tables.helpers import Frame, Phone, game_of, my_cards, new_session
from tests.tables.helpers.driver import Driver, build, seat_people

pytestmark = pytest.mark.django_db(transaction=True)


def _lobby(names: list[str]) -> tuple[Table, list[str]]:
    """A lobby where each name is on its own phone; returns the table and session keys."""
    keys = []
    host = new_session()
    table = lobby_flows.create_table(host, names[:1], lobby_flows.TableSettings(seat_count=4))
    host.save()
    keys.append(str(host.session_key))
    for name in names[1:]:
        session = new_session()
        lobby_flows.join_table(table.id, name, session)
        session.save()
        keys.append(str(session.session_key))
    return table, keys


async def lobby(names: list[str]) -> tuple[Table, list[str]]:
    result: tuple[Table, list[str]] = await database_sync_to_async(_lobby)(names)
    return result


async def table_row(table_id: int) -> Table:
    row: Table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    return row


async def test_the_lobby_shows_who_joins_live() -> None:
    table, [asha] = await lobby(["Asha"])
    phone = Phone(table.code, asha)
    frame = await phone.connect()
    assert frame.screen == "lobby"
    session = await database_sync_to_async(new_session)()
    await database_sync_to_async(lobby_flows.join_table)(table.id, "Bikash", session)
    frame = await phone.next()
    assert frame.version == table.version + 1 and "Bikash" in frame.text
    await phone.close()


async def test_phones_in_different_languages_at_one_table_each_get_their_own() -> None:
    """Each connection draws in its own language, whatever the others speak."""
    table, [asha, bikash] = await lobby(["Asha", "Bikash"])
    nepali = Phone(table.code, asha, language="ne")
    english = Phone(table.code, bikash, language="en")
    for phone in (nepali, english):
        await phone.connect()
    hashes = await database_sync_to_async(lambda: claims_of(asha))()
    await database_sync_to_async(lobby_flows.start_game)(table.id, hashes)
    ne = await nepali.until_version(table.version + 1)
    en = await english.until_version(table.version + 1)
    assert ne.screen == en.screen == "play"
    assert 'aria-label="खेलाडीहरू"' in ne.text and 'aria-label="Players"' not in ne.text
    assert 'aria-label="Players"' in en.text and "खेलाडीहरू" not in en.text
    for phone in (nepali, english):
        await phone.close()


def claims_of(session_key: str) -> list[str]:
    from django.contrib.sessions.backends.db import SessionStore

    from tables import claims

    return claims.session_hashes(SessionStore(session_key=session_key))


async def test_a_lobby_frame_over_the_websocket_holds_the_join_qr_code() -> None:
    table, [asha] = await lobby(["Asha"])
    phone = Phone(table.code, asha)
    frames = [await phone.connect()]
    session = await database_sync_to_async(new_session)()
    await database_sync_to_async(lobby_flows.join_table)(table.id, "Bikash", session)
    frames.append(await phone.next())  # a frame drawn after a change, not just on connecting
    for frame in frames:
        assert frame.screen == "lobby"
        qr = re.search(r'id="join-qr".*?(<svg\b.*?</svg>)', frame.text, re.S)
        assert qr is not None
        assert f"<title>http://testserver/t/{table.code}/</title>" in qr.group(1)
        assert 'class="qr"' in qr.group(1) and "<path" in qr.group(1)
    await phone.close()


async def test_phones_told_of_a_new_version_share_one_load_of_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, _keys = await lobby(["Asha"])
    loads: list[int] = []

    def counted(table_id: int, *, check_cache: bool = True) -> Snapshot | None:
        loads.append(table_id)
        return load_snapshot(table_id, check_cache=check_cache)

    monkeypatch.setattr(consumer, "load_snapshot", counted)
    snapshots = await asyncio.gather(
        *(consumer.shared_snapshot(table.id, table.version) for _ in range(8))
    )
    assert loads == [table.id]
    assert all(s is snapshots[0] and s is not None for s in snapshots)
    assert snapshots[0] is not None and snapshots[0].version == table.version
    await consumer.shared_snapshot(table.id, table.version + 1)  # a later version: loaded anew
    assert len(loads) == 2


async def test_a_phone_joins_and_plays_a_hand_to_the_end() -> None:
    driver = await build(
        [["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=2, max_hands=30), calm=True
    )
    while not driver.persons[0].phone.frames[-1].data["hand_over"]:
        assert await driver.step()
    asha = driver.persons[0].phone.frames[-1]
    assert asha.data["hand_number"] == 1
    assert asha.screen == "play" and " wins " in asha.text
    row = await table_row(driver.table.id)
    first = await database_sync_to_async(lambda: row.hands.get(number=1))()
    assert first.finished and sum(first.final_stacks.values()) == 2000
    await driver.close()


async def test_a_reconnecting_phone_gets_the_current_view_at_once() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    for _ in range(3):
        await driver.step()
    asha = driver.persons[0]
    before = asha.phone.frames[-1]
    await asha.phone.close()
    again = Phone(driver.table.code, asha.session.session_key)
    frame = await again.connect()
    assert frame.version == before.version
    assert frame.data["you"] == before.data["you"] == 0
    assert my_cards(frame) == my_cards(before) and len(my_cards(frame)) == 2
    driver.persons[0].phone = again
    await driver.close()


async def test_a_page_drawn_at_the_current_version_gets_no_second_copy_of_it() -> None:
    """The table page names the version it shows (?v=N): a socket opened at that version sends
    nothing until the table changes; a page drawn at an older version gets the view at once."""
    table, [asha] = await lobby(["Asha"])
    current = Phone(table.code, asha, query=f"?v={table.version}")
    await current.open()
    assert await current.quiet()
    older = Phone(table.code, asha, query=f"?v={table.version - 1}")
    assert (await older.connect()).version == table.version
    nonsense = Phone(table.code, asha, query="?v=soon")
    assert (await nonsense.connect()).version == table.version
    session = await database_sync_to_async(new_session)()
    await database_sync_to_async(lobby_flows.join_table)(table.id, "Bikash", session)
    frame = await current.next()  # the next change arrives as ever
    assert frame.version == table.version + 1 and "Bikash" in frame.text
    for phone in (current, older, nonsense):
        await phone.close()


def _local_table() -> tuple[Table, str]:
    session = new_session()
    table = lobby_flows.create_table(
        session, ["Asha", "Bikash"], lobby_flows.TableSettings(seat_count=3),
        mode=Table.Mode.LOCAL,
    )
    lobby_flows.start_game(table.id, claims.session_hashes(session))
    session.save()
    table.refresh_from_db()
    return table, str(session.session_key)


async def test_a_phone_of_several_seats_always_gets_the_view_when_it_connects() -> None:
    """Pass and play: who holds the phone lives in the connection, so its view is drawn anew."""
    table, key = await database_sync_to_async(_local_table)()
    phone = Phone(table.code, key, query=f"?v={table.version}")
    frame = await phone.connect()
    assert frame.version == table.version and frame.screen in {"handoff", "play"}
    await phone.close()


async def _a_turn_and_another_phone() -> tuple[Driver, Frame, int, Phone]:
    """Asha and Bikash heads-up, a person to act: the driver, the frame of that person's
    phone, their seat, and the other person's phone."""
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=2))
    phone, frame, seat = await _person_turn(driver)
    other = next(p.phone for p in driver.persons if p.phone is not phone)
    return driver, frame, seat, other


async def _person_turn(driver) -> tuple[Phone, Frame, int]:  # type: ignore[no-untyped-def]
    """Step until a person is to act; their phone, its frame and their seat."""
    person, frame = await driver.until_a_person_acts()
    return person.phone, frame, frame.data["legal"]["seat"]


async def test_a_repeated_action_id_is_applied_once() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    phone, frame, _seat = await _person_turn(driver)
    kind = "check" if frame.data["legal"]["check"] else "call"
    message = {"type": "action", "kind": kind, "version": frame.version, "action_id": "tap-1"}
    await phone.send(message)
    await phone.send(message)
    await phone.until_version(frame.version + 1)
    if not any(f.notice_code == "already_counted" for f in phone.frames):
        await phone.until_notice("already_counted")
    assert (await table_row(driver.table.id)).version == frame.version + 1
    await driver.close()


async def test_a_stale_version_gets_the_fresh_view_and_a_notice() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3))
    phone, frame, _seat = await _person_turn(driver)
    await phone.send(
        {"type": "action", "kind": "fold", "version": frame.version - 1, "action_id": "old-1"}
    )
    reply = await phone.next()
    assert reply.notice_code == "stale" and reply.version == frame.version
    assert "The table moved on" in reply.text
    assert (await table_row(driver.table.id)).version == frame.version
    await driver.close()


async def test_an_action_out_of_turn_is_refused_with_a_readable_message() -> None:
    driver, frame, seat, other = await _a_turn_and_another_phone()
    await other.send(
        {"type": "action", "kind": "fold", "version": frame.version, "action_id": "early-1"}
    )
    reply = await other.next()
    name = "Asha" if seat == 0 else "Bikash"
    assert reply.is_notice_only and reply.notice_code == "not_your_turn"
    assert f"It is not your turn: {name} is to act." in reply.text
    assert (await table_row(driver.table.id)).version == frame.version
    await driver.close()


async def test_a_watcher_sees_no_hole_cards_and_cannot_act() -> None:
    driver = await build(
        [["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3), watchers=1
    )
    watcher = driver.watchers[0]
    frame = watcher.frames[-1]
    assert frame.screen == "watch" and frame.data["you"] is None
    await watcher.send(
        {"type": "action", "kind": "fold", "version": frame.version, "action_id": "w-1"}
    )
    reply = await watcher.next()
    assert reply.notice_code == "not_seated"
    assert "You have no seat at this table: you are watching." in reply.text
    await driver.close()


async def test_a_seat_at_another_table_gives_no_rights_here() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=2))
    _phone, frame, seat = await _person_turn(driver)
    _other_table, sessions = await seat_people([["Dipa"]], lobby_flows.TableSettings(seat_count=2))
    intruder = Phone(driver.table.code, sessions[0].session_key)
    first = await intruder.connect()
    assert first.screen == "watch"
    await intruder.send(
        {"type": "action", "kind": "fold", "version": frame.version, "action_id": "x-1",
         "seat": seat}
    )
    reply = await intruder.next()
    assert reply.notice_code == "not_seated"
    assert (await table_row(driver.table.id)).version == frame.version
    await intruder.close()
    await driver.close()


async def test_an_action_for_another_players_seat_is_refused() -> None:
    driver, frame, seat, other = await _a_turn_and_another_phone()
    await other.send(
        {"type": "action", "kind": "fold", "version": frame.version, "action_id": "s-1",
         "seat": seat}
    )
    reply = await other.next()
    assert reply.notice_code == "not_your_seat" and "That seat is not yours." in reply.text
    assert (await table_row(driver.table.id)).version == frame.version
    await driver.close()


@pytest.mark.parametrize("origin", [None, b"http://evil.example", b"null"])
async def test_a_missing_or_foreign_origin_is_refused(origin: bytes | None) -> None:
    table, [asha] = await lobby(["Asha"])
    phone = Phone(table.code, asha, origin=origin)
    connected, _ = await phone.comm.connect(timeout=10)
    assert not connected


async def test_an_unknown_code_gets_a_message_and_the_socket_closes() -> None:
    phone = Phone("ZZZZZZ", None)
    connected, _ = await phone.comm.connect(timeout=10)
    assert connected
    frame = await phone.next()
    assert frame.notice_code == "unknown_table"
    closed = await phone.comm.receive_output(10)
    assert closed == {"type": "websocket.close", "code": 4404}


async def test_closing_the_table_reaches_every_phone() -> None:
    driver = await build(
        [["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3), watchers=1
    )

    def close(change: path.Change) -> None:
        change.game.cancel_hand()
        change.game.end_now()
        change.table.status = Table.Status.CLOSED
        change.table.closed_reason = "moderator"
        change.mark()

    await database_sync_to_async(path.apply_change)(driver.table.id, close)
    for phone in driver.phones:
        frame = await phone.until_version(driver.version + 1)
        assert frame.screen == "closed" and "closed by a moderator" in frame.text
    await driver.close()


async def test_leaving_mid_game_hands_the_seat_to_a_computer_player() -> None:
    table, sessions = await seat_people(
        [["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3)
    )
    hashes = claims.session_hashes(sessions[1])
    await database_sync_to_async(lobby_flows.leave_table)(table.id, hashes)
    row = await table_row(table.id)
    seat = await database_sync_to_async(lambda: row.seats.get(position=1))()
    assert seat.is_computer and seat.claim_hash == "" and seat.name == "Bikash"
    assert game_of(row).seats[1].is_person is False


async def test_the_game_ends_when_the_last_person_leaves() -> None:
    table, sessions = await seat_people([["Asha"]], lobby_flows.TableSettings(seat_count=3))
    await database_sync_to_async(lobby_flows.leave_table)(
        table.id, claims.session_hashes(sessions[0])
    )
    row = await table_row(table.id)
    assert row.status == Table.Status.FINISHED and row.next_deadline is None
    assert game_of(row).finished


async def test_a_phone_that_keeps_parts_sees_what_a_phone_that_does_not_sees() -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby_flows.TableSettings(seat_count=3),
                         watchers=1)
    key = driver.persons[0].session.session_key
    plain = Phone(driver.table.code, key, parts=False)  # an old page: whole frames
    await plain.connect()
    for _ in range(4):
        assert await driver.step()
    version = driver.persons[0].phone.frames[-1].version
    await plain.until_version(version)
    kept = [f for f in driver.persons[0].phone.frames if f.maybe_version == version][-1]
    whole_frame = [f for f in plain.frames if f.maybe_version == version][-1]
    assert all("<x-" not in f.text for f in plain.frames)
    assert kept.sent < len(kept.text.encode())  # parts that did not change were not sent
    assert whole_frame.sent == len(whole_frame.text.encode())
    same = re.compile(r"[0-9a-f]{32}|data-remaining=\"[\d.]+\"|\"remaining\":[\d.]+"
                      r"|data-countdown-secs>\d+")
    assert same.sub("", kept.text) == same.sub("", whole_frame.text)
    await plain.close()
    await driver.close()
