"""The recap of a whole tournament on its page once it is over (issue 30, part 3): places with
names, who knocked out whom, the biggest pot across all tables, the hands played, how long it
took; drawn from the stored hands, in English and in Nepali."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from engine.history import replay
from engine.pots import Award, Pot
from tables.models import Hand
from tables.models.tournament import Entrant, Tournament
from tables.read import tournament_recap as recap
from tests.tables.helpers.tournaments import computer_tournament, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def over() -> Tournament:
    tournament = computer_tournament(12, level_hands=1)  # two tables; the blinds rise quickly
    play_to_the_end(tournament)
    tournament.refresh_from_db()
    return tournament


def _page(tournament: Tournament, language: str = "en") -> str:
    phone = Client()
    phone.cookies["django_language"] = language
    response = phone.get(reverse("tournament:page", args=[tournament.code]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _section(page: str) -> str:
    found = re.search(r'data-testid="tournament-recap".*?</section>', page, flags=re.S)
    assert found is not None, "no recap on the page"
    return found.group(0)


def test_the_recap_lists_every_place_with_its_name_once(over: Tournament) -> None:
    part = _section(_page(over))
    names = re.findall(r'class="tourney-place__name">([^<]+)', part)
    expected = list(
        Entrant.objects.filter(tournament=over).order_by("place").values_list("name", flat=True)
    )
    assert [n.strip() for n in names] == expected
    assert len(expected) == 12
    numbers = re.findall(r'class="tourney-place__n">(\d+)<', part)
    places = list(
        Entrant.objects.filter(tournament=over).order_by("place").values_list("place", flat=True)
    )
    assert numbers == [str(p) for p in places]
    # 1 to 12, except that players out in the same hand with the same chips share a place
    # (T6): the next place is then skipped, as on a results sheet.
    assert places[0] == 1
    for i, place in enumerate(places[1:], start=1):
        assert place == places[i - 1] or place == i + 1, places


def test_each_player_out_was_knocked_out_by_a_winner_of_the_hand_they_went_out_in(
    over: Tournament,
) -> None:
    made = recap.recap(over)
    assert made is not None
    outs = [p for p in made.places if p.place > 1]
    assert len(outs) == 11
    for place in outs:
        assert place.out_table is not None and place.out_hand is not None
        row = Hand.objects.get(
            table__tournament=over, table__tournament_number=place.out_table,
            number=place.out_hand,
        )
        names = {int(p["seat"]): p["name"] for p in row.players}
        seat = next(s for s, n in names.items() if n == place.name)
        assert (row.final_stacks or {})[str(seat)] == 0  # they went out in that hand
        hand = replay(row.record)
        gainers = {names[a.seat] for a in hand.awards}
        assert place.by, place.name
        assert set(place.by) <= gainers and place.name not in place.by
    part = _section(_page(over))
    for place in outs:
        assert (
            f"out to {', '.join(place.by)} (table {place.out_table}, hand {place.out_hand})"
        ) in part


def test_the_recap_shows_the_biggest_pot_across_all_tables_and_the_hands_played(
    over: Tournament,
) -> None:
    rows = list(Hand.objects.filter(
        table__tournament=over, ended_at__isnull=False, cancelled=False
    ).select_related("table"))
    tables = {row.table.tournament_number for row in rows}
    assert len(tables) == 2  # hands at both tables count
    pots = []
    for row in rows:
        hand = replay(row.record)
        # The pot is every chip the players put in; the awards give it back out.
        put_in = sum(hand.total)
        assert put_in == sum(a.amount for a in hand.awards)
        pots.append((put_in, row))
    amount, row = max(pots, key=lambda item: item[0])
    part = _section(_page(over))
    assert f'data-testid="recap-hands">{len(rows)} ' in part
    assert "at 2 tables" in part
    biggest = re.search(r'data-testid="recap-biggest-pot">([^<]+)<', part)
    assert biggest is not None
    assert biggest.group(1).startswith(f"{amount} chips, won by ")
    assert any(
        biggest.group(1).endswith(f"(table {r.table.tournament_number}, hand {r.number})")
        for pot, r in pots if pot == amount
    )


def test_the_recap_says_how_long_the_tournament_took(over: Tournament) -> None:
    assert over.started_at is not None
    Tournament.objects.filter(pk=over.pk).update(
        finished_at=over.started_at + timedelta(minutes=83, seconds=10)
    )
    over.refresh_from_db()
    assert re.search(r'data-testid="recap-time">1 h 23 min<', _section(_page(over)))
    Tournament.objects.filter(pk=over.pk).update(
        finished_at=over.started_at + timedelta(minutes=41)
    )
    over.refresh_from_db()
    assert re.search(r'data-testid="recap-time">41 minutes<', _section(_page(over)))
    Tournament.objects.filter(pk=over.pk).update(
        finished_at=over.started_at + timedelta(seconds=20)
    )
    over.refresh_from_db()
    assert re.search(r'data-testid="recap-time">less than a minute<', _section(_page(over)))


def test_the_recap_speaks_nepali(over: Tournament) -> None:
    part = _section(_page(over, "ne"))
    for words in ("सारांश", "खेलिएका हात", "सबैभन्दा ठूलो पोट", "लागेको समय", "ले बाहिर पारे",
                  "चिप,", "2 टेबलमा"):
        assert words in part, words
    assert "out to" not in part and "Biggest pot" not in part


def test_no_recap_while_the_tournament_is_played() -> None:
    tournament = computer_tournament(7, level_hands=1)
    assert recap.recap(tournament) is None
    assert 'data-testid="tournament-recap"' not in _page(tournament)


def test_a_player_out_with_the_more_chips_goes_to_the_winner_of_their_side_pot() -> None:
    """All in: seats 0 and 4 with few chips (the main pot only), seats 1 and 2 with more (the
    main pot and a side pot). Seat 0 won the main pot, seat 1 the side pot: seat 2's last chips
    were in the side pot, so seat 1 knocked seat 2 out; seat 0 knocked seat 4 out."""

    class Finished:
        seats = [0, 1, 2, 4]
        pots = [Pot(400, (0, 1, 2, 3)), Pot(300, (1, 2))]
        awards = [Award(1, 1, 300, None), Award(0, 0, 400, None)]

        def index_of(self, seat: int) -> int:
            return self.seats.index(seat)

    hand = Finished()
    assert recap.knockers(hand, 2) == [1]  # type: ignore[arg-type]
    assert recap.knockers(hand, 4) == [0]  # type: ignore[arg-type]
