"""The nightly backup (deploy/backup.sh, run by deploy/systemd/holdem-backup.service) and the
restore of deploy/README.md: a database with finished games and a table in mid-hand is dumped
by the script, restored with ``pg_restore`` into a fresh database, and there every stored hand
replays through ``engine`` to its stored result and the running table plays on."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections
from psycopg import sql

from engine.history import replay
from tables.models import Hand, Table
from tests.helpers.outage import DatabaseOutage
from tests.tables.helpers import game_of, play_out
from tests.tables.helpers.pages import played_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = "/usr/lib/postgresql/15/bin"


def _binary(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=PG_BIN)
    assert found, f"{name} is not installed"
    return found


def _url(db: dict[str, Any], name: str) -> str:
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{db['USER']}{password}@{host}/{name}"


def _hands() -> dict[tuple[int, int], dict[str, Any]]:
    return {
        (h.table_id, h.number): {"record": h.record, "final": h.final_stacks,
                                 "cancelled": h.cancelled}
        for h in Hand.objects.all()
    }


@pytest.fixture
def restored_name() -> Iterator[str]:
    """The fresh database's name; dropped at the end, whatever happened."""
    original = dict(connection.settings_dict)
    name = f"{original['NAME']}_restored"
    admin = DatabaseOutage(original)._admin()
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name
    finally:
        connections.close_all()
        connection.settings_dict["NAME"] = original["NAME"]
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.close()


def test_a_nightly_dump_restores_every_hand_and_a_running_table_plays_on(
    tmp_path: Path, restored_name: str
) -> None:
    finished = played_game(hands=3)
    running = played_game(hands=2, ended=False)
    assert finished.status == Table.Status.FINISHED
    assert running.status == Table.Status.PLAYING and game_of(running).hand_running  # mid-hand
    before = _hands()
    assert len(before) >= 6
    db = dict(connection.settings_dict)
    old, recent = tmp_path / "holdem-20200101T033000Z.dump", tmp_path / "holdem-recent.dump"
    for dump, days in ((old, 5), (recent, 1)):  # BACKUP_KEEP_DAYS=3: the first one goes
        dump.write_bytes(b"an older dump")
        moment = time.time() - days * 86400 - 60
        os.utime(dump, (moment, moment))

    result = subprocess.run(
        ["sh", str(ROOT / "deploy/backup.sh")], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "DATABASE_URL": _url(db, db["NAME"]), "BACKUP_DIR": str(tmp_path),
             "BACKUP_KEEP_DAYS": "3"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert not old.exists() and recent.exists()
    dumps = [d for d in tmp_path.glob("holdem-*.dump") if d != recent]
    assert len(dumps) == 1 and result.stdout.startswith(f"backup {dumps[0]}")
    subprocess.run(
        [_binary("pg_restore"), "--no-owner", "--exit-on-error",
         "--dbname", _url(db, restored_name), str(dumps[0])],
        check=True, capture_output=True, timeout=120,
    )

    # Django on the restored database from here on.
    connections.close_all()
    connection.settings_dict["NAME"] = restored_name
    assert connection.cursor().connection.info.dbname == restored_name
    assert _hands() == before
    for (table_id, number), hand in before.items():
        replayed = replay(hand["record"])
        if hand["final"] is not None:
            assert replayed.finished, (table_id, number)
            stored = {int(seat): chips for seat, chips in hand["final"].items()}
            assert replayed.final_stacks == stored, (table_id, number)
    table = Table.objects.get(pk=running.pk)
    assert table.version == running.version and table.state == running.state
    hands_then = Hand.objects.filter(table=table, ended_at__isnull=False).count()
    over = play_out(table.id)  # its next action applies, its hands finish, the game ends
    assert over.version > running.version
    assert Hand.objects.filter(table=table, ended_at__isnull=False).count() > hands_then
