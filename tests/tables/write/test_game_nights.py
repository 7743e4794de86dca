"""A group's game nights (tables.write.game_nights, tables.pages.game_nights): a member
proposes the next game, members answer in, maybe or out from the group's page, the page shows
who is coming, each night has a calendar file with a reminder, the proposer or anyone in opens
the table with one tap (everyone in seated, every phone in notified), and a past night links
the games of its evening."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from tables import claims
from tables.models import GameNight, GameNightAnswer, Group, GroupGame, Seat, Table
from tables.write import game_nights, lobby, push
from tables.write.path import Refused
from tests.tables.helpers import new_session

pytestmark = pytest.mark.django_db


def _client(session: SessionStore) -> Client:
    client = Client()
    client.cookies["sessionid"] = str(session.session_key)
    return client


def _group() -> tuple[Group, SessionStore, SessionStore, SessionStore]:
    """Asha, Bikash and Chandra played a game of the group "Friday poker", each on a phone."""
    asha, bikash, chandra = new_session(), new_session(), new_session()
    table = lobby.create_table(asha, ["Asha"], lobby.TableSettings(seat_count=4))
    lobby.join_table(table.id, "Bikash", bikash)
    lobby.join_table(table.id, "Chandra", chandra)
    for s in (asha, bikash, chandra):
        s.save()
    group = Group.objects.create(code="fridaypkr2", name="Friday poker",
                                 creator_hash=claims.session_hashes(asha)[0])
    GroupGame.objects.create(group=group, table=table)
    return group, asha, bikash, chandra


def _tomorrow() -> tuple[str, str]:
    when = timezone.now() + timedelta(days=1)
    return when.date().isoformat(), "20:00"


def _propose(client: Client, group: Group, **fields: str) -> Any:
    day, at = _tomorrow()
    data = {"day": day, "time": at, "zone": "Asia/Kathmandu", "note": "At Bikash's", **fields}
    return client.post(f"/g/{group.code}/nights/", data)


def test_a_member_proposes_the_next_game_and_the_page_shows_it() -> None:
    group, asha, _bikash, _chandra = _group()
    answer = _propose(_client(asha), group)
    assert answer.status_code == 302 and answer["Location"].endswith("#nights")
    night = GameNight.objects.get(group=group)
    assert night.zone == "Asia/Kathmandu" and night.note == "At Bikash's"
    assert night.proposer_name == "Asha"
    local = timezone.localtime(night.starts_at, game_nights.zone_of("Asia/Kathmandu"))
    assert (local.hour, local.minute) == (20, 0)
    page = _client(asha).get(f"/g/{group.code}/").content.decode()
    assert 'data-testid="game-night"' in page and "At Bikash&#x27;s" in page
    assert "Proposed by Asha" in page


def test_someone_who_never_played_in_the_group_cannot_propose_or_answer() -> None:
    group, asha, _bikash, _chandra = _group()
    stranger = new_session()
    stranger.save()
    assert _propose(_client(stranger), group).status_code == 403
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    answer = _client(stranger).post(f"/g/{group.code}/nights/{night.pk}/", {"do": "in"})
    assert answer.status_code == 403
    page = _client(stranger).get(f"/g/{group.code}/").content.decode()
    assert 'data-testid="answer-in"' not in page and 'data-testid="night-form"' not in page


def test_a_game_night_in_the_past_or_far_away_is_refused() -> None:
    group, asha, _bikash, _chandra = _group()
    yesterday = (timezone.now() - timedelta(days=1)).date().isoformat()
    assert _propose(_client(asha), group, day=yesterday).status_code == 400
    far = (timezone.now() + timedelta(days=200)).date().isoformat()
    assert _propose(_client(asha), group, day=far).status_code == 400
    assert _propose(_client(asha), group, day="soon").status_code == 400
    assert _propose(_client(asha), group, note="x" * 141).status_code == 400
    assert not GameNight.objects.exists()


def test_members_answer_in_maybe_or_out_and_the_page_shows_who_is_coming() -> None:
    group, asha, bikash, chandra = _group()
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    url = f"/g/{group.code}/nights/{night.pk}/"
    assert _client(bikash).post(url, {"do": "maybe"}).status_code == 302
    assert _client(chandra).post(url, {"do": "out"}).status_code == 302
    assert _client(chandra).post(url, {"do": "in"}).status_code == 302  # changed their mind
    assert _client(bikash).post(url, {"do": "sometimes"}).status_code == 400
    answers = {a.name: a.answer for a in GameNightAnswer.objects.filter(night=night)}
    assert answers == {"Asha": "in", "Bikash": "maybe", "Chandra": "in"}
    page = _client(bikash).get(f"/g/{group.code}/").content.decode()
    assert 'data-testid="night-in">Asha, Chandra<' in page
    assert 'data-testid="night-maybe">Bikash<' in page
    assert 'value="maybe" aria-pressed="true"' in page


def test_each_game_night_has_a_calendar_file_with_a_reminder() -> None:
    group, asha, _bikash, _chandra = _group()
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    answer = Client().get(f"/g/{group.code}/nights/{night.pk}.ics")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.content)
    events = calendar.walk("VEVENT")
    assert len(events) == 1
    event = events[0]
    assert event.decoded("dtstart") == night.starts_at
    assert "Friday poker" in str(event.get("summary"))
    assert f"/g/{group.code}/" in str(event.get("url"))
    alarms = event.walk("VALARM")
    assert len(alarms) == 1 and alarms[0].decoded("trigger") == -timedelta(minutes=30)


def test_the_table_opens_with_one_tap_seating_everyone_in_and_telling_their_phones(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    group, asha, bikash, chandra = _group()
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    url = f"/g/{group.code}/nights/{night.pk}/"
    _client(bikash).post(url, {"do": "in"})
    _client(chandra).post(url, {"do": "out"})
    told: list[tuple[list[str], str, str, str]] = []
    monkeypatch.setattr(push, "game_on", lambda *args: told.append(args))
    # Too early: the table opens half an hour before.
    assert _client(asha).post(url, {"do": "open"}).status_code == 400
    night.starts_at = timezone.now() + timedelta(minutes=20)
    night.save()
    # Chandra is out: only the proposer or someone in opens it.
    assert _client(chandra).post(url, {"do": "open"}).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        answer = _client(bikash).post(url, {"do": "open"})
    assert answer.status_code == 302
    night.refresh_from_db()
    table = night.table
    assert table is not None and answer["Location"] == f"/t/{table.code}/"
    assert table.status == Table.Status.WAITING and table.host_position == 0
    seats = {s.name: s for s in Seat.objects.filter(table=table)}
    assert list(seats) == ["Bikash", "Asha"]  # the opener first, its host
    assert seats["Asha"].claim_hash in claims.session_hashes(asha)
    assert seats["Bikash"].claim_hash in claims.session_hashes(bikash)
    assert GroupGame.objects.filter(group=group, table=table).exists()
    assert told == [([seats["Asha"].claim_hash], "Friday poker", "Bikash", table.code)]
    # A second tap (anyone in) finds the same table.
    again = _client(asha).post(url, {"do": "open"})
    assert again["Location"] == f"/t/{table.code}/"
    assert Table.objects.filter(group_game__group=group).count() == 2
    page = _client(chandra).get(f"/g/{group.code}/").content.decode()
    assert 'data-testid="night-table"' in page and f"/t/{table.code}/" in page


def test_a_past_game_night_links_the_games_of_its_evening() -> None:
    group, asha, _bikash, _chandra = _group()
    first = Table.objects.get(group_game__group=group)
    evening = timezone.now() - timedelta(days=3)
    Table.objects.filter(pk=first.pk).update(created_at=evening + timedelta(hours=1))
    other = lobby.create_table(asha, ["Asha"], lobby.TableSettings(seat_count=2))
    Table.objects.filter(pk=other.pk).update(created_at=evening - timedelta(days=2))
    GroupGame.objects.create(group=group, table=other)
    asha.save()
    night = GameNight.objects.create(
        group=group, starts_at=evening, proposer_hash=claims.session_hashes(asha)[0],
        proposer_name="Asha", note="Dashain",
    )
    page = _client(asha).get(f"/g/{group.code}/").content.decode()
    assert 'data-testid="past-night"' in page
    past = page.split('data-testid="past-nights"')[1].split("</ul>")[0]
    assert first.code in past and other.code not in past
    assert f"/t/{first.code}/hands/" in past  # Asha sat there: its hands
    assert night.note in past


def test_two_taps_at_once_open_one_table() -> None:
    group, asha, bikash, _chandra = _group()
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    night.starts_at = timezone.now() + timedelta(minutes=5)
    night.save()
    game_nights.answer(night, claims.session_hashes(bikash), "in")
    one = game_nights.open_table(night, asha)
    two = game_nights.open_table(night, bikash)
    assert one.pk == two.pk


def test_a_member_cannot_plan_more_than_five_games_at_once() -> None:
    group, asha, _bikash, _chandra = _group()
    hashes = claims.session_hashes(asha)
    day, at = _tomorrow()
    for _ in range(game_nights.UPCOMING_MAX):
        game_nights.propose(group, hashes, day, at, "UTC", "")
    with pytest.raises(Refused):
        game_nights.propose(group, hashes, day, at, "UTC", "")


def test_only_the_proposer_calls_a_game_off_before_its_table_opens() -> None:
    group, asha, bikash, _chandra = _group()
    _propose(_client(asha), group)
    night = GameNight.objects.get(group=group)
    url = f"/g/{group.code}/nights/{night.pk}/"
    page = f"/g/{group.code}/"
    assert 'data-testid="cancel-night"' not in _client(bikash).get(page).content.decode()
    assert _client(bikash).post(url, {"do": "cancel"}).status_code == 403
    assert 'data-testid="cancel-night"' in _client(asha).get(page).content.decode()
    assert _client(asha).post(url, {"do": "cancel"}).status_code == 302
    assert not GameNight.objects.exists() and not GameNightAnswer.objects.exists()
