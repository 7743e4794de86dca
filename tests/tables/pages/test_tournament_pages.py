"""A tournament's pages (issue 30): creating one on /new/, the waiting page (share link, code,
QR, who joined, the join form and its refusals, the host's Start sending each phone to its
table), the lobby once started, the host's pause and resume, and the results as CSV."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import claims, clock
from tables.models import Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament
from tables.write import tournament_control as control
from tables.write import tournament_setup as setup
from tables.write.path import Refused
from tests.tables.helpers.tournaments import (
    LATER,
    computer_tournament,
    play_to_the_end,
    tables_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _form(**fields: str) -> dict[str, str]:
    data = {
        "mode": "tournament", "name": "Asha", "entrants": "7", "fill": "yes",
        "level_length": "m10", "turn_seconds": "30", "level": "easy",
    }
    data.update(fields)
    return data


def _create(**fields: str) -> tuple[Tournament, Client]:
    host = Client()
    response = host.post(reverse("tables:create") + "?mode=tournament", _form(**fields))
    assert response.status_code == 302, response.content.decode()[:2000]
    code = response["Location"].strip("/").split("/")[-1]
    assert response["Location"] == reverse("tournament:page", args=[code])
    return Tournament.objects.get(code=code), host


def _join(tournament: Tournament, name: str, phone: Client | None = None) -> Client:
    phone = phone or Client()
    response = phone.post(reverse("tournament:join", args=[tournament.code]), {"name": name})
    assert response.status_code == 302
    return phone


def _page(phone: Client, tournament: Tournament) -> str:
    response = phone.get(reverse("tournament:page", args=[tournament.code]))
    assert response.status_code == 200
    return response.content.decode()


def _tick_until(condition: object, limit: int = 3000) -> None:
    for _step in range(limit):
        if callable(condition) and condition():
            return
        clock.tick(timezone.now() + LATER)
    raise AssertionError("the state was not reached")


# ---------------------------------------------------------------------------------- create
def test_a_tournament_is_a_way_to_play_on_the_new_page() -> None:
    page = Client().get(reverse("tables:create") + "?mode=tournament").content.decode()
    assert 'data-testid="tournament-form"' in page
    for field in ("entrants", "fill", "level_length", "turn_seconds", "level"):
        assert f'name="{field}"' in page
    assert 'value="m10" checked' in page  # levels by time by default
    home = Client().get(reverse("home")).content.decode()
    assert "?mode=tournament" in home


def test_creating_sends_the_host_to_the_waiting_page_with_the_link_code_and_qr() -> None:
    tournament, host = _create(entrants="12", level_length="h10", turn_seconds="45",
                               level="hard", fill="no")
    assert (tournament.entrants_wanted, tournament.computer_fill) == (12, False)
    assert (tournament.level_hands, tournament.level_minutes) == (10, None)
    assert (tournament.turn_seconds, tournament.computer_level) == (45, "hard")
    entrant = Entrant.objects.get(tournament=tournament)
    assert entrant.name == "Asha"
    assert entrant.claim_hash in claims.session_hashes(host.session)
    assert tournament.host_claim == entrant.claim_hash
    page = _page(host, tournament)
    pretty = f"{tournament.code[:3]} {tournament.code[3:]}"
    assert pretty in page
    assert f"/tournament/{tournament.code}/" in page  # the share link
    assert "<svg" in page and 'data-testid="join-qr"' in page
    assert 'data-testid="start-tournament"' in page
    assert 'data-testid="join-form"' not in page  # the host is in already


def test_creating_refuses_a_size_outside_7_to_36() -> None:
    for size in ("6", "37"):
        response = Client().post(reverse("tables:create"), _form(entrants=size))
        assert response.status_code == 200
        assert 'class="errorlist"' in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_table_outside_any_tournament_leads_to_no_tournament() -> None:
    table = Table.objects.create(code="ABC234", mode=Table.Mode.FRIENDS)
    for code in (table.code, "ZZZZZZ", "!!"):
        response = Client().get(reverse("tournament:of_table", args=[code]))
        assert response.status_code == 404
        assert "This table is not part of a tournament." in response.content.decode()


# ---------------------------------------------------------------------------------- join
def test_a_new_phone_joins_by_name_and_everyone_sees_it() -> None:
    tournament, host = _create()
    stranger = Client()
    assert 'data-testid="join-form"' in _page(stranger, tournament)
    _join(tournament, "Bina", stranger)
    bina = Entrant.objects.get(tournament=tournament, name="Bina")
    assert bina.claim_hash in claims.session_hashes(stranger.session)
    page = _page(stranger, tournament)
    assert 'data-testid="join-form"' not in page
    assert 'data-testid="waiting-for-host"' in page
    assert 'data-testid="start-tournament"' not in page  # only the host starts
    live = host.get(reverse("tournament:live", args=[tournament.code]) + "?from=waiting")
    assert live.status_code == 200
    text = live.content.decode()
    assert "Bina" in text and "2 players have joined" in text
    assert 'hx-trigger="every 3s"' in text


def test_refusals_are_shown_name_taken_full_and_started() -> None:
    tournament, _host = _create(entrants="7")
    taken = _join(tournament, "asha")
    assert "already called asha" in _page(taken, tournament)
    assert Entrant.objects.filter(tournament=tournament).count() == 1
    assert not claims.session_hashes(taken.session)  # a refused claim is forgotten
    for n in range(6):
        _join(tournament, f"P{n}")
    late = _join(tournament, "Late")
    assert "This tournament is full." in _page(late, tournament)
    assert Entrant.objects.filter(tournament=tournament).count() == 7

    other, host2 = _create(entrants="9")
    assert host2.post(reverse("tournament:start", args=[other.code])).status_code == 302
    after = _join(other, "Dev")
    page = _page(after, other)
    assert "already started" in page
    assert not Entrant.objects.filter(tournament=other, name="Dev").exists()


def test_only_the_host_starts() -> None:
    tournament, _host = _create()
    phone = _join(tournament, "Bina")
    response = phone.post(reverse("tournament:start", args=[tournament.code]), follow=True)
    assert "Only the host can do that." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.WAITING


# ---------------------------------------------------------------------------------- start
def test_start_sends_each_person_to_their_own_table() -> None:
    tournament, host = _create(entrants="9")
    phones = {"Asha": host, "Bina": _join(tournament, "Bina"), "Chet": _join(tournament, "Chet")}
    response = host.post(reverse("tournament:start", args=[tournament.code]))
    asha = Entrant.objects.select_related("table").get(tournament=tournament, name="Asha")
    assert asha.table is not None
    assert response["Location"] == reverse("tables:table", args=[asha.table.code])
    for name, phone in phones.items():
        entrant = Entrant.objects.select_related("table").get(tournament=tournament, name=name)
        assert entrant.table is not None
        if name != "Asha":  # the waiting page's next poll sends the phone there
            live = phone.get(
                reverse("tournament:live", args=[tournament.code]) + "?from=waiting",
                HTTP_HX_REQUEST="true",
            )
            assert live["HX-Redirect"] == reverse("tables:table", args=[entrant.table.code])
        seat = Seat.objects.get(table=entrant.table, name=name)
        assert seat.claim_hash in claims.session_hashes(phone.session)  # the seat is theirs
        table_page = phone.get(reverse("tables:table", args=[entrant.table.code]))
        assert table_page.status_code == 200
        assert list(table_page.context["persp"].mine) == [seat.position]
    # A spectator's waiting page shows the lobby instead.
    spectator = Client().get(
        reverse("tournament:live", args=[tournament.code]) + "?from=waiting",
        HTTP_HX_REQUEST="true",
    )
    assert spectator["HX-Refresh"] == "true"


# ---------------------------------------------------------------------------------- lobby
def test_the_lobby_shows_tables_players_stacks_level_and_places() -> None:
    tournament, host = _create(entrants="13", level_length="m15")
    _join(tournament, "Bina")
    host.post(reverse("tournament:start", args=[tournament.code]))
    tables = tables_of(tournament)
    assert len(tables) == 3
    page = _page(Client(), tournament)
    assert page.count('data-testid="tournament-table"') == 3
    for table in tables:
        assert reverse("tables:table", args=[table.code]) in page  # open it to watch
    for entrant in Entrant.objects.filter(tournament=tournament):
        assert entrant.name in page
    assert re.search(r'data-testid="level">1 · 10/20<', page)
    assert re.search(r'data-testid="next-level">in 1[45] minutes', page)
    assert re.search(r'data-testid="players-left">13 / 13<', page)
    assert re.search(r'data-testid="average-stack">1000<', page)
    assert 'data-testid="pause"' not in page  # a spectator has no host controls
    mine = _page(host, tournament)
    assert "Your table" in mine and 'data-testid="pause"' in mine

    _tick_until(lambda: Entrant.objects.filter(tournament=tournament, place__isnull=False)
                .exists())
    out = Entrant.objects.filter(tournament=tournament, place__isnull=False).order_by("place")
    page = _page(Client(), tournament)
    assert 'data-testid="places"' in page
    for entrant in out:
        assert f"{entrant.place}</span><span class=\"tourney-place__name\">{entrant.name}" in page
    left = Entrant.objects.filter(tournament=tournament, place=None).count()
    assert f'data-testid="players-left">{left} / 13<' in page
    assert f'data-testid="average-stack">{13000 // left}<' in page


def test_levels_by_hands_show_the_hands_to_the_next() -> None:
    tournament = setup.create(entrants_wanted=7, level_hands=5)
    setup.start(tournament.id)
    page = _page(Client(), tournament)
    assert re.search(r'data-testid="next-level">after 4 more hands', page)  # hand 1 is dealt
    hands = Hand.objects.filter(table__tournament=tournament)
    _tick_until(lambda: hands.filter(number=5).exists())
    busiest = max(h.number for h in hands)
    assert busiest == 5  # a tick deals one hand at most at each table
    # Hands 2 to 5 were dealt at level 1: the next one is dealt at level 2.
    assert 'data-testid="next-level">from the next hand' in _page(Client(), tournament)


# ---------------------------------------------------------------------------------- pause
def _held() -> bool:
    return all(t.paused for t in Table.objects.filter(status=Table.Status.PLAYING))  # one test's


def test_pause_stops_dealing_and_resume_restarts() -> None:
    tournament, host = _create(entrants="8", level="easy")
    host.post(reverse("tournament:start", args=[tournament.code]))
    assert len(tables_of(tournament)) == 2
    stranger = Client()
    refused = stranger.post(reverse("tournament:pause", args=[tournament.code]), follow=True)
    assert "Only the host can do that." in refused.content.decode()
    host.post(reverse("tournament:pause", args=[tournament.code]))
    tournament.refresh_from_db()
    assert tournament.paused
    assert 'data-testid="paused"' in _page(stranger, tournament)
    # The hands in progress play to their end; then no table deals a new one.
    _tick_until(_held)
    hands = Hand.objects.filter(table__tournament=tournament).count()
    for _step in range(20):
        assert clock.tick(timezone.now() + LATER) == 0
    assert Hand.objects.filter(table__tournament=tournament).count() == hands
    assert all(t.paused for t in tables_of(tournament) if t.status == Table.Status.PLAYING)
    page = _page(host, tournament)
    assert 'data-testid="resume"' in page

    host.post(reverse("tournament:resume", args=[tournament.code]))
    tournament.refresh_from_db()
    assert not tournament.paused
    assert not any(t.paused for t in tables_of(tournament))
    _tick_until(lambda: Hand.objects.filter(table__tournament=tournament).count() > hands)


# ---------------------------------------------------------------------------------- results
def test_the_end_shows_the_places_and_the_results_csv() -> None:
    tournament = computer_tournament(7, level_hands=1)  # quick: the blinds rise every hand
    play_to_the_end(tournament)
    page = _page(Client(), tournament)
    assert 'data-testid="tournament-over"' in page
    assert page.count('data-testid="place"') == 7
    assert "hx-trigger" not in page  # nothing left to poll
    response = Client().get(reverse("tournament:results_csv", args=[tournament.code]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["place", "name", "computer", "out_at_table", "out_in_hand"]
    assert [int(r[0]) for r in rows[1:]] == list(range(1, 8))
    for place, name, computer, out_table, out_hand in rows[1:]:
        entrant = Entrant.objects.get(tournament=tournament, name=name)
        assert entrant.place == int(place) and computer == "yes"
        if place == "1":
            assert (out_table, out_hand) == ("", "")
        else:
            assert int(out_table) == entrant.bust_table and int(out_hand) == entrant.bust_hand


def test_the_home_page_code_form_joins_a_tournament() -> None:
    tournament, _host = _create()
    phone = Client()
    typed = f" {tournament.code[:3].lower()} {tournament.code[3:]} "
    response = phone.post(reverse("tables:join_code"), {"code": typed, "name": "Bina"})
    assert response["Location"] == reverse("tournament:page", args=[tournament.code])
    bina = Entrant.objects.get(tournament=tournament, name="Bina")
    assert bina.claim_hash in claims.session_hashes(phone.session)
    missing = Client().post(reverse("tables:join_code"), {"code": "ZZZ999", "name": "X"})
    assert missing.status_code == 404


def test_pause_and_resume_refuse_what_makes_no_sense() -> None:
    tournament, host = _create()
    hashes = claims.session_hashes(host.session)
    with pytest.raises(Refused) as waiting:
        control.pause(tournament.id, hashes)
    assert waiting.value.code == "not_playing"
    setup.start(tournament.id)
    with pytest.raises(Refused) as stranger:
        control.pause(tournament.id, ["someone else"])
    assert stranger.value.code == "not_host"
    with pytest.raises(Refused) as not_paused:
        control.resume(tournament.id, hashes)
    assert not_paused.value.code == "not_paused"
    control.pause(tournament.id, hashes)
    with pytest.raises(Refused) as twice:
        control.pause(tournament.id, hashes)
    assert twice.value.code == "already_paused"
    control.resume(tournament.id, hashes)
    tournament.refresh_from_db()
    assert not tournament.paused and tournament.status == Tournament.Status.PLAYING


def test_the_pages_speak_nepali() -> None:
    phone = Client()
    phone.cookies["django_language"] = "ne"
    create = phone.get(reverse("tables:create") + "?mode=tournament").content.decode()
    assert "प्रतियोगिता बनाउनुहोस्" in create and "खेलाडीको सङ्ख्या" in create
    tournament, host = _create()
    host.cookies["django_language"] = "ne"
    waiting = _page(host, tournament)
    assert "प्रतियोगिता सुरु गर्नुहोस्" in waiting and "खेलाडी सामेल हुनुभयो" in waiting
    host.post(reverse("tournament:start", args=[tournament.code]))
    lobby = _page(host, tournament)
    assert "बाँकी खेलाडी" in lobby and "औसत चिप" in lobby and "प्रतियोगिता रोक्नुहोस्" in lobby


def test_a_pause_stops_the_minutes_of_a_level() -> None:
    tournament, host = _create(entrants="7", level_length="m10")
    host.post(reverse("tournament:start", args=[tournament.code]))
    hashes = claims.session_hashes(host.session)
    now = timezone.now()
    # 5 minutes played, then a 20-minute pause: the blinds stay at level 1.
    Tournament.objects.filter(pk=tournament.id).update(started_at=now - timedelta(minutes=25))
    control.pause(tournament.id, hashes)
    Tournament.objects.filter(pk=tournament.id).update(paused_at=now - timedelta(minutes=20))
    control.resume(tournament.id, hashes)
    tournament.refresh_from_db()
    assert 1199 <= tournament.paused_seconds <= 1260 and tournament.paused_at is None
    assert re.search(r'data-testid="next-level">in [56] minutes', _page(host, tournament))
    hands = Hand.objects.filter(table__tournament=tournament).count()
    _tick_until(lambda: Hand.objects.filter(table__tournament=tournament).count() > hands + 2)
    tournament.refresh_from_db()
    assert tournament.level == 0  # by 25 minutes since the start: 2 (the third level)
