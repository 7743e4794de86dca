"""Moderation of a live table reaches every connected phone at once (websockets)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from tables import claims
from tables.models import Table
from tables.write import lobby, moderation
from tests.tables.helpers import Phone, new_session

pytestmark = pytest.mark.django_db(transaction=True)


def _started_table() -> tuple[Table, list[str], User]:
    """Asha and Bikash on their own phones, two computer players, the first hand dealt."""
    asha, bikash = new_session(), new_session()
    table = lobby.create_table(asha, ["Asha"], lobby.TableSettings(seat_count=4))
    lobby.join_table(table.id, "Bikash", bikash)
    asha.save()
    bikash.save()
    lobby.start_game(table.id, claims.session_hashes(asha))
    moderator = User.objects.create_user("alice", "alice@example.org", "a long secret",
                                         is_staff=True, is_superuser=True)
    table.refresh_from_db()
    assert asha.session_key is not None and bikash.session_key is not None
    return table, [asha.session_key, bikash.session_key], moderator


async def started_table() -> tuple[Table, list[str], User]:
    result: tuple[Table, list[str], User] = await database_sync_to_async(_started_table)()
    return result


async def phones_at(table: Table, keys: list[str]) -> list[Phone]:
    """Both players' phones and a spectator's."""
    phones = [Phone(table.code, key) for key in keys] + [Phone(table.code, None)]
    for phone in phones:
        frame = await phone.connect()
        assert frame.screen in ("play", "watch")
    return phones


async def test_closing_a_live_table_tells_every_phone_a_moderator_closed_it() -> None:
    table, keys, alice = await started_table()
    phones = await phones_at(table, keys)
    action = await database_sync_to_async(moderation.close_table)(table.id, alice, "abuse")
    version = (await database_sync_to_async(Table.objects.get)(pk=table.id)).version
    for phone in phones:
        frame = await phone.until_version(version)
        assert frame.screen == "closed"
        assert 'data-testid="closed-by-moderator"' in frame.text
        assert "This table was closed by a moderator." in frame.text
    assert action.reason == "abuse"
    for phone in phones:
        await phone.close()


async def test_a_rename_shows_on_every_phone_at_once() -> None:
    table, keys, alice = await started_table()
    phones = await phones_at(table, keys)
    await database_sync_to_async(moderation.rename_player)(table.id, 1, "Player 2", alice, "slur")
    for phone in phones:
        frame = await phone.until_version(table.version + 1)
        assert "Player 2" in frame.text and "Bikash" not in frame.text
    for phone in phones:
        await phone.close()


async def test_a_removed_person_watches_and_everyone_sees_the_computer_player() -> None:
    table, keys, alice = await started_table()
    asha, bikash, spectator = await phones_at(table, keys)
    await database_sync_to_async(moderation.remove_person)(table.id, 1, alice, "offensive")
    version = (await database_sync_to_async(Table.objects.get)(pk=table.id)).version
    frames = [await phone.until_version(version) for phone in (asha, bikash, spectator)]
    assert frames[1].screen == "watch" and frames[1].data["mine"] == []
    assert frames[0].screen == "play"
    for frame in frames:
        assert "Bikash" not in frame.text
    for phone in (asha, bikash, spectator):
        await phone.close()


@pytest.mark.services
async def test_on_postgresql_and_redis_closing_reaches_every_phone() -> None:
    await test_closing_a_live_table_tells_every_phone_a_moderator_closed_it()
