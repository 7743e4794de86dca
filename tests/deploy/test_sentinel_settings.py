"""Redis through Sentinel (``REDIS_SENTINELS``, ``REDIS_MASTER_NAME``, ``REDIS_DB``,
``REDIS_PASSWORD``; config/channel_layers.py): how the variables are read, and what a wrong
one says. The failover itself is in test_redis_failover.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.channel_layers import from_environment, sentinel_addresses
from config.health import probe_groups
from tables.live.redis_layer import where

ROOT = Path(__file__).resolve().parents[2]
SENTINELS = "10.0.0.5:26379, 10.0.0.6:26379,10.0.0.7:26379"


def test_sentinels_are_host_and_port_separated_by_commas() -> None:
    assert sentinel_addresses(SENTINELS) == [
        ("10.0.0.5", 26379), ("10.0.0.6", 26379), ("10.0.0.7", 26379)
    ]
    assert sentinel_addresses("[::1]:26379") == [("::1", 26379)]


def test_the_layer_finds_its_master_through_the_sentinels() -> None:
    layer = from_environment({"REDIS_SENTINELS": SENTINELS})["default"]
    assert layer["BACKEND"] == "tables.live.redis_layer.RedisPubSubLayer"
    (host,) = layer["CONFIG"]["hosts"]
    assert host["master_name"] == "holdem" and host["db"] == 0
    assert host["sentinels"] == sentinel_addresses(SENTINELS)
    # A machine that does not answer is given up on within a second, not waited for.
    assert host["socket_connect_timeout"] <= 1
    assert host["sentinel_kwargs"]["socket_timeout"] <= 1
    assert "password" not in host and where(host) == "master holdem (Sentinel)"


def test_several_masters_share_the_tables_and_a_password_is_passed_on() -> None:
    layer = from_environment({
        "REDIS_SENTINELS": SENTINELS, "REDIS_MASTER_NAME": "holdem-a,holdem-b",
        "REDIS_DB": "2", "REDIS_PASSWORD": "s3cret",
    })["default"]
    hosts = layer["CONFIG"]["hosts"]
    assert [h["master_name"] for h in hosts] == ["holdem-a", "holdem-b"]
    assert all(h["db"] == 2 and h["password"] == "s3cret" for h in hosts)
    assert all(h["sentinel_kwargs"]["password"] == "s3cret" for h in hosts)
    assert "s3cret" not in where(hosts[0])  # log lines name the master, never the password
    assert len(probe_groups(len(hosts), "asgi")) == 2  # /healthz asks each master


def test_without_sentinels_redis_url_decides_as_before() -> None:
    layer = from_environment({"REDIS_URL": "redis://127.0.0.1:6379/0", "REDIS_SENTINELS": " "})
    assert layer["default"]["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]
    assert from_environment({})["default"]["BACKEND"] == "tables.live.layers.LocalChannelLayer"


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"REDIS_SENTINELS": "10.0.0.5"}, "REDIS_SENTINELS must be host:port"),
        ({"REDIS_SENTINELS": "a:1,a:1"}, "named twice"),
        ({"REDIS_SENTINELS": "a:1", "REDIS_MASTER_NAME": "m,m"}, "named twice"),
        ({"REDIS_SENTINELS": "a:1", "REDIS_DB": "x"}, "REDIS_DB must be a number"),
        ({"REDIS_SENTINELS": "a:1", "REDIS_URL": "redis://b:6379/0"}, "not both"),
    ],
)
def test_a_wrong_sentinel_setting_is_named(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_environment(environ)


def test_the_app_refuses_to_start_with_both_redis_url_and_sentinels() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/0",
             "REDIS_SENTINELS": "127.0.0.1:26379"},
        timeout=60,
    )
    assert result.returncode != 0
    assert "REDIS_URL and REDIS_SENTINELS: set one of them, not both" in result.stderr
