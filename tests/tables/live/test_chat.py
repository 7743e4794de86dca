"""Table talk over websockets: every phone and spectator hears it, as text, and the table
never moves for it (tables.write.talk, tables.live.talk)."""

from __future__ import annotations

import contextlib
import html
import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from tables import claims, clock
from tables.models import ChatMessage, ChatMute, ModerationAction, Table
from tables.write import lobby, path, play, talk
from tests.tables.helpers import Frame, NewPhone, Phone, new_session
from tests.tables.helpers.driver import seat_people

pytestmark = pytest.mark.django_db(transaction=True)

MARKUP = '<b>nice</b> & <img src=x onerror="alert(1)"> <script>alert(2)</script>'


@pytest.fixture(autouse=True)
def fresh_limits() -> None:
    talk.limiter.clear()


async def _table(names: list[list[str]] | None = None) -> tuple[Table, list[str]]:
    """A started game among Asha (host) and Bikash on their own phones, two computers."""
    table, sessions = await seat_people(
        names or [["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4)
    )
    return table, [str(s.session_key) for s in sessions]


async def _phones(table: Table, keys: list[str], watchers: int = 1) -> list[Phone]:
    phones = [Phone(table.code, key) for key in keys]
    for _ in range(watchers):
        session = await database_sync_to_async(new_session)()
        phones.append(Phone(table.code, str(session.session_key)))
    for phone in phones:
        await phone.connect()
    return phones


async def _version(table_id: int) -> int:
    row: Table = await database_sync_to_async(Table.objects.get)(pk=table_id)
    return row.version


def _lines(frame: Frame) -> list[str]:
    """The text of each chat line a frame holds, unescaped as a browser shows it."""
    found = re.findall(r'<span class="chat-line__text" data-chat-text>(.*?)</span></li>',
                       frame.text, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in found]


async def _close(phones: list[Phone]) -> None:
    for phone in phones:
        await phone.close()


async def test_a_line_reaches_every_phone_and_spectator_as_text_and_the_table_stays_put() -> None:
    table, keys = await _table()
    asha = (phones := await _phones(table, keys))[0]
    before = await _version(table.id)
    await asha.send({"type": "chat", "text": MARKUP})
    for phone in phones:
        frame = await phone.next()
        assert frame.is_notice_only and frame.maybe_version is None  # no redraw of the table
        assert 'id="chat-log" hx-swap-oob="beforeend"' in frame.text
        assert _lines(frame) == [MARKUP]  # exactly as typed...
        assert "<b>" not in frame.text and "<script>" not in frame.text  # ...never as markup
        assert "<img" not in frame.text
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in frame.text
        assert 'data-seat="0"' in frame.text and ">Asha</span>" in frame.text
    assert await _version(table.id) == before
    stored = await database_sync_to_async(lambda: list(ChatMessage.objects.all()))()
    assert [(m.position, m.name, m.text) for m in stored] == [(0, "Asha", MARKUP)]
    await _close(phones)


async def test_a_reaction_is_said_in_each_phones_own_language() -> None:
    table, keys = await _table()
    english = Phone(table.code, keys[0], language="en")
    nepali = Phone(table.code, keys[1], language="ne")
    for phone in (english, nepali):
        await phone.connect()
    await nepali.send({"type": "react", "reaction": "nice_hand"})
    en, ne = await english.next(), await nepali.next()
    assert _lines(en) == ["👏 Nice hand"]
    assert _lines(ne)[0].startswith("👏") and "Nice hand" not in ne.text
    assert ">Bikash</span>" in en.text and 'data-seat="1"' in en.text
    await _close([english, nepali])


async def test_a_spectator_reads_but_cannot_talk() -> None:
    table, keys = await _table()
    asha, _bikash, watcher = phones = await _phones(table, keys)
    await watcher.send({"type": "chat", "text": "hello"})
    refusal = await watcher.next()
    assert refusal.notice_code == "watching" and "only the players can talk" in refusal.text
    assert await asha.quiet()
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await _close(phones)


@pytest.mark.parametrize(("text", "code"), [
    ("", "empty"), ("    ", "empty"), ("x" * 201, "too_long"), ("bell\x07", "bad_text"),
])
async def test_empty_over_long_or_odd_text_is_refused_with_a_message(text: str, code: str) -> None:
    table, keys = await _table()
    asha, bikash = phones = await _phones(table, keys, watchers=0)
    await asha.send({"type": "chat", "text": text})
    refusal = await asha.next()
    assert refusal.notice_code == code and 'data-kind="error"' in refusal.text
    assert await bikash.quiet()
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await _close(phones)


async def test_two_hundred_characters_are_allowed() -> None:
    table, keys = await _table()
    asha, bikash = await _phones(table, keys, watchers=0)
    text = "न" * 200
    await asha.send({"type": "chat", "text": text})
    assert _lines(await bikash.next()) == [text]
    await _close([asha, bikash])


async def test_an_unknown_reaction_is_refused() -> None:
    table, keys = await _table()
    asha, bikash = phones = await _phones(table, keys, watchers=0)
    await asha.send({"type": "react", "reaction": "<b>boo</b>"})
    assert (await asha.next()).notice_code == "bad_reaction"
    assert await bikash.quiet()
    await _close(phones)


async def test_a_phone_may_send_five_at_once_then_one_every_two_seconds() -> None:
    table, keys = await _table()
    asha, bikash = phones = await _phones(table, keys, watchers=0)
    for n in range(5):
        await asha.send({"type": "chat", "text": f"line {n}"})
        assert _lines(await bikash.next()) == [f"line {n}"]
        await asha.next()  # her own line comes back to her too
    await asha.send({"type": "react", "reaction": "wow"})
    refusal = await asha.next()
    assert refusal.notice_code == "too_fast"
    assert "Slow down" in refusal.text and "2 seconds" in refusal.text
    assert await bikash.quiet()
    assert await database_sync_to_async(ChatMessage.objects.count)() == 5
    await _close(phones)


def test_the_bucket_refills_one_message_every_two_seconds() -> None:
    limiter = talk.Limiter()
    key = (1, "phone")
    assert all(limiter.take(key, now=100.0) == 0 for _ in range(5))
    assert limiter.take(key, now=100.0) == pytest.approx(2.0)
    assert limiter.take(key, now=101.0) == pytest.approx(1.0)
    assert limiter.take(key, now=102.0) == 0
    assert limiter.take(key, now=102.5) > 0
    assert limiter.take((1, "another phone"), now=102.5) == 0  # each phone its own
    assert all(limiter.take(key, now=200.0) == 0 for _ in range(5))  # never more than 5 saved
    assert limiter.take(key, now=200.0) > 0


async def test_a_phone_can_mute_a_person_for_itself_only() -> None:
    table, keys = await _table()
    asha, bikash, watcher = await _phones(table, keys)
    await watcher.send({"type": "mute", "seat": 1})
    muted = await watcher.next()
    assert muted.notice_code == "mute" and "You muted Bikash" in muted.text
    assert 'data-testid="mute-1" aria-pressed="true"' in muted.text
    await bikash.send({"type": "chat", "text": "can you hear me"})
    assert _lines(await asha.next()) == ["can you hear me"]
    assert await watcher.quiet()
    await asha.send({"type": "chat", "text": "yes"})
    assert _lines(await watcher.next()) == ["yes"]
    # The mute is kept in that phone's session: a new connection still does not show him.
    await watcher.close()
    again = Phone(table.code, _session_of(watcher))
    await again.connect()
    await again.send({"type": "chat_history"})
    drawer = await again.next()
    assert _lines(drawer) == ["yes"]
    await again.send({"type": "unmute", "seat": 1})
    unmuted = await again.next()
    assert _lines(unmuted) == ["can you hear me", "yes"]
    await _close([asha, bikash, again])


def _session_of(phone: Phone) -> str:
    headers = dict(phone.comm.scope["headers"])
    cookie: bytes = headers[b"cookie"]
    return cookie.decode().split("=", 1)[1]


async def test_the_drawer_shows_the_last_lines_to_a_phone_that_arrives() -> None:
    table, keys = await _table()
    asha, bikash = phones = await _phones(table, keys, watchers=0)
    await asha.send({"type": "chat", "text": "first"})
    await bikash.next()
    await bikash.send({"type": "react", "reaction": "haha"})
    await asha.next()
    late = Phone(table.code, None)
    await late.connect()
    await late.send({"type": "chat_history"})
    drawer = await late.next()
    assert 'id="chat-log"' in drawer.text and 'hx-swap-oob="true"' in drawer.text
    assert _lines(drawer) == ["first", "😂 Ha ha"]
    assert 'id="chat-state"' in drawer.text and "talk-switch" not in drawer.text
    await _close([*phones, late])


async def test_the_host_turns_talk_off_for_everyone_and_others_cannot() -> None:
    table, keys = await _table()
    asha, bikash, watcher = phones = await _phones(table, keys)
    before = await _version(table.id)
    await bikash.send({"type": "talk", "on": "0"})
    refusal = await bikash.next()
    assert refusal.notice_code == "not_host" and "Only the host" in refusal.text
    await asha.send({"type": "talk", "on": "0"})
    for phone in phones:
        frame = await phone.next()
        assert 'data-off="1"' in frame.text and "Asha turned table talk off" in frame.text
    assert 'data-testid="talk-switch"' in asha.frames[-1].text
    assert 'data-testid="talk-switch"' not in bikash.frames[-1].text
    await bikash.send({"type": "chat", "text": "hello?"})
    assert (await bikash.next()).notice_code == "talk_off"
    assert await asha.quiet()
    await asha.send({"type": "talk", "on": "1"})
    for phone in phones:
        assert 'data-off="0"' in (await phone.next()).text
    await bikash.send({"type": "chat", "text": "hello!"})
    assert _lines(await watcher.next()) == ["hello!"]
    assert await _version(table.id) == before
    await _close(phones)


async def test_a_moderator_deletes_a_line_everywhere_and_the_log_says_who_and_why() -> None:
    table, keys = await _table()
    bikash = (phones := await _phones(table, keys))[1]
    await bikash.send({"type": "chat", "text": "something rude"})
    for phone in phones:
        await phone.next()
    message = await database_sync_to_async(ChatMessage.objects.get)()
    staff = await database_sync_to_async(User.objects.create_superuser)("mona", "", "pw-long-1234")
    before = await _version(table.id)
    await database_sync_to_async(talk.delete_message)(message.pk, staff, "rude")
    for phone in phones:
        frame = await phone.next()
        assert f'<li id="chat-{message.pk}" hx-swap-oob="delete">' in frame.text
    assert await _version(table.id) == before
    log = await database_sync_to_async(lambda: ModerationAction.objects.get())()
    assert (log.action, log.moderator_id, log.reason) == (
        ModerationAction.CHAT_DELETE, staff.pk, "rude"
    )
    assert log.detail["text"] == "something rude" and log.detail["name"] == "Bikash"
    late = Phone(table.code, None)
    await late.connect()
    await late.send({"type": "chat_history"})
    assert _lines(await late.next()) == []
    await _close([*phones, late])


async def test_a_moderator_mutes_a_person_at_a_table() -> None:
    table, keys = await _table()
    asha, bikash = phones = await _phones(table, keys, watchers=0)
    staff = await database_sync_to_async(User.objects.create_superuser)("mona", "", "pw-long-1234")
    await database_sync_to_async(talk.mute_person)(table.id, 1, staff, "spam")
    await bikash.send({"type": "chat", "text": "buy my stuff"})
    refusal = await bikash.next()
    assert refusal.notice_code == "chat_muted" and "A moderator muted your chat" in refusal.text
    assert await asha.quiet()
    log = await database_sync_to_async(lambda: ModerationAction.objects.get())()
    assert (log.action, log.moderator_id, log.reason) == (
        ModerationAction.CHAT_MUTE, staff.pk, "spam"
    )
    assert log.detail == {"seat": 1, "name": "Bikash"}
    with pytest.raises(path.Refused):
        await database_sync_to_async(talk.mute_person)(table.id, 1, staff, "again")
    with pytest.raises(path.Refused):
        await database_sync_to_async(talk.mute_person)(table.id, 2, staff, "a computer")
    await asha.send({"type": "chat", "text": "still here"})
    assert _lines(await bikash.next()) == ["still here"]
    await _close(phones)


def test_the_admin_shows_a_tables_talk_and_deletes_or_mutes_with_a_reason(
    admin_client: Client, new_phone: NewPhone,
) -> None:
    host = new_phone()
    table = lobby.create_table(host, ["Asha"], lobby.TableSettings(seat_count=3))
    ChatMessage.objects.create(table=table, position=0, name="Asha", text="<i>hi</i> all")
    message = ChatMessage.objects.get()
    page = admin_client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "Table talk" in page and "&lt;i&gt;hi&lt;/i&gt; all" in page and "<i>hi</i>" not in page
    delete_url = f"/admin/tables/table/{table.pk}/chat/{message.pk}/delete/"
    assert delete_url in page
    assert admin_client.post(delete_url, {"reason": ""}).status_code == 200  # a reason first
    assert not ChatMessage.objects.get().deleted
    answer = admin_client.post(delete_url, {"reason": "off topic"})
    assert answer.status_code == 302 and ChatMessage.objects.get().deleted
    mute_url = f"/admin/tables/table/{table.pk}/chat/mute/0/"
    assert admin_client.post(mute_url, {"reason": "shouting"}).status_code == 302
    assert ChatMute.objects.filter(table=table, position=0).exists()
    log = admin_client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert "Deleted a chat message" in log and "off topic" in log
    assert "Muted a person&#x27;s chat at the table" in log or "Muted a person's chat" in log


def test_chat_is_not_in_the_hand_exports(client: Client, new_phone: NewPhone) -> None:
    host = new_phone()
    table = lobby.create_table(
        host, ["Asha"], lobby.TableSettings(seat_count=2), mode=Table.Mode.COMPUTER
    )
    host.save()
    ChatMessage.objects.create(table=table, position=0, name="Asha", text="secret-chat-words")
    hashes = claims.session_hashes(host)
    for _ in range(200):  # Asha folds or checks, the computer moves, until a hand is over
        table.refresh_from_db()
        if table.hands.filter(ended_at__isnull=False).exists():
            break
        if table.deadline_kind == Table.Deadline.BOT:
            clock.fire(table.id, table.version, table.next_deadline)
            continue
        with contextlib.suppress(path.Refused):
            play.act(table.id, hashes, kind="check", amount=None, version=table.version,
                         action_id=play.random_action_id())
        with contextlib.suppress(path.Refused):
            play.act(table.id, hashes, kind="fold", amount=None, version=table.version,
                         action_id=play.random_action_id())
    assert table.hands.filter(ended_at__isnull=False).exists()
    client.cookies["sessionid"] = str(host.session_key)
    code = table.code
    exports = [f"/t/{code}/hands/pokerstars.txt", f"/t/{code}/hands/game.phhs",
               f"/t/{code}/results.csv", f"/t/{code}/hands/1/pokerstars.txt",
               f"/t/{code}/hands/1/hand.phh", f"/t/{code}/hands/1/"]
    for url in exports:
        answer = client.get(url)
        assert answer.status_code == 200, url
        streamed = getattr(answer, "streaming_content", None)
        body = b"".join(streamed) if streamed is not None else answer.content
        assert b"Asha" in body and b"secret-chat-words" not in body, url
