"""Your games, groups and their season, the statistics (issue 26): three phones play three
games through the pages; a fourth phone with the group's link sees the standings and the
statistics, which match a count made again from the players' PHH exports; it is refused the
hands themselves."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.cards import Card
from engine.history import replay
from engine.phh.read import read_phh
from engine.phh.replay import replay_phh
from engine.stats import PublicHand, Tally, summarize
from tables import claims, clock
from tables.models import Group, GroupGame, Hand, ModerationAction, Seat, Table
from tables.read.statistics import results
from tables.write import groups, play
from tests.engine.helpers import random_pick
from tests.tables.helpers import client_lobby, game_of, leaked_cards

pytestmark = pytest.mark.django_db


Played = tuple[list[Table], list[Client], Group]


def _play(table_id: int, phones: list[Client], rng: random.Random) -> Table:
    """Play a started table to its end: each person, on their own phone's claims, checks,
    calls, raises or folds at random (the clock moves the computer player)."""
    hashes = {
        seat.position: claims.session_hashes(phone.session)
        for phone in phones
        for seat in Seat.objects.filter(table_id=table_id)
        if seat.claim_hash in claims.session_hashes(phone.session)
    }
    for _ in range(20_000):
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return table
        if table.deadline_kind != Table.Deadline.TURN:
            clock.tick(timezone.now() + timedelta(minutes=5))
            continue
        hand = game_of(table).hand
        assert hand is not None
        legal = hand.legal_actions()
        assert legal is not None
        kind, amount = random_pick(legal, rng.random(), 0.15, 0.35)
        play.act(table_id, hashes[legal.seat], kind=kind, amount=amount,
                 version=table.version, action_id=play.random_action_id())
    raise AssertionError("the game did not end")


def _three_games() -> Played:
    table, phones = client_lobby("Asha", "Bikash", "Chandra", seats=4, length="30")
    host = phones[0]
    played = []
    for game in range(3):
        assert host.post(reverse("tables:start", args=[table.code])).status_code in (200, 302)
        table = _play(table.pk, phones, random.Random(game))
        played.append(table)
        if game < 2:
            response = host.post(reverse("tables:again", args=[table.code]),
                                 {"points": "10-7-5-3-2-1"})
            assert response.status_code == 302
            following = Table.objects.get(pk=table.pk).next_table
            assert following is not None
            table = following
    group = GroupGame.objects.get(table=played[0]).group
    return played, phones, group


@pytest.fixture(scope="module")
def season_played(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    with django_db_blocker.unblock():
        tables, phones, group = _three_games()
        yield tables, phones, group
        Group.objects.filter(pk=group.pk).delete()
        Table.objects.filter(pk__in=[t.pk for t in tables]).delete()


def _phh_tallies(phone: Client, code: str) -> dict[str, Tally]:
    """Each player's counts made again from a player's PHH export of a game (their own view:
    opponents' mucked hands stay hidden), by name."""
    text = phone.get(reverse("tables:game_phh", args=[code])).content.decode()
    out: dict[str, Tally] = {}
    for chunk in re.split(r"^\[\d+\]\n", text, flags=re.M)[1:]:
        phh = read_phh(chunk)
        hand = replay_phh(phh, mucked_lose=True).hand
        assert phh.players is not None
        names = dict(zip(phh.seats, phh.players, strict=True))
        for seat, t in summarize(PublicHand.of(hand)).tallies.items():
            out.setdefault(names[seat], Tally()).add(t)
    return out


def test_three_games_played_again_make_one_group_with_every_game(
    season_played: Played,
) -> None:
    tables, _phones, group = season_played
    assert set(GroupGame.objects.filter(group=group).values_list("table", flat=True)) == {
        t.pk for t in tables
    }
    assert group.points == "10-7-5-3-2-1" and group.name == "Asha, Bikash and Chandra"


def test_a_fourth_phone_with_the_link_sees_standings_counting_points_per_place(
    season_played: Played,
) -> None:
    tables, _phones, group = season_played
    stranger = Client()
    page = stranger.get(reverse("tables:group", args=[group.code]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "data-testid=\"season-standings\"" in text and "season-graph" in text
    season = groups.season(group)
    points = [0, 10, 7, 5, 3, 2, 1]
    expected: dict[str, int] = {}
    for table in tables:
        for r in results(table):
            expected[r.name] = expected.get(r.name, 0) + (points[r.place] if r.place else 0)
    assert {line.name: line.points for line in season.lines} == expected
    assert all(line.games == 3 for line in season.lines)
    assert sum(line.wins for line in season.lines) >= 3


def test_the_seasons_statistics_match_a_recount_from_the_exported_hands(
    season_played: Played,
) -> None:
    tables, phones, group = season_played
    recount: dict[str, Tally] = {}
    for table in tables:
        for name, t in _phh_tallies(phones[1], table.code).items():
            recount.setdefault(name, Tally()).add(t)
    season = groups.season(group)
    assert {line.name: line.tally for line in season.lines} == recount
    people = [recount[name] for name in ("Asha", "Bikash", "Chandra")]
    assert all(t.vpip and t.flops_seen for t in people)  # real play, not only folds
    assert sum(t.showdowns for t in people) and sum(t.postflop_aggressive for t in people)


def test_a_phone_that_never_sat_is_refused_every_hand_and_export(
    season_played: Played,
) -> None:
    tables, _phones, group = season_played
    stranger = Client()
    for table in tables:
        for name in ("history", "game_phh", "game_pokerstars", "results_csv", "recap"):
            assert stranger.get(reverse(f"tables:{name}", args=[table.code])).status_code == 403
    page = stranger.get(reverse("tables:group", args=[group.code])).content.decode()
    # Only cards shown at a showdown may appear: the page's cards are the best fives shown.
    shown = {c for h in groups.season(group).shown for c in h["best"]}
    assert set(re.findall(r'data-card="(\w\w)"', page)) <= shown


def test_the_season_csv_has_every_person_and_game(
    season_played: Played,
) -> None:
    _tables, _phones, group = season_played
    text = Client().get(reverse("tables:group_csv", args=[group.code])).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:6] == ["name", "computer", "games", "wins", "points", "chips_won"]
    names = {r[0] for r in rows[1:5] if r}
    assert {"Asha", "Bikash", "Chandra"} <= names


def test_your_games_lists_every_game_of_this_phone_newest_first(
    season_played: Played,
) -> None:
    tables, phones, group = season_played
    text = phones[2].get(reverse("tables:games")).content.decode()
    codes = re.findall(r'data-testid="game-line" data-code="(\w+)"', text)
    assert codes == [t.code for t in reversed(tables)]
    assert group.name in text
    assert Client().get(reverse("tables:games")).status_code == 200
    assert 'data-testid="game-line"' not in Client().get(reverse("tables:games")).content.decode()


def test_only_the_creator_renames_and_a_moderator_rename_is_logged(
    season_played: Played,
) -> None:
    _tables, phones, group = season_played
    url = reverse("tables:group", args=[group.code])
    assert phones[1].post(url, {"do": "rename", "name": "Bikash's"}).status_code == 403
    assert phones[0].post(url, {"do": "rename", "name": "Friday night"}).status_code == 302
    group.refresh_from_db()
    assert group.name == "Friday night"
    groups.moderate_rename(group, None, "Fridays", "rude")
    log = ModerationAction.objects.filter(action="rename_group").latest("at")
    assert log.detail == {"group": group.code, "old": "Friday night", "new": "Fridays"}


def test_a_removed_game_does_not_count_and_the_role_passes_on(
    season_played: Played,
) -> None:
    tables, phones, group = season_played
    url = reverse("tables:group", args=[group.code])
    phones[0].post(url, {"do": "remove", "game": str(tables[0].pk)})
    assert all(line.games == 2 for line in groups.season(group).lines)
    phones[0].post(url, {"do": "restore", "game": str(tables[0].pk)})
    assert all(line.games == 3 for line in groups.season(group).lines)
    bikash = next(x for x in groups.season(group).lines if x.name == "Bikash")
    assert phones[0].post(url, {"do": "pass", "person": bikash.key}).status_code == 302
    assert phones[0].post(url, {"do": "rename", "name": "Mine"}).status_code == 403
    assert phones[1].post(url, {"do": "rename", "name": "Friday night"}).status_code == 302


def test_a_phones_games_move_to_a_new_phone_once_and_can_be_forgotten(
    season_played: Played,
) -> None:
    tables, phones, _group = season_played
    old = phones[2]
    page = old.post(reverse("tables:games_take")).content.decode()
    link = re.search(r'data-testid="take-link">([^<]+)<', page)
    assert link is not None
    path = link.group(1).replace("http://testserver", "")
    new = Client()
    assert new.get(reverse("tables:history", args=[tables[0].code])).status_code == 403
    assert new.get(path).status_code == 200  # a preview changes nothing
    assert new.post(path).status_code == 302
    assert new.get(reverse("tables:history", args=[tables[0].code])).status_code == 200
    assert Client().post(path).status_code == 410  # used once
    old.post(reverse("tables:games_forget"))
    assert old.get(reverse("tables:history", args=[tables[0].code])).status_code == 403


def test_staff_rename_a_group_and_remove_a_game_and_both_are_logged(
    season_played: Played,
) -> None:
    from django.contrib.auth.models import User

    tables, _phones, group = season_played
    user = User.objects.create_superuser("mod", "mod@example.org", "a long secret")
    staff = Client()
    staff.force_login(user)
    assert staff.get(reverse("admin:tables_group_changelist")).status_code == 200
    assert staff.get(reverse("admin:tables_group_change", args=[group.pk])).status_code == 200
    url = reverse("admin:tables_group_rename", args=[group.pk])
    assert staff.post(url, {"name": "Kind name", "reason": "rude"}).status_code == 302
    url = reverse("admin:tables_group_remove", args=[group.pk, tables[1].pk])
    assert staff.post(url, {"reason": "a test game"}).status_code == 302
    logged = ModerationAction.objects.filter(moderator=user).values_list("action", flat=True)
    assert set(logged) == {"rename_group", "remove_group_game"}
    assert all(line.games == 2 for line in groups.season(group).lines)
    GroupGame.objects.filter(table=tables[1]).update(removed=False)
    assert Client().get(reverse("admin:tables_group_changelist")).status_code == 302


def test_a_seats_line_at_the_table_shows_until_the_host_turns_it_off(
    season_played: Played,
) -> None:
    tables, phones, _group = season_played
    code = tables[2].code
    url = reverse("tables:seat_line", args=[code, 1])
    part = phones[2].get(url, {"part": "1"})
    assert part.status_code == 200 and 'data-testid="stats-line"' in part.content.decode()
    assert Client().get(url).status_code == 200  # public figures: spectators may read them
    assert phones[1].post(url, {"off": "1"}).status_code == 403  # only the host
    assert phones[0].post(url, {"off": "1"}).status_code == 302
    assert phones[2].get(url, {"part": "1"}).status_code == 204
    phones[0].post(url, {"off": "0"})
    assert phones[2].get(url, {"part": "1"}).status_code == 200


def test_no_season_page_or_export_spells_a_card_that_was_not_shown_to_the_table(
    season_played: Played,
) -> None:
    """The season's pages name only boards and hands shown at a showdown: what every phone at
    the table saw (P3), so a stranger with the link learns no hidden hole card."""
    tables, phones, group = season_played
    public: set[Card] = set()
    for row in Hand.objects.filter(table__in=tables, ended_at__isnull=False):
        hand = replay(row.record)
        public |= set(hand.board)
        for seat in hand.shown_seats():
            public |= set(hand.hole[hand.seats.index(seat)])
    pages = [
        Client().get(reverse("tables:group", args=[group.code])),
        Client().get(reverse("tables:group", args=[group.code]), {"computers": "1"}),
        Client().get(reverse("tables:group_csv", args=[group.code])),
        phones[0].get(reverse("tables:group", args=[group.code])),
        phones[0].get(reverse("tables:games")),
    ]
    for table in tables:
        for seat in range(4):
            pages.append(Client().get(reverse("tables:seat_line", args=[table.code, seat])))
            pages.append(Client().get(reverse("tables:seat_line", args=[table.code, seat]),
                                      {"part": "1"}))
    assert public
    for page in pages:
        assert page.status_code == 200
        assert not leaked_cards(page.content.decode(), public)
    home = phones[0].get(reverse("home")).content.decode()  # its decor aside: the games
    games_part = re.search(r'<section[^>]*data-testid="home-games".*?</section>', home, re.S)
    assert games_part is not None and not leaked_cards(games_part.group(0), public)
