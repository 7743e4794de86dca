from __future__ import annotations

# The tables' fixtures (no clock loop, no pauses; chips conserved) for the tests that play here.
from tests.tables.conftest import chips_conserved, fast_clock  # noqa: F401
