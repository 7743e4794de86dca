"""A real server and Debian's Chromium for the browser tests.

The server is the project's own ``manage.py runserver`` (Daphne; tests/helpers/servers.py) on a
free loopback port, with its own SQLite file and short clock pauses, so whole games play in
seconds. Every test here is marked ``browser`` (and skipped without Chromium). Static files are
served as ``bash scripts/run.sh`` serves them: collected with hashed names and Brotli/gzip copies
(into a scratch STATIC_ROOT) and served by WhiteNoise, immutable. Playwright drives
/usr/bin/chromium; no browser is ever downloaded. Screenshots go to ``screenshots/`` at the
repository root (gitignored; the README names it).
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    BROWSER,
    CHROMIUM,
    CHROMIUM_ARGS,
    EXPECTED_CONSOLE,
    JS_ERRORS,
    PHONE,
    LiveServer,
    start_computer_game,
    watch_errors,
)
from tests.helpers.servers import Server, free_port


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a browser test (marked ``browser``, skipped without Chromium)."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            for mark in BROWSER:
                item.add_marker(mark)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """A browser test that fails carries the last lines of the app server's log (the server
    runs for the whole session: its log is gone with the session's temporary folder)."""
    outcome: Any = yield
    report = outcome.get_result()
    server = getattr(item, "funcargs", {}).get("app_server")
    if report.failed and isinstance(server, LiveServer):
        log = server.db_path.with_suffix(".log")
        if log.exists():
            tail = log.read_text(errors="replace").splitlines()[-80:]
            report.sections.append(("app server log (last 80 lines)", "\n".join(tail)))


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db_path = tmp_path_factory.mktemp("browser") / "db.sqlite3"
    port = free_port()
    env = {
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{db_path}",
        "TABLES_BOT_PAUSE": "0.05,0.15",
        "TABLES_AWAY_PAUSE": "0.1",
        "TABLES_NEXT_HAND_PAUSE": "1.2",
        "TABLES_CLOCK_IN_SERVER": "true",
        "TABLES_CLOCK_INTERVAL": "0.05",
        "PYTHONUNBUFFERED": "1",
        "STATIC_COLLECTED": "true",
        "STATIC_ROOT": str(db_path.parent / "static"),
    }
    # --nostatic: WhiteNoise serves the static files, as with scripts/run.sh.
    server = Server(env, port=port, log=db_path.with_suffix(".log"), command=[
        sys.executable, "manage.py", "runserver", "--noreload", "--nostatic", f"127.0.0.1:{port}",
    ])
    for name in ("REDIS_URL", "PUBLIC_URL"):
        server.env.pop(name, None)
    server.manage("migrate", "--noinput", "-v0")
    server.manage("collectstatic", "--noinput", "-v0")
    server.start()
    try:
        yield LiveServer(server.base, db_path)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# Every page reports what the Content Security Policy refused (the securitypolicyviolation
# event) to the console, where the fixture below collects it with Chromium's own CSP messages.
_CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error("CSP violation: " + e.violatedDirective + " blocked " +
                (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
});
"""


def csp_violations_in(message: Any) -> bool:
    text = message.text
    return text.startswith("CSP violation:") or "Content Security Policy" in text


@pytest.fixture(autouse=True)
def _own_js_errors() -> Iterator[None]:
    """Each test starts with no JavaScript errors on record, and fails if any page it opened
    reported one (an uncaught error or a ``console.error``: tests/browser/helpers.watch_errors)
    by its end. An error of a test that failed is that test's, and does not fail every test
    after it in the same worker (a page still open when a test fails may log one more)."""
    JS_ERRORS.clear()
    EXPECTED_CONSOLE.clear()
    yield
    errors = list(JS_ERRORS)
    JS_ERRORS.clear()
    EXPECTED_CONSOLE.clear()
    assert not errors, "JavaScript errors:\n" + "\n".join(errors)


@pytest.fixture
def csp_violations() -> list[str]:
    """What the policy refused on every page of the test (the test fails if any)."""
    return []


@pytest.fixture
def new_phone(browser: Any, csp_violations: list[str]) -> Iterator[Any]:
    """A fresh phone (its own cookies and storage) at 390x844; closed after the test.

    The pages run with the app's Content Security Policy on; any violation a page reports
    fails the test when it ends.
    """
    contexts: list[Any] = []

    def make(color_scheme: str = "light") -> Any:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=1, color_scheme=color_scheme,
            has_touch=True, is_mobile=True, locale="en-GB",
        )
        context.set_default_timeout(20_000)
        context.add_init_script(_CSP_LISTENER)
        context.on("console", lambda message: csp_violations.append(
            f"{message.page.url if message.page else '?'}: {message.text}"
        ) if csp_violations_in(message) else None)
        contexts.append(context)
        page = context.new_page()
        watch_errors(page, skip=csp_violations_in)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not csp_violations, "Content Security Policy violations:\n" + "\n".join(csp_violations)


@pytest.fixture
def asha_at_a_computer_table(app_server: LiveServer, new_phone: Any) -> tuple[Any, str]:
    """Asha's phone at a new table against the computer: the phone and the table's code."""
    phone = new_phone()
    return phone, start_computer_game(phone, app_server, "Asha")
