from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.deploy.nginx_stack import Stack, running_stack

# The tables' fixtures (no clock loop, no pauses; chips conserved) for the tests that play here.
from tests.tables.conftest import chips_conserved, fast_clock  # noqa: F401


@pytest.fixture(scope="package")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One production stack for tests/deploy/test_nginx.py and then
    tests/deploy/test_nginx_processes.py, which stops and kills its processes."""
    with running_stack(tmp_path_factory.mktemp("nginx")) as running:
        yield running
