"""Action ids (double taps): remembered by the table as the action is applied, once per
table; a refused action leaves its id free."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables import clock
from tables.models import Table
from tables.write import path, play
from tests.tables.helpers import game_of, pass_and_play

pytestmark = pytest.mark.django_db(transaction=True)


def a_turn() -> tuple[Table, list[str], int, int]:
    """A pass-and-play table at a person's turn: the table, the phone's claims, the seat to
    act and the phone's other seat."""
    table, hashes = pass_and_play(["Asha", "Bikash", "Chandra"], 3)
    game = game_of(table)
    assert game.hand is not None and game.hand.seat_to_act is not None
    to_act = game.hand.seat_to_act
    other = next(s for s in range(3) if s != to_act)
    return table, hashes, to_act, other


def test_a_refused_action_leaves_its_id_free_for_the_real_one() -> None:
    table, hashes, to_act, other = a_turn()
    with pytest.raises(path.Refused) as refused:
        play.act(
            table.id, hashes, kind="fold", amount=None, version=table.version,
            action_id="tap-1", seat=other, revealed=other,
        )
    assert refused.value.code == "not_your_turn"
    assert "tap-1" not in Table.objects.get(pk=table.id).recent_actions
    done = play.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-1", seat=to_act, revealed=to_act,
    )
    assert done.applied and done.version == table.version + 1
    assert Table.objects.get(pk=table.id).recent_actions == ["tap-1"]


def test_a_double_tap_is_applied_once_and_the_second_changes_nothing() -> None:
    table, hashes, to_act, _ = a_turn()
    first = play.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-2", revealed=to_act,
    )
    again = play.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-2", revealed=to_act,
    )
    assert first.applied and not again.applied
    assert again.version == first.version == Table.objects.get(pk=table.id).version
    assert Table.objects.get(pk=table.id).recent_actions == ["tap-2"]
    # The same id at another table is another action.
    other_table, other_hashes, other_to_act, _ = a_turn()
    elsewhere = play.act(
        other_table.id, other_hashes, kind="fold", amount=None, version=other_table.version,
        action_id="tap-2", revealed=other_to_act,
    )
    assert elsewhere.applied


def test_a_table_remembers_its_last_action_ids_and_an_old_one_is_still_refused() -> None:
    """The table keeps the last RECENT_ACTIONS_KEPT ids. An id older than that comes back only
    with the version it was drawn for, long gone: refused as stale, never applied twice."""
    table, hashes = pass_and_play(["Asha", "Bikash"], 2)
    first_version = table.version
    ids: list[str] = []
    while len(ids) < play.RECENT_ACTIONS_KEPT + 3:
        row = Table.objects.get(pk=table.id)
        game = game_of(row)
        if not game.hand_running:  # the next hand, as the clock would deal it
            clock.fire(table.id, row.version, now=timezone.now() + timedelta(hours=1))
            continue
        assert game.hand is not None
        legal = game.hand.legal_actions()
        assert legal is not None
        ids.append(f"tap-{len(ids)}")
        done = play.act(
            table.id, hashes, kind="check" if legal.can_check else "call", amount=None,
            version=row.version, action_id=ids[-1], revealed=legal.seat,
        )
        assert done.applied
    row = Table.objects.get(pk=table.id)
    assert row.recent_actions == ids[-play.RECENT_ACTIONS_KEPT :]
    with pytest.raises(path.Refused) as refused:
        play.act(
            table.id, hashes, kind="fold", amount=None, version=first_version,
            action_id=ids[0], revealed=0,
        )
    assert refused.value.code == "stale"
    assert Table.objects.get(pk=table.id).version == row.version
