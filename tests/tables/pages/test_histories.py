"""Hand histories for players: who may open them, what they show, and the exports (P3)."""

from __future__ import annotations

import csv
import io
import re
import warnings

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pokerkit import HandHistory

from engine.cards import Card
from engine.history import replay
from tables.models import Hand, Seat, Table
from tables.write import moderation
from tests.engine.pokerstars import parse, split_hands
from tests.tables.helpers import cards_in, game_of, play_out
from tests.tables.helpers.pages import (
    ended_hands,
    friends_played,
    page_text,
    pass_and_play_played,
    play_until,
    seen_by,
    started,
)

pytestmark = pytest.mark.django_db


def hand_urls(table: Table, number: int) -> list[str]:
    return [
        reverse("tables:hand", args=[table.code, number]),
        reverse("tables:hand_pokerstars", args=[table.code, number]),
        reverse("tables:hand_phh", args=[table.code, number]),
    ]


def game_urls(table: Table) -> list[str]:
    return [
        reverse("tables:history", args=[table.code]),
        reverse("tables:game_pokerstars", args=[table.code]),
        reverse("tables:game_phh", args=[table.code]),
        reverse("tables:results_csv", args=[table.code]),
    ]


# ------------------------------------------------------------------------------ access
def test_only_players_of_the_table_or_staff_can_open_its_histories() -> None:
    table, (asha, bikash) = started("Asha", "Bikash")
    table = play_until(table, 1)
    _other, (chandra,) = started("Chandra")
    User.objects.create_user("bob", "bob@example.org", "a long secret")
    bob = Client()
    bob.login(username="bob", password="a long secret")
    urls = game_urls(table) + hand_urls(table, 1)
    for outsider in (Client(), chandra, bob):
        for url in urls:
            response = outsider.get(url)
            assert response.status_code == 403, url
            assert "Only the players who sat at this table can see its hands." in (
                response.content.decode()
            )
            assert "Dealt to" not in response.content.decode()
    staff = Client()
    staff.force_login(User.objects.create_user("alice", "a@example.org", "a long secret",
                                               is_staff=True))
    for client in (asha, bikash, staff):
        for url in urls:
            assert client.get(url).status_code == 200, url
    assert Client().get("/t/ZZZZZZ/hands/").status_code == 404
    assert Client().get("/t/not-a-code/hands/").status_code == 404


def listed(client: Client, table: Table) -> list[int]:
    page = client.get(reverse("tables:history", args=[table.code])).content.decode()
    return sorted(int(n) for n in re.findall(r'class="hand-no">.*?#(\d+)</span>', page, re.S))


def test_a_player_who_left_mid_game_still_sees_the_hands_they_played() -> None:
    table, (asha, bikash) = friends_played(2)
    seat = Seat.objects.get(table=table, name="Bikash").position
    left_in = game_of(table).hand_number  # running as he leaves: a computer finishes it
    assert bikash.post(reverse("tables:leave", args=[table.code])).status_code == 302
    table = play_until(table, left_in + 2)
    taken = Seat.objects.get(table=table, position=seat)
    assert taken.is_computer and not taken.claim_hash
    assert listed(bikash, table) == list(range(1, left_in + 1))
    assert len(listed(asha, table)) > left_in
    for number in range(1, left_in + 1):
        hand = replay(Hand.objects.get(table=table, number=number).record)
        for url in hand_urls(table, number):
            response = bikash.get(url)
            assert response.status_code == 200, url
            assert cards_in(page_text(response.content.decode())) <= seen_by(hand, seat), url
        stars = bikash.get(hand_urls(table, number)[1]).content.decode()
        assert "Dealt to Bikash [" in stars  # through his seat's eyes, his own cards
    for url in hand_urls(table, left_in + 1):  # a computer's hand at his old seat: not his
        assert bikash.get(url).status_code == 404
    stars = bikash.get(reverse("tables:game_pokerstars", args=[table.code])).content.decode()
    assert len(split_hands(stars)) == left_in
    assert Client().get(reverse("tables:history", args=[table.code])).status_code == 403


