"""What "your turn" costs a table where nobody turned notifications on: a claim found with no
subscription is not asked about again by this process for ``push.NOT_SUBSCRIBED_KEPT``
seconds (no query per turn), and a phone that turns them on through this process, or a page
of the table that says it is in sight here, has them asked about at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables import claims
from tables.models import PageInSight, PushSubscription, Table
from tables.write import lobby, play, push
from tests.tables.helpers import game_of
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inline(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The push threads' work done at once, each job's function named in the list."""
    settings.PUSH_IN_BACKGROUND = False
    jobs: list[str] = []

    def run_now(function: Any, *args: Any) -> None:
        jobs.append(function.__name__)
        function(*args)

    monkeypatch.setattr(push, "later", run_now)
    monkeypatch.setattr(push, "_not_subscribed", {})
    monkeypatch.setattr(push, "_sighted", {})
    monkeypatch.setattr(push, "_sight_written", {})
    yield jobs


def _turn(table: Table) -> None:
    table.refresh_from_db()
    game = game_of(table)
    push.after_change(table, list(table.seats.all()), game)


def test_a_claim_with_no_subscription_costs_no_query_per_turn(inline: list[str]) -> None:
    if not push.enabled():
        pytest.skip("no VAPID pair: notifications are off and nothing is asked")  # never in CI
    table, (asha, _bikash) = seat_people_now([["Asha"], ["Bikash"]],
                                             lobby.TableSettings(seat_count=2))
    _turn(table)
    assert inline == ["your_turn"], "the first turn asks whether the claim is subscribed"
    with CaptureQueriesContext(connection) as asked:
        for _ in range(5):
            _turn(table)
    assert inline == ["your_turn"]
    assert not [q for q in asked.captured_queries if "pushsubscription" in q["sql"]]
    hashes = claims.session_hashes(asha) + claims.session_hashes(_bikash)
    push._remember(PushSubscription.objects.create(
        endpoint="https://fcm.googleapis.com/fcm/send/x", p256dh="k", auth="a", phone="p"
    ), hashes)  # turned on through this process: asked about at the next turn
    _turn(table)
    assert inline == ["your_turn", "your_turn"]


def test_a_page_in_sight_at_the_table_has_its_claims_asked_about_again(
    inline: list[str],
) -> None:
    """A phone that turned notifications on through another process: its page of the table
    says it is in sight (only such a phone says so), and the next turn asks again."""
    if not push.enabled():
        pytest.skip("no VAPID pair: notifications are off and nothing is asked")  # never in CI
    table, _sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2))
    _turn(table)
    _turn(table)
    assert inline == ["your_turn"]  # the second turn: known not subscribed, nothing asked
    push.sight(table.id, "another-phone", 1)
    _turn(table)
    assert inline == ["your_turn", "your_turn"]
    _turn(table)
    assert inline == ["your_turn", "your_turn"]  # known again, until the next page in sight


def test_a_page_still_in_sight_is_written_every_other_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page in sight says so every minute; its row is written when it changes, and for a
    page still in sight only when this process last wrote it over ``SIGHT_WRITTEN_EVERY``
    seconds ago (under ``SIGHT_STALE``)."""
    # Reports a minute apart: a row written at least every two minutes, never stale.
    assert push.SIGHT_STALE.total_seconds() > push.SIGHT_WRITTEN_EVERY + 60
    monkeypatch.setattr(push, "_sighted", {})
    monkeypatch.setattr(push, "_sight_written", {})
    table, _sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2))
    clock = [1000.0]
    monkeypatch.setattr(push, "_clock", lambda: clock[0])

    def written(change: int, after: float) -> bool:
        clock[0] += after
        with CaptureQueriesContext(connection) as asked:
            push.sight(table.id, "phone-a", change)
        return any("pageinsight" in q["sql"].lower() for q in asked.captured_queries)

    assert written(+1, 0)  # came into sight
    assert not written(0, 60)  # still in sight a minute later
    assert written(0, 60)  # two minutes after the last write
    assert written(-1, 5)  # out of sight: always written
    assert written(+1, 5)
    seen = PageInSight.objects.get(table=table, phone="phone-a")
    assert seen.visible == 1


def test_a_table_where_nobody_turned_notifications_on_costs_one_query(
    inline: list[str],
) -> None:
    """The first turn asks about every person at the table in one query: the next persons'
    turns ask nothing."""
    if not push.enabled():
        pytest.skip("no VAPID pair: notifications are off and nothing is asked")  # never in CI
    with CaptureQueriesContext(connection) as asked:
        table, _sessions = seat_people_now(
            [["Asha"], ["Bikash"], ["Chandra"]], lobby.TableSettings(seat_count=3)
        )
        for _ in range(6):
            _turn(table)
            table.refresh_from_db()
            game = game_of(table)
            assert game.hand is not None
            legal = game.hand.legal_actions()
            assert legal is not None
            play.act(
                table.id, [s.claim_hash for s in table.seats.all()
                           if s.position == game.hand.seat_to_act],
                kind="check" if legal.can_check else "call", amount=None,
                version=table.version, action_id=play.random_action_id(),
            )
    assert inline == ["your_turn"]
    assert len([q for q in asked.captured_queries if "pushclaim" in q["sql"]]) == 1
