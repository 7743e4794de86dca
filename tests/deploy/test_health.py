"""/healthz: 200 when the database and the channel layer answer within a second, else 503."""

from __future__ import annotations

import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from django.test import Client

from tests.helpers.servers import Server

pytestmark = pytest.mark.django_db


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that takes connections and never says a word (a hung database or Redis)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(listener.getsockname()[1])
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_healthz_answers_200_when_the_database_and_the_layer_answer() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]
    assert Client().head("/healthz").status_code == 200


def test_healthz_answers_503_within_a_second_or_so_when_the_layer_hangs(
    settings: object, silent_port: int
) -> None:
    settings.CHANNEL_LAYERS = {  # type: ignore[attr-defined]
        "default": {
            "BACKEND": "tables.live.redis_layer.RedisPubSubLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{silent_port}/0"]},
        }
    }
    started = time.monotonic()
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.content == b"unavailable\n"  # nothing about what or where
    assert time.monotonic() - started < 3


def test_healthz_answers_503_when_the_layer_refuses(settings: object) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CHANNEL_LAYERS = {  # type: ignore[attr-defined]
        "default": {
            "BACKEND": "tables.live.redis_layer.RedisPubSubLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]},
        }
    }
    assert Client().get("/healthz").status_code == 503


def _status(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_server_whose_database_hangs_answers_503(silent_port: int) -> None:
    server = Server({
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{silent_port}/holdem",
        "REDIS_URL": "", "DEBUG": "true", "TABLES_CLOCK_IN_SERVER": "false",
    })
    server.start()
    try:
        started = time.monotonic()
        status, body = _status(server.base + "/healthz")
        assert status == 503 and body == b"unavailable\n"
        assert time.monotonic() - started < 3
    finally:
        server.stop()