def test_a_person_a_moderator_removed_still_sees_the_hands_they_played() -> None:
    table, (_asha, bikash) = friends_played(1)
    seat = Seat.objects.get(table=table, name="Bikash").position
    moderation.remove_person(table.pk, seat, None, "test")
    assert bikash.get(reverse("tables:history", args=[table.code])).status_code == 200
    assert 1 in listed(bikash, table)


def test_a_running_hand_is_never_listed_shown_or_exported() -> None:
    table, (asha, _) = started("Asha", "Bikash")
    table = play_until(table, 2)
    game = game_of(table)
    assert game.hand is not None and not game.hand.finished
    running = game.hand_number
    hidden = set(game.hand.deck) - set(game.hand.board) - set(game.hand.hole[0])
    page = asha.get(reverse("tables:history", args=[table.code])).content.decode()
    numbers = [int(n) for n in re.findall(r'class="hand-no">.*?#(\d+)</span>', page, re.S)]
    assert sorted(numbers) == list(range(1, running))
    for url in hand_urls(table, running):
        assert asha.get(url).status_code == 404
    stars = asha.get(reverse("tables:game_pokerstars", args=[table.code])).content.decode()
    assert len(split_hands(stars)) == running - 1
    assert f"PokerStars Hand #{Hand.objects.get(table=table, number=running).pk}:" not in stars
    # The list shows only cards seen in the finished hands (your own, the boards): nothing of
    # the running hand beyond what they hold.
    seen: set[Card] = set()
    for row in Hand.objects.filter(table=table, ended_at__isnull=False):
        finished = replay(row.record)
        seen |= set(finished.board) | set(finished.hole[finished.seats.index(0)])
    assert cards_in(page_text(page)) <= seen
    assert hidden - seen, "the running hand holds cards no finished hand showed"


def test_a_cancelled_hand_is_not_listed() -> None:
    table, (asha, _) = started("Asha", "Bikash")
    table = play_until(table, 1)
    number = game_of(table).hand_number
    moderation.close_table(table.pk, None, "test")
    assert Hand.objects.get(table=table, number=number).cancelled
    page = asha.get(reverse("tables:history", args=[table.code])).content.decode()
    assert f"#{number}</span>" not in page
    assert asha.get(reverse("tables:hand", args=[table.code, number])).status_code == 404


# ------------------------------------------------------------------------------ privacy
def test_each_player_sees_only_their_cards_and_the_hands_shown() -> None:
    table, clients = friends_played(6)
    checked = 0
    for row, hand in ended_hands(table):
        for seat, client in enumerate(clients):
            allowed = seen_by(hand, seat)
            for url in hand_urls(table, row.number):
                response = client.get(url)
                assert response.status_code == 200
                found = cards_in(page_text(response.content.decode()))
                assert found <= allowed, (url, seat, found - allowed)
                checked += 1
            own = set(hand.hole[hand.seats.index(seat)]) if seat in hand.seats else set()
            stars = client.get(hand_urls(table, row.number)[1]).content.decode()
            assert own <= cards_in(stars)
    assert checked >= 6 * 2 * 3


def test_the_game_exports_hold_no_card_the_player_did_not_see() -> None:
    table, clients = friends_played(5)
    hands = [replay(r.record) for r in Hand.objects.filter(table=table, ended_at__isnull=False)
             .order_by("number")]
    for seat, client in enumerate(clients):
        stars = client.get(reverse("tables:game_pokerstars", args=[table.code])).content.decode()
        parts = split_hands(stars)
        assert len(parts) == len(hands)
        for part, hand in zip(parts, hands, strict=True):
            assert cards_in(part) <= seen_by(hand, seat)
        phhs = client.get(reverse("tables:game_phh", args=[table.code])).content.decode()
        for k, hand in enumerate(hands, start=1):
            block = phhs.split(f"[{k}]\n", 1)[1].split("\n[", 1)[0]
            written = set(re.findall(r"(?:[2-9TJQKA][shdc])", " ".join(
                re.findall(r'"(?:d dh p\d+|p\d+ sm|d db) ([^"]+)"', block))))
            assert {Card("23456789TJQKA".index(c[0]) + 2, c[1]) for c in written} <= (
                seen_by(hand, seat)
            )


