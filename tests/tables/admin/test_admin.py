"""The moderation admin: staff only, every action through the write path and on the record,
and never a hidden card of a hand in progress."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.cards import Card
from engine.history import replay
from tables import clock
from tables.bot_names import is_computer_name
from tables.models import Hand, ModerationAction, Seat, Table
from tables.write import moderation
from tables.write.path import Refused
from tests.tables.helpers import cards_in, game_of
from tests.tables.helpers import client_lobby as lobby

pytestmark = pytest.mark.django_db

ADMIN = "/admin/tables/table/"


# ------------------------------------------------------------------------------ helpers
def staff(username: str = "alice") -> Client:
    user = User.objects.create_user(username, f"{username}@example.org", "a long secret",
                                    is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    return client


def playing(*names: str, seats: int = 4) -> tuple[Table, list[Client]]:
    table, clients = lobby(*names, seats=seats)
    clients[0].post(reverse("tables:start", args=[table.code]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table, clients


def tick(table: Table) -> Table:
    """Fire the table's next deadline (a computer move, a time-out, the next deal)."""
    assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1
    table.refresh_from_db()
    return table


def until_a_hand_finished_and_another_running(table: Table) -> Table:
    for _ in range(500):
        finished = Hand.objects.filter(table=table, ended_at__isnull=False).exists()
        if finished and game_of(table).hand_running:
            return table
        table = tick(table)
    raise AssertionError("no second hand")


def running_hand_secrets(table: Table) -> tuple[set[Card], set[Card]]:
    """(cards nobody may see yet: every hole card, burn and undealt card; the board so far)."""
    game = game_of(table)
    assert game.hand is not None and not game.hand.finished
    hand = game.hand
    board = set(hand.board)
    return set(hand.deck) - board, board


def content(html: str) -> str:
    """The admin page's main content, without its scripts, styles and icons (SVG path data
    such as ``2h.1`` would look like cards) and without its CSRF token (64 random letters and
    digits, which once spelled "deck")."""
    match = re.search(r'<div id="content".*', html, re.S)
    assert match, html[:500]
    text = re.sub(r"<(svg|script|style)\b.*?</\1>", "", match.group(0), flags=re.S)
    return re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", text)


# ------------------------------------------------------------------------------ staff only
def test_a_visitor_or_a_player_who_is_not_staff_gets_nothing() -> None:
    table, (asha, _) = playing("Asha", "Bikash")
    User.objects.create_user("bob", "bob@example.org", "a long secret")
    bob = Client()
    bob.login(username="bob", password="a long secret")
    urls = [
        ADMIN, f"{ADMIN}{table.pk}/change/", f"{ADMIN}{table.pk}/close/",
        f"{ADMIN}{table.pk}/pause/", f"{ADMIN}{table.pk}/seats/0/rename/",
        f"{ADMIN}{table.pk}/seats/1/remove/", "/admin/tables/hand/",
        "/admin/tables/moderationaction/",
    ]
    version = table.version
    for client in (Client(), asha, bob):
        for url in urls:
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
            response = client.post(url, {"reason": "x", "name": "Troll"})
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
            assert table.code not in response.content.decode()
    table.refresh_from_db()
    assert (table.status, table.version) == (Table.Status.PLAYING, version)
    assert not ModerationAction.objects.exists()
    assert Seat.objects.get(table=table, position=0).name == "Asha"


def test_staff_without_the_change_permission_cannot_moderate() -> None:
    table, _ = playing("Asha", "Bikash")
    viewer = User.objects.create_user("vic", "vic@example.org", "a long secret", is_staff=True)
    from django.contrib.auth.models import Permission

    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    client = Client()
    client.force_login(viewer)
    assert client.get(f"{ADMIN}{table.pk}/change/").status_code == 200
    assert client.post(f"{ADMIN}{table.pk}/close/", {"reason": "x"}).status_code == 403
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


# ------------------------------------------------------------------------------ the list
def test_the_table_list_shows_code_status_players_hands_and_times() -> None:
    table, _ = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    lobby_table, _ = lobby("Chandra")
    page = staff().get(ADMIN).content.decode()
    for text in (table.code, "Playing", "Asha, Bikash", "+ 2 computer", lobby_table.code,
                 "Waiting for players", "Chandra", "Hands played", "Last activity", "Created"):
        assert text in page, text
    row = page.split(f">{table.code}<", 1)[1].split("</tr>", 1)[0]
    finished = Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False).count()
    assert f'<td class="field-hands_played">{finished}</td>' in row


