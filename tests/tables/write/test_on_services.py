"""The main flows again on PostgreSQL and Redis (the second pass of scripts/test.sh), plus the
races only a real database shows: concurrent actions and several clocks at once."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from tables import claims, clock
from tables.models import Table
from tables.write import lobby, path, play
from tests.tables.helpers import first_person_turn, game_of
from tests.tables.helpers.driver import build, seat_people_now
from tests.tables.helpers.frames import announced
from tests.tables.live import test_consumers, test_derive
from tests.tables.pages import test_flows, test_pass_and_play
from tests.tables.write import test_held_writes

pytestmark = pytest.mark.services

FLOWS = [
    test_flows.test_it_creates_a_table_and_shows_the_lobby_with_code_link_and_qr,
    test_flows.test_it_joins_by_code_forgiving_case_spaces_and_dashes,
    test_flows.test_it_says_when_a_table_is_full,
    test_flows.test_a_started_table_can_be_watched_but_not_joined,
    test_flows.test_failed_joins_are_rate_limited_per_client,
    test_flows.test_the_host_role_passes_on_when_the_host_leaves_the_lobby,
    test_flows.test_r1_starting_gives_every_empty_seat_to_a_computer_player,
    test_flows.test_a_game_over_shows_the_standings_and_play_again_keeps_the_people,
]

LIVE = [
    test_consumers.test_the_lobby_shows_who_joins_live,
    test_consumers.test_a_phone_joins_and_plays_a_hand_to_the_end,
    test_consumers.test_a_reconnecting_phone_gets_the_current_view_at_once,
    test_consumers.test_a_repeated_action_id_is_applied_once,
    test_consumers.test_a_stale_version_gets_the_fresh_view_and_a_notice,
    test_consumers.test_closing_the_table_reaches_every_phone,
    test_pass_and_play.test_the_phone_gets_a_hand_off_without_any_cards_before_each_turn,
]


# The conditional update's version, code, creation time and pause, compared by PostgreSQL.
HELD = [
    test_held_writes.test_an_action_on_the_version_held_here_is_one_conditional_update,
    test_held_writes.test_the_held_change_writes_the_row_the_locked_path_writes,
    test_held_writes.test_an_action_on_a_version_that_moved_on_is_refused_as_stale_under_the_lock,
    test_held_writes.test_dealing_and_ending_hands_write_their_rows_under_the_lock,
    test_held_writes.test_an_action_on_a_version_loaded_here_finds_the_seats_with_it,
    test_held_writes.test_a_table_paused_by_hand_in_the_database_is_not_moved_on,
]


@pytest.mark.django_db(transaction=True)
def test_a_version_written_elsewhere_is_worked_out_as_postgresql_loads_it() -> None:
    """The row's times and JSON as PostgreSQL gives them back (not as SQLite does)."""
    test_derive.test_a_change_of_play_from_another_process_is_worked_out_as_a_load_builds_it()


@pytest.mark.django_db(transaction=True)
async def test_through_redis_a_change_of_play_tells_the_other_processes_how() -> None:
    told = [m for m in await announced() if "step" in m]
    assert len(told) >= 5
    for message in told:
        step = json.loads(message["step"])
        assert step["from"] == message["version"] - 1 and step["actions"]
        assert step["row"]["version"] == message["version"]


def test_it_runs_on_postgresql_and_redis(settings: Any) -> None:
    assert connection.vendor == "postgresql"
    assert "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]


@pytest.mark.django_db
@pytest.mark.parametrize("flow", FLOWS, ids=[f.__name__ for f in FLOWS])
def test_page_flows(flow: Callable[[], None]) -> None:
    flow()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("held", HELD, ids=[f.__name__ for f in HELD])
def test_changes_made_on_the_held_version(held: Callable[[], None]) -> None:
    held()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("flow", LIVE, ids=[f.__name__ for f in LIVE])
async def test_live_flows(flow: Callable[[], Any]) -> None:
    await flow()


@pytest.mark.django_db(transaction=True)
async def test_a_whole_game_with_several_phones_leaks_nothing() -> None:
    # The deal depends on the table's id (how many tables the tests before made): a game may
    # end in a few hands, so games are played until five hands or more were.
    hands = handoffs = 0
    for seed in range(11, 16):
        driver = await build(
            [["Asha", "Bikash"], ["Chandra"]],
            lobby.TableSettings(seat_count=4, max_hands=30, blind_every=5),
            watchers=1, seed=seed, sleepy=0.05,
        )
        stats = await driver.play()
        await driver.close()
        hands, handoffs = hands + stats.hands, handoffs + stats.handoffs
        if hands >= 5 and handoffs:
            break
    assert hands >= 5 and handoffs > 0


def _in_threads(count: int, work: Callable[[int], None]) -> None:
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            work(index)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_two_taps_at_once_are_applied_once() -> None:
    table, sessions = seat_people_now(
        [["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2)
    )
    version, seat = first_person_turn(table.id)
    hashes = claims.session_hashes(sessions[seat])
    game = game_of(Table.objects.get(pk=table.id))
    legal = game.hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    kind = "check" if legal.can_check else "call"
    results: list[Any] = []

    def tap(index: int) -> None:
        try:
            results.append(play.act(
                table.id, hashes, kind=kind, amount=None, version=version,
                action_id="same-tap" if index < 2 else f"other-{index}",
            ))
        except path.Refused as exc:
            results.append(exc.code)

    _in_threads(4, tap)
    applied = [r for r in results if isinstance(r, play.ActOutcome) and r.applied]
    assert len(applied) == 1
    assert Table.objects.get(pk=table.id).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_several_clocks_fire_each_deadline_exactly_once() -> None:
    table, _sessions = seat_people_now(
        [["Asha"]], lobby.TableSettings(seat_count=4, max_hands=30)
    )
    start = Table.objects.get(pk=table.id).version
    fired: list[list[int]] = [[], [], []]
    later = timezone.now() + timedelta(hours=1)

    def run_clock(index: int) -> None:
        for _ in range(400):
            due = list(Table.objects.due(later).values_list("id", "version"))
            if not due:
                if Table.objects.get(pk=table.id).status != Table.Status.PLAYING:
                    return
                continue
            for table_id, version in due:
                try:
                    if clock.fire(table_id, version, later):
                        fired[index].append(version)
                except path.Busy:
                    pass

    _in_threads(3, run_clock)
    everything = sorted(v for versions in fired for v in versions)
    end = Table.objects.get(pk=table.id).version
    assert len(everything) == len(set(everything)), "a deadline fired twice"
    assert everything == list(range(start, end)), "every version came from one firing"
    assert sum(1 for versions in fired if versions) >= 2, "only one clock ever got to fire"
