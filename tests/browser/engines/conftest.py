"""Phones of each engine for the journeys: an X display for WebKit, fresh browsers per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.engines.drivers import ChromiumPhone, Phone, missing, x_server
from tests.browser.engines.webdriver_phones import FirefoxPhone, WebKitPhone

ENGINES = ["chromium", "webkit", "firefox"]


@pytest.fixture(scope="session")
def x_display() -> Iterator[str]:
    """An X display of this test session's own for WebKitGTK's MiniBrowser (drivers.x_server)."""
    with x_server() as display:
        yield display


@pytest.fixture
def phones(request: pytest.FixtureRequest, engine: str) -> Iterator[Callable[[], Phone]]:
    """``phones()`` opens one more phone (its own browser: cookies and storage of its own) of
    the test's engine; every one is closed after the test, which fails on any uncaught
    JavaScript error or Content Security Policy violation a page reported."""
    need = missing(engine)
    if need:
        pytest.fail(f"{engine} needs Debian's {need}: bash scripts/test.sh installs it "
                    f"(apt-get install {need})")
    opened: list[Phone] = []

    def make() -> Phone:
        phone: Phone
        if engine == "chromium":
            phone = ChromiumPhone(request.getfixturevalue("new_phone")())
        elif engine == "webkit":
            phone = WebKitPhone(request.getfixturevalue("x_display"))
        else:
            phone = FirefoxPhone()
        opened.append(phone)
        return phone

    yield make
    errors = [f"{phone.engine}: {e}" for phone in opened for e in phone.errors]
    for phone in opened:
        phone.close()
    assert not errors, "JavaScript errors:\n" + "\n".join(errors)


def pytest_generate_tests(metafunc: Any) -> None:
    """Every test that takes ``engine`` runs once in each engine (unless it names its own)."""
    named = any("engine" in str(m.args[0]) for m in metafunc.definition.iter_markers("parametrize"))
    if "engine" in metafunc.fixturenames and not named:
        metafunc.parametrize("engine", ENGINES)