def test_tables_are_found_by_code_or_player_name_and_filtered_by_status() -> None:
    first, _ = playing("Asha", "Bikash")
    second, _ = lobby("Chandra", "Dipa")
    alice = staff()
    by_code = alice.get(ADMIN, {"q": second.code}).content.decode()
    assert second.code in by_code and first.code not in by_code
    by_name = alice.get(ADMIN, {"q": "bikash"}).content.decode()
    assert first.code in by_name and second.code not in by_name
    waiting = alice.get(ADMIN, {"status__exact": "waiting"}).content.decode()
    assert second.code in waiting and first.code not in waiting


# ------------------------------------------------------------------------------ closing
def test_closing_a_table_cancels_the_running_hand_and_returns_every_chip() -> None:
    table, _ = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    game = game_of(table)
    assert game.hand is not None
    start = dict(zip(game.hand.seats, game.hand.settings.stacks, strict=True))
    number = game.hand_number
    alice = staff()
    form = alice.get(f"{ADMIN}{table.pk}/close/").content.decode()
    assert "A hand in progress is cancelled" in form and 'name="reason"' in form
    response = alice.post(f"{ADMIN}{table.pk}/close/", {"reason": "abusive chat"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == (Table.Status.CLOSED, "moderator")
    assert table.deadline_kind == "" and table.next_deadline is None
    after = game_of(table)
    assert after.finished and after.hand is None
    assert {s: after.seats[s].stack for s in start} == start
    cancelled = Hand.objects.get(table=table, number=number)
    assert cancelled.cancelled and cancelled.ended_at is not None
    action = ModerationAction.objects.get()
    assert action.moderator is not None
    assert (action.action, action.reason, action.moderator.username) == (
        "close", "abusive chat", "alice",
    )
    assert action.detail["cancelled_hand"] == number
    page = alice.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert f"Closed the table (hand {number} cancelled)" in page and "abusive chat" in page
    assert Client().get(reverse("tables:table", args=[table.code])).content.decode().count(
        "This table was closed by a moderator."
    ) == 1


def test_a_reason_is_required_and_a_closed_table_cannot_be_closed_again() -> None:
    table, _ = lobby("Asha")
    alice = staff()
    page = alice.post(f"{ADMIN}{table.pk}/close/", {"reason": ""}).content.decode()
    assert "This field is required." in page
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert alice.post(f"{ADMIN}{table.pk}/close/", {"reason": "spam"}).status_code == 302
    version = Table.objects.get(pk=table.pk).version
    page = alice.post(f"{ADMIN}{table.pk}/close/", {"reason": "again"}).content.decode()
    assert "This table is already closed." in page
    assert Table.objects.get(pk=table.pk).version == version
    assert ModerationAction.objects.count() == 1


def test_bulk_actions_ask_why_then_act_on_every_selected_table() -> None:
    first, _ = playing("Asha", "Bikash")
    second, _ = lobby("Chandra")
    alice = staff()
    chosen = {"action": "close_tables", "_selected_action": [first.pk, second.pk]}
    page = alice.post(ADMIN, chosen).content.decode()
    assert 'name="reason"' in page and first.code in page and second.code in page
    assert Table.objects.filter(status=Table.Status.CLOSED).count() == 0
    alice.post(ADMIN, {**chosen, "apply": "1", "reason": "spam wave"})
    assert Table.objects.filter(status=Table.Status.CLOSED).count() == 2
    assert list(ModerationAction.objects.values_list("reason", flat=True)) == ["spam wave"] * 2


# ------------------------------------------------------------------------------ the clock
def test_pausing_stops_the_clock_and_resuming_gives_back_the_time_left() -> None:
    table, _ = playing("Asha", "Bikash")
    for _ in range(50):
        if table.deadline_kind == Table.Deadline.TURN:
            break
        table = tick(table)
    assert table.deadline_kind == Table.Deadline.TURN and table.next_deadline is not None
    alice = staff()
    measured = time.monotonic()
    left = (table.next_deadline - timezone.now()).total_seconds()
    alice.post(f"{ADMIN}{table.pk}/pause/", {"reason": "dispute"})
    until_paused = time.monotonic() - measured  # the clock ran this long before the pause
    table.refresh_from_db()
    assert table.paused
    version = table.version
    assert clock.tick(timezone.now() + timedelta(hours=1)) == 0  # nothing fires while paused
    assert Table.objects.get(pk=table.pk).version == version
    page = alice.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert "Resume the clock" in page and "Pause the clock" not in page
    # Resumed an hour later (the server's time moved on, not the test's: nothing here depends
    # on how fast this machine is): the turn has the time it had left when it was paused.
    later = timezone.now() + timedelta(hours=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        alice.post(f"{ADMIN}{table.pk}/resume/", {"reason": "settled"})
    table.refresh_from_db()
    assert not table.paused and table.next_deadline is not None
    remaining = (table.next_deadline - later).total_seconds()
    assert left - until_paused - 0.01 <= remaining <= left + 0.01
    assert clock.tick(later + timedelta(hours=1)) == 1
    assert list(ModerationAction.objects.order_by("at").values_list("action", flat=True)) == [
        "pause", "resume",
    ]


def test_only_a_playing_table_has_a_clock_to_pause() -> None:
    table, _ = lobby("Asha")
    with pytest.raises(Refused, match="Only a table that is playing"):
        moderation.pause_clock(table.pk, None, "x")
    with pytest.raises(Refused, match="not paused"):
        moderation.resume_clock(table.pk, None, "x")


# ------------------------------------------------------------------------------ seats
def test_removing_a_person_gives_the_seat_and_its_chips_to_a_computer_player() -> None:
    table, (_, bikash) = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    chips_before = game_of(table).seats[1].stack
    alice = staff()
    page = alice.get(f"{ADMIN}{table.pk}/change/").content.decode()
    assert f"{ADMIN}{table.pk}/seats/1/remove/" in page
    alice.post(f"{ADMIN}{table.pk}/seats/1/remove/", {"reason": "offensive"})
    seat = Seat.objects.get(table=table, position=1)
    assert seat.is_computer and seat.level == table.computer_level and not seat.claim_hash
    # A computer player's name, not one already at the table.
    others = set(
        Seat.objects.filter(table=table).exclude(position=1).values_list("name", flat=True)
    )
    assert is_computer_name(seat.name) and seat.name not in others
    table.refresh_from_db()
    game = game_of(table)
    assert not game.seats[1].is_person and game.seats[1].stack == chips_before
    assert table.status == Table.Status.PLAYING
    action = ModerationAction.objects.get()
    assert (action.action, action.detail["name"], action.detail["seat"]) == (
        "remove_person", "Bikash", 1,
    )
    # Bikash's phone now only watches.
    frame = bikash.get(reverse("tables:table", args=[table.code])).content.decode()
    assert 'data-screen="watch"' in frame


def test_removing_the_last_person_closes_the_table() -> None:
    table, _ = playing("Asha")
    moderation.remove_person(table.pk, 0, None, "gone")
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and game_of(table).finished


def test_removing_a_person_from_the_lobby_frees_the_seat_and_passes_the_host_role() -> None:
    table, _ = lobby("Asha", "Bikash")
    moderation.remove_person(table.pk, 0, None, "troll")
    table.refresh_from_db()
    assert list(Seat.objects.filter(table=table).values_list("name", flat=True)) == ["Bikash"]
    assert table.host_position == 1 and table.status == Table.Status.WAITING
    with pytest.raises(Refused, match="Nobody sits"):
        moderation.remove_person(table.pk, 0, None, "again")


def test_renaming_shows_at_once_at_the_table_and_in_its_histories() -> None:
    table, (asha, _) = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    version = table.version
    alice = staff()
    form = alice.get(f"{ADMIN}{table.pk}/seats/1/rename/").content.decode()
    assert 'name="name"' in form
    taken = alice.post(f"{ADMIN}{table.pk}/seats/1/rename/", {"name": "asha", "reason": "x"})
    assert "already called asha" in taken.content.decode()
    alice.post(f"{ADMIN}{table.pk}/seats/1/rename/", {"name": "Player 2", "reason": "slur"})
    table.refresh_from_db()
    assert table.version == version + 1
    assert Seat.objects.get(table=table, position=1).name == "Player 2"
    page = asha.get(reverse("tables:table", args=[table.code])).content.decode()
    assert "Player 2" in page and "Bikash" not in page
    for hand in Hand.objects.filter(table=table):
        assert {p["name"] for p in hand.players} >= {"Player 2"}
        assert "Bikash" not in str(hand.players)
    history = asha.get(reverse("tables:history", args=[table.code])).content.decode()
    assert "Bikash" not in history
    action = ModerationAction.objects.get()
    assert action.detail == {"seat": 1, "old": "Bikash", "new": "Player 2"}
    log = alice.get("/admin/tables/moderationaction/").content.decode()
    assert "Bikash → Player 2" in log and "slur" in log and "alice" in log


# ------------------------------------------------------------------------------ hands
def test_a_hand_in_progress_never_shows_a_hidden_card_in_the_admin() -> None:
    table, _ = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    hidden, board = running_hand_secrets(table)
    running = Hand.objects.get(table=table, ended_at__isnull=True)
    alice = staff()
    pages = [
        ADMIN, f"{ADMIN}{table.pk}/change/", "/admin/tables/hand/",
        f"/admin/tables/hand/{running.pk}/change/",
        f"/admin/tables/hand/?table__id__exact={table.pk}",
        "/admin/tables/moderationaction/",
    ]
    for url in pages:
        html = alice.get(url).content.decode()
        assert '"deck"' not in html and "deck" not in content(html).lower(), url
        leaked = cards_in(content(html)) & hidden
        assert not leaked, (url, leaked)
    page = alice.get(f"/admin/tables/hand/{running.pk}/change/").content.decode()
    assert "still being played" in page
    assert all(str(card) in page or card.symbol in page for card in board) or not board


def test_a_finished_hand_is_shown_in_full_to_staff() -> None:
    table, _ = playing("Asha", "Bikash")
    table = until_a_hand_finished_and_another_running(table)
    row = Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number").first()
    assert row is not None
    hand = replay(row.record)
    page = staff().get(f"/admin/tables/hand/{row.pk}/change/").content.decode()
    assert f"PokerStars Hand #{row.pk}:" in page
    for i, seat in enumerate(hand.seats):
        name = next(p["name"] for p in row.players if p["seat"] == seat)
        cards = " ".join(str(c) for c in hand.hole[i])
        assert f"Dealt to {name} [{cards}]" in page
    assert not cards_in(content(page)) & set(hand.burnt)  # never a burnt card


# ------------------------------------------------------------------------------ create_admin
def test_create_admin_makes_the_first_admin_from_the_environment_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ADMIN_USERNAME", "root")
    monkeypatch.setenv("ADMIN_PASSWORD", "correct horse battery")
    monkeypatch.setenv("ADMIN_EMAIL", "root@example.org")
    call_command("create_admin")
    user = User.objects.get(username="root")
    assert user.is_staff and user.is_superuser and user.check_password("correct horse battery")
    password_hash = user.password
    call_command("create_admin")  # idempotent: nothing changes, sessions stay valid
    assert User.objects.filter(username="root").count() == 1
    assert User.objects.get(username="root").password == password_hash
    client = Client()
    assert client.login(username="root", password="correct horse battery")
    assert client.get(ADMIN).status_code == 200


def test_create_admin_updates_rights_and_password_of_an_existing_account(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    User.objects.create_user("root", "old@example.org", "an old secret!")
    monkeypatch.setenv("ADMIN_USERNAME", "root")
    monkeypatch.setenv("ADMIN_PASSWORD", "a brand new secret")
    monkeypatch.setenv("ADMIN_EMAIL", "root@example.org")
    call_command("create_admin")
    user = User.objects.get(username="root")
    assert user.is_superuser and user.email == "root@example.org"
    assert user.check_password("a brand new secret")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ADMIN_PASSWORD": "long enough pw", "ADMIN_EMAIL": "a@b.c"}, "Set ADMIN_USERNAME"),
        ({"ADMIN_USERNAME": "root", "ADMIN_EMAIL": "a@b.c"}, "Set ADMIN_PASSWORD"),
        ({"ADMIN_USERNAME": "root", "ADMIN_PASSWORD": "short", "ADMIN_EMAIL": "a@b.c"},
         "at least 10 characters"),
    ],
)
def test_create_admin_refuses_missing_or_weak_settings(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for name in ("ADMIN_USERNAME", "ADMIN_PASSWORD", "ADMIN_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(CommandError, match=message):
        call_command("create_admin")
    assert not User.objects.exists()