def test_staff_see_every_hole_card_of_a_finished_hand() -> None:
    table, _ = started("Asha", "Bikash")
    table = play_until(table, 1)
    row = Hand.objects.get(table=table, number=1)
    hand = replay(row.record)
    staff = Client()
    staff.force_login(User.objects.create_user("alice", "a@example.org", "a long secret",
                                               is_staff=True))
    stars = staff.get(hand_urls(table, 1)[1]).content.decode()
    for i, _seat in enumerate(hand.seats):
        assert " ".join(str(c) for c in hand.hole[i]) in stars
    assert not cards_in(stars) & set(hand.burnt)


def test_a_phone_with_several_seats_picks_whose_eyes_it_looks_through() -> None:
    table, host = pass_and_play_played(3)
    for row, hand in ended_hands(table):
        for seat in (0, 1):
            url = hand_urls(table, row.number)[1] + f"?seat={seat}"
            text = host.get(url).content.decode()
            assert cards_in(text) <= seen_by(hand, seat)
            assert f"Dealt to {('Asha', 'Bikash')[seat]} [" in text
    listing = host.get(reverse("tables:history", args=[table.code]) + "?seat=1").content.decode()
    assert "?seat=1" in listing  # links keep the chosen seat


# ------------------------------------------------------------------------------ exports
def test_hand_exports_are_private_downloads_that_parse_back() -> None:
    table, (asha, _) = started("Asha", "Bikash")
    table = play_until(table, 3)
    row = Hand.objects.get(table=table, number=2)
    response = asha.get(hand_urls(table, 2)[1])
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="holdem-{table.code}-hand-2.txt"'
    )
    assert response["Cache-Control"] == "private, no-store"
    parsed = parse(response.content.decode())
    assert parsed.hand_id == row.pk and parsed.table == table.code
    assert parsed.max_seats == table.seat_count
    assert row.final_stacks is not None
    assert parsed.final == {p["name"]: row.final_stacks[str(p["seat"])] for p in row.players}
    phh = asha.get(hand_urls(table, 2)[2]).content.decode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = HandHistory.loads(phh)
    assert loaded.hand == row.pk and loaded.table == table.code
    assert loaded.players is not None and loaded.finishing_stacks is not None
    assert dict(zip(loaded.players, loaded.finishing_stacks, strict=True)) == parsed.final


def test_a_whole_game_exports_every_hand_and_the_results() -> None:
    table, (asha, bikash) = started("Asha", "Bikash", seats=3, length="30", blind_every="5")
    table = play_out(table.pk)
    assert table.status == Table.Status.FINISHED
    rows = list(Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number"))
    stars = asha.get(reverse("tables:game_pokerstars", args=[table.code])).content.decode()
    parts = split_hands(stars)
    assert [parse(p + "\n").hand_id for p in parts] == [r.pk for r in rows]
    phhs = bikash.get(reverse("tables:game_phh", args=[table.code])).content.decode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = list(HandHistory.loads_all(phhs))
    assert [h.hand for h in loaded] == [r.pk for r in rows]
    results = asha.get(reverse("tables:results_csv", args=[table.code]))
    assert results["Content-Type"] == "text/csv; charset=utf-8"
    lines = list(csv.reader(io.StringIO(results.content.decode())))
    standings = game_of(table).standings()
    assert [int(r[0]) for r in lines[1:]] == [s.place for s in standings]
    assert {r[1] for r in lines[1:]} >= {"Asha", "Bikash"}
    assert sum(int(r[2]) for r in lines[1:]) == 3000
    page = asha.get(reverse("tables:table", args=[table.code])).content.decode()
    assert reverse("tables:history", args=[table.code]) in page  # the game-over screen links


def test_the_pages_link_to_the_exports() -> None:
    table, (asha, _) = started("Asha", "Bikash")
    table = play_until(table, 2)
    listing = asha.get(reverse("tables:history", args=[table.code])).content.decode()
    for url in game_urls(table)[1:]:
        assert f'href="{url}"' in listing
    assert f'href="{reverse("tables:hand", args=[table.code, 1])}"' in listing
    page = asha.get(reverse("tables:hand", args=[table.code, 1])).content.decode()
    for url in hand_urls(table, 1)[1:]:
        assert f'href="{url}"' in page
    assert 'id="replay-data"' in page
