"""Retention (tables.write.retention, ``manage.py delete_old_games``): games that ended more
than TABLES_KEEP_DAYS days ago go with everything stored for them; every other game stays
whole, down to the last hand record and chat line."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.db.models import Model
from django.urls import reverse
from django.utils import timezone

from tables.models import (
    ChatMessage,
    ChatMute,
    FormerClaim,
    Hand,
    ModerationAction,
    Seat,
    SeatMove,
    SeatRequest,
    Table,
    TableTalk,
)
from tables.write import moderation, retention
from tests.tables.helpers import client_lobby
from tests.tables.helpers.pages import played_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
PER_TABLE: tuple[type[Model], ...] = (
    Seat, FormerClaim, Hand, SeatMove, ChatMessage, TableTalk, ChatMute, SeatRequest,
)


def _staff() -> User:
    return User.objects.get_or_create(username="mod", defaults={"is_staff": True})[0]


def age(table: Table, days: float) -> None:
    """As if the game had ended (and last changed) ``days`` days ago."""
    moment = timezone.now() - timedelta(days=days)
    Table.objects.filter(pk=table.pk).update(
        finished_at=moment if table.finished_at else None, updated_at=moment
    )


def contents(table_id: int) -> dict[str, Any]:
    """Every row stored for a game, as values: to compare before and after."""
    found: dict[str, Any] = {"table": list(Table.objects.filter(pk=table_id).values())}
    for model in PER_TABLE:
        found[model.__name__] = list(
            model._default_manager.filter(table_id=table_id).order_by("pk").values()
        )
    found["moderation"] = list(
        ModerationAction.objects.filter(table_id=table_id).order_by("pk").values()
    )
    return found


def test_old_games_go_with_their_hands_talk_and_proofs_and_every_other_game_stays_whole() -> None:
    old = played_game()
    assert old.status == Table.Status.FINISHED
    assert Hand.objects.filter(table=old).exclude(deck_root="").exists()  # proofs stored
    assert ChatMessage.objects.filter(table=old).count() >= 3  # lines and the log's events
    age(old, 91)
    closed = played_game(ended=False)
    moderation.close_table(closed.id, _staff(), "spam")
    age(Table.objects.get(pk=closed.id), 200)
    recent = played_game()
    age(recent, 89)  # inside the 90 days: kept
    running = played_game(ended=False)  # an old game still being played: kept
    Table.objects.filter(pk=running.pk).update(updated_at=timezone.now() - timedelta(days=400))
    lobby, _clients = client_lobby("Chandra", "Dipak")
    Table.objects.filter(pk=lobby.pk).update(updated_at=timezone.now() - timedelta(days=400))
    kept = [recent.id, running.id, lobby.id]
    before = {table_id: contents(table_id) for table_id in kept}
    staff_log = ModerationAction.objects.filter(table=old, moderator__isnull=False).count()
    assert staff_log >= 1

    out = StringIO()
    call_command("delete_old_games", "--tables", "1", "--rows", "3", stdout=out)

    for gone in (old.id, closed.id):
        assert not Table.objects.filter(pk=gone).exists()
        for model in PER_TABLE:
            assert not model._default_manager.filter(table_id=gone).exists(), model.__name__
    # Staff's log stays (without its table); what the host did went with the game.
    assert ModerationAction.objects.filter(table=None, moderator__isnull=False).count() >= 2
    assert not ModerationAction.objects.filter(table=None, action__startswith="host_").exists()
    for table_id in kept:
        assert contents(table_id) == before[table_id], table_id
    assert out.getvalue().startswith("deleted 2 games, ")
    assert "tables.Hand" in out.getvalue() and "held at most" in out.getvalue()
    # Nothing left to do: a second run deletes nothing.
    again = StringIO()
    call_command("delete_old_games", stdout=again)
    assert again.getvalue().startswith("deleted 0 games; ")
    assert "; 0 batches" in again.getvalue()


def test_a_dry_run_counts_and_deletes_nothing() -> None:
    old = played_game()
    age(old, 100)
    before = contents(old.id)
    out = StringIO()
    call_command("delete_old_games", "--dry-run", stdout=out)
    assert out.getvalue().startswith("would delete 1 games, ")
    assert contents(old.id) == before


def test_the_number_of_days_comes_from_the_setting_or_the_command_line(settings: Any) -> None:
    game = played_game()
    age(game, 10)
    settings.TABLES_KEEP_DAYS = 30
    assert retention.delete_old_games(settings.TABLES_KEEP_DAYS).tables == 0
    call_command("delete_old_games", "--days", "7", stdout=StringIO())
    assert not Table.objects.filter(pk=game.pk).exists()


def test_a_lobby_everyone_left_counts_from_its_last_change() -> None:
    lobby, clients = client_lobby("Asha", "Bikash")
    for phone in clients:
        phone.post(reverse("tables:leave", args=[lobby.code]))
    lobby.refresh_from_db()
    assert lobby.status == Table.Status.CLOSED and lobby.finished_at is None
    assert retention.delete_old_games(90).tables == 0
    Table.objects.filter(pk=lobby.pk).update(updated_at=timezone.now() - timedelta(days=91))
    assert retention.delete_old_games(90).tables == 1


def test_the_bytes_of_the_rows_are_measured_on_postgresql() -> None:
    old = played_game()
    age(old, 100)
    done = retention.delete_old_games(90, dry_run=True)
    if connection.vendor == "postgresql":
        assert done.stored_bytes is not None and done.stored_bytes > 1000
    else:
        assert done.stored_bytes is None


def test_the_timer_runs_the_command_daily() -> None:
    service = (ROOT / "deploy/systemd/holdem-retention.service").read_text()
    timer = (ROOT / "deploy/systemd/holdem-retention.timer").read_text()
    assert "ExecStart=/srv/holdem/.venv/bin/python manage.py delete_old_games\n" in service
    assert "Type=oneshot" in service and "EnvironmentFile=/etc/holdem/env" in service
    assert "OnCalendar=*-*-* 04:30:00" in timer and "Persistent=true" in timer
    assert "Unit=holdem-retention.service" in timer


def test_bad_numbers_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        retention.delete_old_games(0)
