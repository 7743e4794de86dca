"""Action ids (double taps): claimed as the action is applied, once per table; a refused
action leaves its id free."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import ProcessedAction, Table
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
    with pytest.raises(services.Refused) as refused:
        services.act(
            table.id, hashes, kind="fold", amount=None, version=table.version,
            action_id="tap-1", seat=other, revealed=other,
        )
    assert refused.value.code == "not_your_turn"
    assert not ProcessedAction.objects.filter(action_id="tap-1").exists()
    done = services.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-1", seat=to_act, revealed=to_act,
    )
    assert done.applied and done.version == table.version + 1
    row = ProcessedAction.objects.get(table_id=table.id, action_id="tap-1")
    assert row.seat == to_act and row.result == {"version": table.version + 1}


def test_a_double_tap_is_applied_once_and_the_second_changes_nothing() -> None:
    table, hashes, to_act, _ = a_turn()
    first = services.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-2", revealed=to_act,
    )
    again = services.act(
        table.id, hashes, kind="fold", amount=None, version=table.version,
        action_id="tap-2", revealed=to_act,
    )
    assert first.applied and not again.applied
    assert again.version == first.version == Table.objects.get(pk=table.id).version
    assert ProcessedAction.objects.filter(action_id="tap-2").count() == 1
    # The same id at another table is another action.
    other_table, other_hashes, other_to_act, _ = a_turn()
    elsewhere = services.act(
        other_table.id, other_hashes, kind="fold", amount=None, version=other_table.version,
        action_id="tap-2", revealed=other_to_act,
    )
    assert elsewhere.applied
