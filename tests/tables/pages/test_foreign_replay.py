"""The replay page for hands from elsewhere (issue 18): anyone may paste or upload one PHH hand;
the app's own exports come back in the replayer as the player saw them, anything else is
refused with a reason, and nothing is stored."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tables.models import Seat
from tests.engine.phh_hands import phh
from tests.tables.helpers import cards_in
from tests.tables.helpers.pages import ended_hands, page_text, play_until, seen_by, started

pytestmark = pytest.mark.django_db
URL = "/replay/"


def replay_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html,
                      re.S)
    assert found is not None, html[:2000]
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def row_counts() -> dict[str, int]:
    return {m.__name__: m._default_manager.count() for m in apps.get_models()}


def test_the_page_offers_to_paste_or_upload_a_hand() -> None:
    page = Client().get(reverse("tables:foreign_replay")).content.decode()
    assert reverse("tables:foreign_replay") == URL
    assert 'name="phh"' in page and 'type="file"' in page and "64 KB" in page


def test_the_apps_own_exports_come_back_as_the_player_saw_them_and_nothing_is_stored() -> None:
    table, (asha, bikash) = started("Asha", "Bikash", seats=4)
    table = play_until(table, 8)
    seats = {
        client: Seat.objects.get(table=table, name=name).position
        for client, name in ((asha, "Asha"), (bikash, "Bikash"))
    }
    stranger = Client()
    before = row_counts()
    for row, hand in ended_hands(table):
        for client, seat in seats.items():
            url = reverse("tables:hand_phh", args=[table.code, row.number])
            text = client.get(url).content.decode()
            response = stranger.post(URL, {"phh": text})
            assert response.status_code == 200, response.content.decode()[:3000]
            html = response.content.decode()
            data = replay_data(html)
            own = replay_data(client.get(reverse("tables:hand", args=[table.code, row.number]))
                              .content.decode())
            # The same replay as the table's own page: seats, stacks, button, events.
            assert data["events"] == own["events"]
            assert data["seats"] == own["seats"] and data["button"] == own["button"]
            assert data["viewer"] == seat
            assert cards_in(page_text(html)) <= seen_by(hand, seat)
    assert row_counts() == before  # nothing stored


def test_a_file_can_be_uploaded() -> None:
    text = phh(["d dh p1 AsKd", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"])
    upload = SimpleUploadedFile("hand.phh", text.encode(), content_type="text/plain")
    response = Client().post(URL, {"file": upload})
    assert response.status_code == 200
    data = replay_data(response.content.decode())
    assert [s["name"] for s in data["seats"]] == ["p1", "p2", "p3"]
    assert data["viewer"] == 0
    assert "p3 folds" in data["lines"] and "p1 folds" in data["lines"]


@pytest.mark.parametrize(
    ("sent", "says"),
    [
        ({"phh": 'variant = "NT"\nantes = = [0]\n'}, "at line 2"),
        ({"phh": phh([], variant='"FT"')}, "the variant &#x27;FT&#x27; is not no-limit"),
        ({"phh": phh(["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p1 cc"])},
         "is illegal at this table: p3 is to act, not p1"),
        ({"phh": "# " + "x" * 70_000}, "The file is larger than 64 KB."),
        ({"file": SimpleUploadedFile("big.phh", b"#" * 70_000)}, "The file is larger than 64 KB."),
        ({"file": SimpleUploadedFile("hand.phh", b"\xff\xfe\x00bad")}, "is not text (UTF-8)"),
        ({"phh": "   "}, "Paste a hand history or choose a file first."),
        ({"phh": '[a]\nvariant = "NT"\n[b]\nvariant = "NT"\n'}, "one hand per file"),
    ],
)
def test_what_cannot_be_replayed_is_refused_with_a_readable_reason(
    sent: dict[str, Any], says: str
) -> None:
    before = row_counts()
    response = Client().post(URL, sent)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="foreign-error"' in html and says in html
    assert "replay-data" not in html
    assert row_counts() == before


def test_a_body_far_beyond_the_limit_is_refused_readably(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    response = Client().post(URL, {"phh": "#" * 200_000})
    assert response.status_code == 400
    assert "The file is larger than 64 KB." in response.content.decode()
