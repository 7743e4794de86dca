"""config/serve.py: Daphne started on uvloop's event loop, or on Python's when asked."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import serve
from tests.helpers.servers import Browser, Server, sqlite_server

PROBE = """
import asyncio, sys
from config import serve
chosen = serve.choose_loop(sys.argv[1] if len(sys.argv) > 1 else None)
loop = asyncio.new_event_loop()
print(chosen, type(loop).__module__)
"""


def probe(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True,
        env=env,
    )
    return done.stdout.strip()


def test_uvloop_by_default() -> None:
    assert probe() == "uvloop uvloop"


def test_python_loop_when_asked() -> None:
    assert probe(env={**os.environ, "SERVER_LOOP": "asyncio"}) == "asyncio asyncio.unix_events"
    assert probe("asyncio") == "asyncio asyncio.unix_events"


def test_unknown_loop_refused() -> None:
    with pytest.raises(SystemExit, match="SERVER_LOOP must be uvloop or asyncio"):
        serve.choose_loop("tokio")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("serve")) as server:
        yield server


def test_server_runs_on_uvloop(server: Server) -> None:
    """The test servers (and production's unit) start through config.serve: the process has
    uvloop's loop loaded, and it serves pages."""
    maps = Path(f"/proc/{server.running.pid}/maps").read_text()
    assert "uvloop/loop." in maps
    url, page = Browser(server.base).get("/")
    assert url.endswith("/") and "<html" in page
