"""Fixtures shared by more than one folder of tests, and the one rule for tests marked
``services``: they run only when PostgreSQL and Redis are there (``DATABASE_URL`` a postgres://
URL and ``REDIS_URL`` set), and are skipped otherwise with one reason.
``@pytest.mark.services(also_when="NAME")`` runs a test too when the variable ``NAME`` is 1."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.db import connections
from django.utils import translation

from tests.helpers.outage import DatabaseOutage
from tests.helpers.servers import SERVICES, SERVICES_REASON


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marker = item.get_closest_marker("services")
        if marker is None or SERVICES:
            continue
        also_when = marker.kwargs.get("also_when")
        if not (also_when and os.environ.get(also_when) == "1"):
            item.add_marker(pytest.mark.skip(reason=SERVICES_REASON))


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
    at the end whatever happened (tests/helpers/outage.py)."""
    db = DatabaseOutage()
    try:
        yield db
    finally:
        if db.is_away:
            db.back()
        connections.close_all()  # the test's own thread's, ended with the others
