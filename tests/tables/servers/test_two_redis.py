"""Several Redis servers behind the channel layer (``REDIS_URL`` with commas): how the setting
is read, and /healthz asking every server. The hands and talk played across two processes on
two Redis servers are in test_two_processes.py and test_chat_two_processes.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels_redis.utils import _consistent_hash
from django.test import Client

from config.channel_layers import channel_layers, redis_hosts
from config.health import probe_groups
from tests.helpers.servers import second_redis

ROOT = Path(__file__).resolve().parents[3]


def test_one_redis_url_is_one_host() -> None:
    layer = channel_layers("redis://127.0.0.1:6379/0", prefix="p")["default"]
    assert layer["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"], "prefix": "p"}


def test_servers_separated_by_commas_are_the_hosts_in_their_order() -> None:
    url = "redis://10.0.0.5:6379/0, redis://10.0.0.6:6379/0,"
    assert redis_hosts(url) == ["redis://10.0.0.5:6379/0", "redis://10.0.0.6:6379/0"]
    layer = channel_layers(url)["default"]
    assert layer["BACKEND"] == "tables.live.redis_layer.RedisPubSubLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://10.0.0.5:6379/0", "redis://10.0.0.6:6379/0"]


def test_no_redis_url_is_the_in_memory_layer() -> None:
    assert channel_layers("")["default"]["BACKEND"] == "tables.live.layers.LocalChannelLayer"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("redis://a:6379/0,http://b:6379/0", "REDIS_URL must start with redis://"),
        ("redis://a:6379/0,redis://a:6379/0", "named twice"),
    ],
)
def test_the_app_refuses_a_bad_list_of_redis_servers(url: str, message: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "REDIS_URL": url}, timeout=60,
    )
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize("servers", [2, 3, 5])
def test_healthz_probes_one_group_on_each_server(servers: int) -> None:
    groups = probe_groups(servers, "asgi")
    placed = [_consistent_hash(f"asgi__group__{name}", servers) for name in groups]
    assert placed == list(range(servers))


def test_one_server_is_probed_with_one_group() -> None:
    assert probe_groups(1, "asgi") == ("healthz",)


@pytest.mark.services
@pytest.mark.django_db
def test_healthz_answers_503_while_either_of_two_redis_servers_is_down(
    settings: object, tmp_path: Path
) -> None:
    with second_redis(tmp_path) as extra:
        prefix = os.environ.get("REDIS_PREFIX") or "asgi"
        settings.CHANNEL_LAYERS = channel_layers(  # type: ignore[attr-defined]
            f"{os.environ['REDIS_URL']},{extra.url}", prefix
        )
        assert Client().get("/healthz").status_code == 200
        extra.stop()
        assert Client().get("/healthz").status_code == 503
        extra.start()
        assert Client().get("/healthz").status_code == 200
