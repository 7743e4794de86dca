"""Fixtures of every test of tables/: a fast clock with no loop, chips conserved in every game a
test plays, and ``new_phone`` (a new phone's session each call)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import LazySettings
from django.db import connections

from tables import cache
from tests.tables.helpers import NewPhone, assert_chips_conserved, new_session

# Connections opened by the websocket consumers' worker thread close after each use, so the
# test database can be dropped at the end (production keeps them for CONN_MAX_AGE seconds).
connections.settings["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def fast_clock(settings: LazySettings) -> None:
    """No human-looking pauses in tests, and no clock loop: tests fire deadlines with tick()."""
    settings.TABLES_BOT_PAUSE = (0.0, 0.0)
    settings.TABLES_AWAY_PAUSE = 0.0
    settings.TABLES_NEXT_HAND_PAUSE = 0.0
    settings.TABLES_CLOCK_IN_SERVER = False
    settings.TABLES_SEED = "tests"


@pytest.fixture(autouse=True)
def nothing_held() -> None:
    """Each test starts with no table version held in this process (an earlier test's tables
    are gone, and SQLite gives their ids to new ones): the clock's held deadlines are this
    test's own."""
    cache.forget_all()


@pytest.fixture(autouse=True)
def chips_conserved(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every game any test plays keeps its chips: checked on every stored hand at the end."""
    yield
    if request.node.get_closest_marker("django_db"):
        assert_chips_conserved()


@pytest.fixture
def new_phone() -> NewPhone:
    """A new phone each call: its session, saved, holding no seat yet (``asha = new_phone()``;
    ``phone_of(asha)`` is a test client on it)."""
    return new_session
