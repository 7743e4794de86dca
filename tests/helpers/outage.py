"""The test database going away and coming back, on the PostgreSQL server itself.

``away()`` does to the test database what a restart does to it (``pg_ctl stop -m fast``):
PostgreSQL ends every session on it ("terminating connection due to administrator command")
and turns every new one away ("not currently accepting connections") until ``back()``. No
process of the test's is touched: the errors Django meets are the server's own."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection, connections
from psycopg import sql


class DatabaseOutage:
    def __init__(self, settings_dict: dict[str, Any] | None = None) -> None:
        self.db = dict(settings_dict or connection.settings_dict)
        assert "postgresql" in self.db["ENGINE"], "an outage needs PostgreSQL (DATABASE_URL)"
        self.name: str = self.db["NAME"]
        self.is_away = False

    def _admin(self) -> psycopg.Connection[Any]:
        """A connection of its own to the server's maintenance database, not Django's."""
        return psycopg.connect(
            host=self.db["HOST"] or "127.0.0.1", port=int(self.db["PORT"] or 5432),
            user=self.db["USER"], password=self.db["PASSWORD"] or None, dbname="postgres",
            autocommit=True,
        )

    def _allow(self, allowed: bool) -> sql.Composed:
        return sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
            sql.Identifier(self.name), sql.SQL("true" if allowed else "false")
        )

    def away(self) -> None:
        with self._admin() as admin:
            admin.execute(self._allow(False))
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [self.name],
            )
        self.is_away = True

    def back(self) -> None:
        with self._admin() as admin:
            admin.execute(self._allow(True))
        self.is_away = False
        # This thread's connections were ended with the others: closed, the next use opens a
        # new one (Django closes a broken one after a request; the test's own use comes next).
        connections.close_all()
