"""What a chat line costs the database: one insert that checks, one statement and one commit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import claims
from tables.models import ChatMessage, ChatMute, TableTalk
from tables.write import lobby, talk
from tables.write.path import Refused
from tests.tables.helpers import new_session

pytestmark = pytest.mark.django_db


def test_a_chat_line_is_one_insert_that_checks() -> None:
    session = new_session()
    table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=3))
    hashes = claims.session_hashes(session)
    with CaptureQueriesContext(connection) as queries:
        line = talk.store(table.id, 0, "Asha", hashes, "namaste", "")
    sent = [q["sql"].split(None, 1)[0].upper() for q in queries]
    assert sent == ["INSERT"]  # outside any transaction block: one commit
    kept = ChatMessage.objects.get(pk=line.id)
    assert (kept.table_id, kept.position, kept.name, kept.text, kept.reaction) == (
        table.id, 0, "Asha", "namaste", ""
    )
    assert (kept.event, kept.detail, kept.deleted) == ("", {}, False)
    assert kept.at is not None and abs((timezone.now() - kept.at).total_seconds()) < 600


def test_the_one_check_refuses_talk_off_a_muted_claim_and_an_unknown_table() -> None:
    session = new_session()
    table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=3))
    hashes = claims.session_hashes(session)
    with pytest.raises(Refused) as refused:
        talk.store(table.id + 1000, 0, "Asha", hashes, "hello?", "")
    assert refused.value.code == "unknown_table"
    talk.store(table.id, 0, "Asha", [], "no claim at all", "")  # nobody muted: said
    ChatMute.objects.create(table=table, position=0, claim_hash=hashes[-1], name="Asha")
    with pytest.raises(Refused) as refused:
        talk.store(table.id, 0, "Asha", ["someone-else", *hashes], "hello", "")
    assert refused.value.code == "chat_muted"
    TableTalk.objects.create(table=table, off=True)
    with pytest.raises(Refused) as refused:
        talk.store(table.id, 0, "Asha", ["someone-else"], "hello", "")
    assert refused.value.code == "talk_off"
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["no claim at all"]


def test_a_line_the_insert_did_not_keep_is_checked_again_and_kept_if_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Talk switched back on between the insert and the check: the check keeps the line."""
    session = new_session()
    table = lobby.create_table(session, ["Asha"], lobby.TableSettings(seat_count=3))
    monkeypatch.setattr(talk, "_kept_if_allowed", lambda message, claims: False)
    line = talk.store(table.id, 0, "Asha", claims.session_hashes(session), "back on", "")
    assert ChatMessage.objects.get(pk=line.id).text == "back on"
