"""A player's tournament in their games list (issue 30, part 5): the tournament is one game,
and it opens to the player's hands at every table they sat at, in order, each in the table's
replayer; never a hand of a table they did not sit at, never a card they did not see (P3)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.cards import Card
from engine.history import replay
from tables import claims, clock
from tables.models import FormerClaim, Hand, Seat, Table
from tables.models.tournament import Entrant, Tournament
from tables.read import tournament_history as history
from tables.write import lobby
from tables.write import tournament_setup as setup
from tests.engine.pokerstars import split_hands
from tests.tables.helpers import cards_in
from tests.tables.helpers.pages import page_text, seen_by
from tests.tables.helpers.tournaments import LATER, phones_with_claims, tables_of

pytestmark = pytest.mark.django_db(transaction=True)




def _tick_until(condition: Callable[[], bool], limit: int = 20_000) -> None:
    for _step in range(limit):
        if condition():
            return
        assert clock.tick(timezone.now() + LATER), "the tournament stalled"
    raise AssertionError("the state was not reached")


def _tables_sat_at(entrant: Entrant) -> set[int]:
    held = Seat.objects.filter(claim_hash=entrant.claim_hash).values_list("table_id", flat=True)
    former = FormerClaim.objects.filter(claim_hash=entrant.claim_hash).values_list(
        "table_id", flat=True
    )
    return set(held) | set(former)


def _mover(tournament: Tournament) -> Entrant | None:
    """A person who has played hands at two tables, while a third table (one they never sat
    at) has finished hands."""
    tables = {t.id for t in tables_of(tournament)}
    played = set(
        Hand.objects.filter(table_id__in=tables, ended_at__isnull=False)
        .values_list("table_id", flat=True)
    )
    for entrant in Entrant.objects.filter(tournament=tournament, is_computer=False):
        sat = _tables_sat_at(entrant)
        dealt = {
            row.table_id for row in Hand.objects.filter(table_id__in=sat, ended_at__isnull=False)
            if any(p["name"] == entrant.name for p in row.players)
        }
        if len(dealt) >= 2 and played - sat:
            return entrant
    return None


@pytest.fixture
def moved() -> tuple[Tournament, Entrant, Client, dict[str, Client]]:
    """An 18-player tournament of people (three full tables: every seat a player moves to was
    someone else's before), played until one of them has played at a second table."""
    people, phones = phones_with_claims(18)
    tournament = setup.create(people, entrants_wanted=18, computer_fill=False, level_hands=1)
    setup.start(tournament.id)
    _tick_until(lambda: _mover(tournament) is not None)
    mover = _mover(tournament)
    assert mover is not None
    return tournament, mover, phones[mover.name], phones


def test_a_tournament_is_one_game_in_the_players_list(
    moved: tuple[Tournament, Entrant, Client, dict[str, Client]],
) -> None:
    tournament, mover, phone, _phones = moved
    page = phone.get(reverse("tables:games")).content.decode()
    assert page.count('data-kind="tournament"') == 1
    assert f'data-code="{tournament.code}"' in page
    for table in tables_of(tournament):  # its tables are not listed apart
        assert f'data-code="{table.code}"' not in page
    assert reverse("tournament:hands", args=[tournament.code]) in page
    assert f"{mover.name}: still in" in page or f"{mover.name}: place" in page
    home = phone.get(reverse("home")).content.decode()
    assert home.count('data-kind="tournament"') == 1
    phone.cookies["django_language"] = "ne"
    nepali = phone.get(reverse("tables:games")).content.decode()
    assert "हरेक टेबलमा तपाईंका हात" in nepali and "Your hands at every table" not in nepali
    hands = phone.get(reverse("tournament:hands", args=[tournament.code])).content.decode()
    assert "तपाईंका हात" in hands and "टेबल" in hands


def test_a_player_who_moved_sees_their_hands_from_both_tables_and_none_of_the_others(
    moved: tuple[Tournament, Entrant, Client, dict[str, Client]],
) -> None:
    tournament, mover, phone, _phones = moved
    response = phone.get(reverse("tournament:hands", args=[tournament.code]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    page = response.content.decode()
    sat = _tables_sat_at(mover)
    listed = {
        t.code for t in tables_of(tournament) if f'data-testid="tournament-hands-table" '
        f'data-table="{t.tournament_number}" data-code="{t.code}"' in page
    }
    assert listed == {t.code for t in tables_of(tournament) if t.id in sat}
    assert len(listed) >= 2
    # Every hand they were dealt, at each table, and no other: by the names dealt in.
    expected = []
    for row in Hand.objects.filter(table_id__in=sat, ended_at__isnull=False, cancelled=False):
        if any(p["name"] == mover.name for p in row.players):
            expected.append((row.started_at, row.pk, row))
    expected.sort(key=lambda item: (item[0], item[1]))
    urls = [
        reverse("tables:hand", args=[row.table.code, row.number]) for _at, _pk, row in expected
    ]
    found = [u.split("?")[0] for u in _links(page)]
    assert found == urls  # in the order they were played
    for table in tables_of(tournament):
        if table.id not in sat:
            assert f"/t/{table.code}/" not in page


def _links(page: str) -> list[str]:
    return re.findall(r'href="(/t/[^"]+/hands/\d+/[^"]*)"', page.replace("&amp;", "&"))


def test_each_hand_opens_in_the_replayer_showing_only_what_the_player_saw(
    moved: tuple[Tournament, Entrant, Client, dict[str, Client]],
) -> None:
    tournament, mover, phone, _phones = moved
    page = phone.get(reverse("tournament:hands", args=[tournament.code])).content.decode()
    assert cards_in(page_text(page))  # their own cards are listed
    links = _links(page)
    assert links
    for url in links:
        code, number = url.split("/")[2], int(url.split("/")[4])
        row = Hand.objects.get(table__code=code, table__tournament=tournament, number=number)
        seat = next(int(p["seat"]) for p in row.players if p["name"] == mover.name)
        hand = replay(row.record)
        response = phone.get(url)
        assert response.status_code == 200, url
        shown = cards_in(page_text(response.content.decode()))
        assert shown <= seen_by(hand, seat), (url, shown - seen_by(hand, seat))
        assert set(hand.hole[hand.index_of(seat)]) <= shown  # their own cards


def test_a_seat_held_before_by_someone_else_shows_the_mover_none_of_their_hands(
    moved: tuple[Tournament, Entrant, Client, dict[str, Client]],
) -> None:
    """At the table they moved to, the seat was someone else's before: those hands are not
    the mover's, in the list or in the table's own history and replayer."""
    tournament, mover, phone, _phones = moved
    checked = 0
    for stint in history.stints(tournament, [mover.claim_hash]):
        mine = set(history.own_numbers(stint.table, stint.position, stint.name))
        others = Hand.objects.filter(table=stint.table, ended_at__isnull=False).exclude(
            number__in=mine
        )
        assert mine
        checked += len(others)
        code, seat = stint.table.code, f"?seat={stint.position}"
        for row in others:
            for name in ("tables:hand", "tables:hand_pokerstars", "tables:hand_phh"):
                url = reverse(name, args=[code, row.number]) + seat
                assert phone.get(url).status_code == 404, url
        listing = phone.get(reverse("tables:history", args=[code]) + seat).content.decode()
        assert all(f"/hands/{n}/" in listing for n in mine)
        assert not any(f"/hands/{row.number}/" in listing for row in others)
        stars = phone.get(reverse("tables:game_pokerstars", args=[code]) + seat)
        assert len(split_hands(stars.content.decode())) == len(mine)
    assert checked  # the seat they moved to had been someone else's


def test_only_the_players_of_the_tournament_open_its_hands(
    moved: tuple[Tournament, Entrant, Client, dict[str, Client]],
) -> None:
    tournament, _mover, _phone, _phones = moved
    url = reverse("tournament:hands", args=[tournament.code])
    response = Client().get(url)
    assert response.status_code == 403
    assert "Only the players of this tournament" in response.content.decode()
    assert Client().get(reverse("tables:games")).content.decode().count(
        'data-kind="tournament"'
    ) == 0


def test_a_table_with_no_tournament_stays_a_game_of_its_own() -> None:
    phone = Client()
    session = phone.session
    claim = claims.new_claim(session)
    session.save()
    table = Table.objects.create(code="ABC234", mode=Table.Mode.FRIENDS)
    Seat.objects.create(table=table, position=0, name="Asha", claim_hash=claim)
    page = phone.get(reverse("tables:games")).content.decode()
    assert 'data-code="ABC234"' in page and 'data-kind="tournament"' not in page


def test_a_player_who_left_sees_none_of_the_hands_the_computer_played_in_their_seat() -> None:
    """A computer takes the seat of a person who leaves and plays on under their name: the
    hands after they left are not theirs, in the list or in the replayer."""
    people, phones = phones_with_claims(1)
    (name, claim), phone = people[0], phones["Friend 0"]
    tournament = setup.create(people, entrants_wanted=7, level_hands=3)
    setup.start(tournament.id)
    entrant = Entrant.objects.get(tournament=tournament, claim_hash=claim)
    assert entrant.table_id is not None
    table = Table.objects.get(pk=entrant.table_id)
    done = Hand.objects.filter(table=table, ended_at__isnull=False)
    _tick_until(lambda: done.count() >= 2)
    lobby.leave_table(table.id, [claim])
    left_after = FormerClaim.objects.get(table=table, claim_hash=claim).last_hand
    _tick_until(lambda: done.filter(number__gt=left_after + 1).exists())
    later = [
        row for row in done.filter(number__gt=left_after)
        if any(p["name"] == name and p["is_computer"] for p in row.players)
    ]
    assert later  # the computer played on under their name
    page = phone.get(reverse("tournament:hands", args=[tournament.code])).content.decode()
    numbers = [int(u.split("/")[4]) for u in _links(page)]
    assert numbers and max(numbers) <= left_after
    # The cards the page may show: theirs and the boards of the hands they played.
    allowed = set().union(*(_seen(r, name) for r in done.filter(number__lte=left_after)))
    shown = cards_in(page_text(page))
    for row in later:
        assert f"/hands/{row.number}/" not in page
        computer = _seen(row, name) - set(replay(row.record).board)
        assert not (computer - allowed) & shown
        url = reverse("tables:hand", args=[table.code, row.number])
        assert phone.get(url).status_code == 404


def _seen(row: Hand, name: str) -> set[Card]:
    """The hole cards at ``name``'s seat in this hand and its board."""
    hand = replay(row.record)
    seat = next((int(p["seat"]) for p in row.players if p["name"] == name), None)
    if seat is None:
        return set(hand.board)
    return set(hand.hole[hand.index_of(seat)]) | set(hand.board)
