"""The tournament's host at one of its tables (tables.write.tournament_control, tables.live.host):
the host's sheet holds the tournament's controls; the host ends the tournament (hands called
off, everyone still in placed by chips, every table over) and lets the computer play for an
away entrant; nobody else can; a tournament that is over says so to anyone joining; its end is
celebrated by name, "you" marked."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from tables import claims
from tables.cache import load_snapshot
from tables.draw.tournament_line import over_here
from tables.live import host as live_host
from tables.models import Seat, Table
from tables.models.tournament import Entrant, Tournament
from tables.write import tournament_control as control
from tables.write import tournament_setup as setup
from tables.write.path import Refused
from tests.tables.helpers import new_session
from tests.tables.helpers.tournaments import chips, fire, game, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament() -> tuple[Tournament, SessionStore, SessionStore]:
    """Asha (the host), Bikash and six computers, started (two tables)."""
    asha, bikash = new_session(), new_session()
    tournament = setup.create(
        [("Asha", claims.new_claim(asha)), ("Bikash", claims.new_claim(bikash))],
        entrants_wanted=8, level_hands=2, computer_level="easy",
    )
    asha.save()
    bikash.save()
    setup.start(tournament.id)
    tournament.refresh_from_db()
    return tournament, asha, bikash


def _seat_of(tournament: Tournament, session: SessionStore) -> Seat:
    return Seat.objects.get(
        table__tournament=tournament, claim_hash__in=claims.session_hashes(session)
    )


def test_the_tournament_host_finds_the_tournaments_controls_at_any_of_its_tables() -> None:
    tournament, asha, bikash = _tournament()
    for table in tables_of(tournament):
        menu = live_host.menu_html(table.id, claims.session_hashes(asha), "en")
        assert 'data-host="1"' in menu
        for control_id in ("host-tournament-pause", "host-tournament-end"):
            assert f'data-testid="{control_id}"' in menu
        assert 'data-host="0"' in live_host.menu_html(
            table.id, claims.session_hashes(bikash), "en"
        )


def test_only_the_host_ends_the_tournament_and_everyone_still_in_is_placed_by_chips() -> None:
    tournament, asha, bikash = _tournament()
    total = chips(tournament)
    with pytest.raises(Refused) as refused:
        control.end(tournament.id, claims.session_hashes(bikash))
    assert refused.value.code == "not_host"
    running = {t.id: game(t).hand_number for t in tables_of(tournament)}
    control.end(tournament.id, claims.session_hashes(asha))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at
    entrants = list(tournament.entrants.all())
    assert sorted(e.place or 0 for e in entrants)[0] == 1 and all(e.place for e in entrants)
    by_chips: dict[tuple[int | None, int | None], int] = {}
    for table in tables_of(tournament):
        assert table.status == Table.Status.FINISHED
        assert game(table).hand_number == running[table.id] and not game(table).hand_running
        by_chips.update({(table.id, p): s.stack for p, s in game(table).seats.items()})
    assert sum(by_chips.values()) == total  # every chip back where its hand began
    ranked = sorted(entrants, key=lambda e: e.place or 0)
    stacks = [by_chips[(e.table_id, e.position)] for e in ranked]
    assert stacks == sorted(stacks, reverse=True)
    with pytest.raises(Refused):
        control.end(tournament.id, claims.session_hashes(asha))


def test_the_host_lets_the_computer_play_for_an_away_entrant() -> None:
    tournament, asha, bikash = _tournament()
    seat = _seat_of(tournament, bikash)
    with pytest.raises(Refused) as refused:
        control.computer_plays(seat.table_id, claims.session_hashes(asha), seat.position)
    assert refused.value.code == "not_away"
    Seat.objects.filter(pk=seat.pk).update(away=True)
    Table.objects.filter(pk=seat.table_id).update(version=seat.table.version + 1)
    with pytest.raises(Refused) as refused:
        control.computer_plays(seat.table_id, claims.session_hashes(bikash), seat.position)
    assert refused.value.code == "not_host"
    control.computer_plays(seat.table_id, claims.session_hashes(asha), seat.position)
    seat.refresh_from_db()
    assert seat.is_computer and not seat.claim_hash
    assert Entrant.objects.get(tournament=tournament, name="Bikash").place is None


def test_joining_a_tournament_that_is_over_says_it_is_over() -> None:
    tournament, asha, _bikash = _tournament()
    control.end(tournament.id, claims.session_hashes(asha))
    with pytest.raises(Refused) as refused:
        setup.join(tournament.id, "Chandra", "a" * 64)
    assert refused.value.code == "over" and "over" in refused.value.message


def _one_hand_played(tournament: Tournament) -> None:
    """A hand played to its end at the first table: someone has more chips than anyone."""
    table = tables_of(tournament)[0]
    number = game(table).hand_number
    for _step in range(500):
        table.refresh_from_db()
        if game(table).hand_number > number or not game(table).hand_running:
            return
        assert fire(table)
    raise AssertionError("the hand did not end")


def test_the_end_names_the_winner_and_marks_you() -> None:
    tournament, asha, bikash = _tournament()
    _one_hand_played(tournament)
    control.end(tournament.id, claims.session_hashes(asha))
    winners = list(Entrant.objects.filter(tournament=tournament, place=1).order_by("id"))
    winner = winners[0]  # (two sharing the first place: a split pot, seldom)
    assert winner.table_id is not None and winner.position is not None
    snapshot = load_snapshot(winner.table_id)
    assert snapshot is not None
    won = over_here(snapshot, (winner.position,))
    assert won is not None and won["won"] and won["winner"] == winner.name
    assert [p["you"] for p in won["places"]].count(True) == 1
    seen = over_here(snapshot, ())
    assert seen is not None and not seen["won"] and seen["you_place"] is None
    # The tournament's page: the places, with this phone's entrant marked.
    client = Client()
    client.cookies["sessionid"] = str(bikash.session_key)
    page = client.get(reverse("tournament:page", args=[tournament.code])).content.decode()
    assert page.count('data-testid="place-you"') == 1
    if len(winners) == 1:
        assert ('data-testid="tournament-won"' in page) == (winner.name == "Bikash")
