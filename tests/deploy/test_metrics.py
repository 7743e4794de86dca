"""Prometheus metrics: counted where things happen, shown to the machine itself or a token."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from tables import clock, metrics
from tables.write import lobby
from tests.tables.helpers import hold_only
from tests.tables.helpers.driver import build

KINDS = ("bot", "turn", "away", "next_hand")


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db(transaction=True)
async def test_a_game_played_over_websockets_is_counted() -> None:
    before = {
        "open": value("holdem_open_websockets"),
        "actions": value("holdem_actions_total"),
        "latency": value("holdem_action_to_last_frame_seconds_count"),
        "deadlines": sum(
            value("holdem_deadlines_fired_total", kind=kind) for kind in KINDS
        ),
    }
    driver = await build([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    assert value("holdem_open_websockets") == before["open"] + len(driver.phones)
    steps = 0
    while steps < 40 and await driver.step():
        steps += 1
    acted = driver.stats.actions
    assert acted >= 3
    assert value("holdem_actions_total") == before["actions"] + acted
    deadlines = sum(
        value("holdem_deadlines_fired_total", kind=kind) for kind in KINDS
    )
    assert deadlines == before["deadlines"] + steps - acted
    # Every action but the last has seen a newer version drawn, which closes its measurement.
    measured = value("holdem_action_to_last_frame_seconds_count") - before["latency"]
    assert acted - 1 <= measured <= acted
    await driver.close()
    assert value("holdem_open_websockets") == before["open"]


@pytest.mark.django_db(transaction=True)
async def test_a_refused_action_is_one_log_line_with_table_version_and_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    driver = await build([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2))
    phone = driver.persons[0].phone
    version = phone.frames[-1].version
    with caplog.at_level(logging.INFO, logger="tables.actions"):
        await phone.send({"type": "action", "kind": "fold", "version": version - 1,
                          "action_id": "old-1"})
        await phone.next()
    lines = [r for r in caplog.records if r.name == "tables.actions"]
    assert len(lines) == 1
    assert lines[0].getMessage() == (
        f"table {driver.table.code} version {version - 1}: refused stale"
    )
    assert lines[0].__dict__["reason"] == "stale" and lines[0].__dict__["outcome"] == "refused"
    await driver.close()


@pytest.mark.django_db
def test_a_change_of_play_made_again_under_the_lock_is_counted() -> None:
    from tests.tables.helpers.pages import started

    started("alice", "bob", seats=2)
    before = value("holdem_write_retries_total")
    hold_only()  # this process holds no version of the table: the change is made under the lock
    assert clock.tick(timezone.now() + timedelta(minutes=5)) == 1  # a time-out, a change of play
    assert value("holdem_write_retries_total") == before + 1


def test_chat_messages_are_counted() -> None:
    before = value("holdem_chat_messages_total")
    metrics.chat_message()
    assert value("holdem_chat_messages_total") == before + 1


@pytest.mark.django_db
def test_metrics_are_shown_to_the_machine_itself() -> None:
    response = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("holdem_open_websockets", "holdem_actions_total",
                 "holdem_action_to_last_frame_seconds_bucket", "holdem_write_retries_total",
                 "holdem_chat_messages_total"):
        assert name in text
    assert Client(REMOTE_ADDR="::1").get("/metrics").status_code == 200


@pytest.mark.django_db
def test_metrics_are_hidden_from_others_and_from_requests_a_proxy_passed_on() -> None:
    assert Client(REMOTE_ADDR="203.0.113.7").get("/metrics").status_code == 404
    proxied = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert proxied.get("/metrics").status_code == 404


@pytest.mark.django_db
def test_metrics_are_shown_to_whoever_has_the_token(settings: object) -> None:
    settings.METRICS_TOKEN = "s3cret-token"  # type: ignore[attr-defined]
    far = Client(REMOTE_ADDR="203.0.113.7")
    assert far.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert far.get("/metrics", HTTP_AUTHORIZATION="Bearer guess").status_code == 404
    assert far.get("/metrics").status_code == 404


