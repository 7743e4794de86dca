from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.conf import LazySettings
from django.db import connections

from tests.tables.helpers import assert_chips_conserved

# Connections opened by the websocket consumers' worker thread close after each use, so the
# test database can be dropped at the end (production keeps them for CONN_MAX_AGE seconds).
connections.settings["default"]["CONN_MAX_AGE"] = 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    services_up = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    for item in items:
        if "services" in item.keywords and not services_up:
            item.add_marker(
                pytest.mark.skip(
                    reason="needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL"
                )
            )


@pytest.fixture(autouse=True)
def fast_clock(settings: LazySettings) -> None:
    """No human-looking pauses in tests, and no clock loop: tests fire deadlines with tick()."""
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_AWAY_PAUSE = 0.0
    settings.TABLES_NEXT_HAND_PAUSE = 0.0
    settings.TABLES_CLOCK_IN_SERVER = False
    settings.TABLES_SEED = "tests"


@pytest.fixture(autouse=True)
def chips_conserved(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every game any test plays keeps its chips: checked on every stored hand at the end."""
    yield
    if request.node.get_closest_marker("django_db"):
        assert_chips_conserved()
