"""Fixtures shared by more than one folder of tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connections
from django.utils import translation

from tests.tables.outage import DatabaseOutage


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request a test made in Nepali (the test
    client activates the phone's language in this thread and leaves it) never leaks into the
    next test of the same worker."""
    yield
    translation.deactivate()


@pytest.fixture
def outage(transactional_db: None) -> Iterator[DatabaseOutage]:
    """The test database away for as long as the test says (``away()``/``back()``), and back
    at the end whatever happened (tests/tables/outage.py)."""
    db = DatabaseOutage()
    try:
        yield db
    finally:
        if db.is_away:
            db.back()
        connections.close_all()  # the test's own thread's, ended with the others
