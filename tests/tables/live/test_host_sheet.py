"""The host's place (tables.live.host, templates/table/host_sheet.html): the controls come to
the host's phone in their own sheet, apart from table talk, as soon as the socket opens; the
late friends' requests wait there; nobody else's phone gets a control."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.live import host as live_host
from tables.models import Seat, Table
from tables.write import lobby
from tests.tables.helpers import Phone
from tests.tables.helpers.driver import seat_people, seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def _page(code: str, session_key: str) -> str:
    client = Client()
    client.cookies["sessionid"] = session_key
    page = client.get(reverse("tables:table", args=[code]))
    assert page.status_code == 200
    return page.content.decode()


def test_the_host_sheet_is_apart_from_table_talk_and_holds_the_late_requests() -> None:
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    page = _page(table.code, str(sessions[0].session_key))
    talk = page[page.index('id="chat"'):page.index('id="host"')]
    sheet = page[page.index('id="host"'):]
    assert 'id="host-menu"' not in talk and 'data-testid="host-controls"' not in talk
    assert 'id="host-menu"' in sheet and 'id="late-requests"' in sheet
    assert 'data-testid="host-toggle"' in sheet and "js/chat.js" in page


def test_the_menu_says_who_is_the_host_and_holds_every_control() -> None:
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    asha, bikash = (claims.session_hashes(s) for s in sessions)
    Seat.objects.filter(table=table, position=1).update(away=True)
    mine = live_host.menu_html(table.id, asha, "en")
    assert 'data-host="1"' in mine and 'data-away="1"' in mine
    for control in ("host-pause", "host-end", "host-learning", "host-computer-1",
                    "host-pass-1", "host-move-seat"):
        assert f'data-testid="{control}"' in mine, control
    theirs = live_host.menu_html(table.id, bikash, "en")
    assert 'data-host="0"' in theirs and "host-pause" not in theirs
    nepali = live_host.menu_html(table.id, asha, "ne")
    assert "Pause for everyone" not in nepali and "Let the computer play" not in nepali


async def test_the_hosts_phone_gets_its_controls_when_the_socket_opens() -> None:
    table, sessions = await seat_people([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    asha, bikash = (Phone(table.code, str(s.session_key)) for s in sessions)
    for phone in (asha, bikash):
        await phone.connect()
        await phone.send({"type": "chat_history"})
    assert 'data-host="1"' in (await asha.next()).text
    got = (await bikash.next()).text
    assert 'id="host-menu"' in got and 'data-host="0"' in got
    # The role passes: both phones are told, the button moves to Bikash's.
    await asha.send({"type": "host", "do": "pass", "seat": 1})
    seen = ""
    while 'data-host="1"' not in seen:
        seen += (await bikash.next()).text
    for phone in (asha, bikash):
        await phone.close()
    assert await Table.objects.filter(pk=table.pk, host_position=1).aexists()
