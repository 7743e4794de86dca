"""P5: what would have come. After a hand that ended before the river, anyone dealt into it
may ask; the rest of the board (from the hand's deck, a card burnt before each street) is shown
to everyone at the table until the next deal, marked as not played, and noted in the hand's
history; no pot, result or statistic changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from tables import cache, claims, clock
from tables.live.frames import FrameOptions, render_frame
from tables.live.perspective import PassState, perspective
from tables.models import Hand, Table
from tables.read import statistics
from tables.write import lobby, play
from tables.write.path import Refused
from tables.write.rest_of_board import show
from tests.tables.helpers import client_lobby, game_of, new_session
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db


def heads_up(**settings: Any) -> tuple[Table, list[Any]]:
    return seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=2, **settings))


def hashes(session: Any) -> list[str]:
    return claims.session_hashes(session)


def fold_preflop(table: Table, sessions: list[Any]) -> None:
    """The person to act folds: the hand ends with no board."""
    row = Table.objects.get(pk=table.id)
    legal = game_of(row).hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    play.act(table.id, hashes(sessions[legal.seat]), kind="fold", amount=None,
             version=row.version, action_id=f"{row.version}-fold", seat=legal.seat)
    assert game_of(Table.objects.get(pk=table.id)).hand.finished  # type: ignore[union-attr]


def frame_for(table: Table, mine: list[int]) -> str:
    snapshot = cache.load_snapshot(table.id)
    assert snapshot is not None
    persp = perspective(snapshot, mine, PassState())
    return str(render_frame(snapshot, persp, FrameOptions(language="en")))


def test_p5_the_rest_of_the_board_comes_from_the_hands_deck_with_burns() -> None:
    table, sessions = heads_up()
    fold_preflop(table, sessions)
    cards = show(table.id, hashes(sessions[0]))
    deck = Hand.objects.get(table=table, number=1).record["deck"]
    # Two players: hole cards 0-3, burn 4, flop 5-7, burn 8, turn 9, burn 10, river 11.
    assert cards == [deck[5], deck[6], deck[7], deck[9], deck[11]]
    assert not set(cards) & set(deck[:4])  # never a hole card


def test_p5_refused_while_the_hand_runs() -> None:
    table, sessions = heads_up()
    with pytest.raises(Refused) as refused:
        show(table.id, hashes(sessions[0]))
    assert refused.value.code == "hand_running"
    assert Table.objects.get(pk=table.id).rest_of_board_hand is None


def test_p5_refused_to_a_watcher() -> None:
    table, sessions = heads_up()
    fold_preflop(table, sessions)
    with pytest.raises(Refused) as refused:
        show(table.id, hashes(new_session()))
    assert refused.value.code == "not_dealt"
    assert "rest-of-board-ask" not in frame_for(table, [])  # no button for a watcher either
    assert 'data-testid="rest-of-board-ask"' in frame_for(table, [1])


def test_p5_refused_when_the_host_turned_it_off() -> None:
    table, sessions = heads_up(rest_of_board=False)
    fold_preflop(table, sessions)
    with pytest.raises(Refused) as refused:
        show(table.id, hashes(sessions[1]))
    assert refused.value.code == "rest_off"
    assert "rest-of-board" not in frame_for(table, [1])


def test_p5_the_host_turns_it_off_when_making_the_table() -> None:
    table, _clients = client_lobby("Asha", "Bikash", seats=2, rest_of_board="off")
    assert table.rest_of_board is False
    table, _clients = client_lobby("Chandra", "Dipa", seats=2)
    assert table.rest_of_board is True  # the default


def test_p5_no_pot_result_or_statistic_changes() -> None:
    table, sessions = heads_up()
    fold_preflop(table, sessions)
    row = Table.objects.get(pk=table.id)
    hand = Hand.objects.get(table=table, number=1)
    before = (row.state, hand.record, hand.final_stacks, statistics.results(row),
              statistics.counted([row]))
    show(table.id, hashes(sessions[0]))
    row = Table.objects.get(pk=table.id)
    hand = Hand.objects.get(table=table, number=1)
    after = (row.state, hand.record, hand.final_stacks, statistics.results(row),
             statistics.counted([row]))
    assert after == before


def test_p5_shown_to_everyone_at_the_table_marked_not_played() -> None:
    table, sessions = heads_up()
    fold_preflop(table, sessions)
    cards = show(table.id, hashes(sessions[1]))
    for mine in ([0], [1], []):  # both players and a watcher
        frame = frame_for(table, mine)
        assert 'data-testid="rest-of-board"' in frame
        assert "not played" in frame
        for card in cards:
            assert f'data-card="{card}"' in frame


def test_p5_gone_when_the_next_hand_starts_and_kept_as_a_note() -> None:
    table, sessions = heads_up()
    fold_preflop(table, sessions)
    show(table.id, hashes(sessions[0]))
    row = Table.objects.get(pk=table.id)
    assert row.deadline_kind == Table.Deadline.NEXT_HAND and row.next_deadline is not None
    assert clock.tick(row.next_deadline + timedelta(seconds=1)) == 1
    assert game_of(Table.objects.get(pk=table.id)).hand_number == 2
    for mine in ([0], []):
        assert "rest-of-board" not in frame_for(table, mine)
    note = Hand.objects.get(table=table, number=1).rest_of_board
    assert note["by"] == "Asha" and len(note["cards"]) == 5
    assert Hand.objects.get(table=table, number=2).rest_of_board == {}


def test_p5_the_hands_history_shows_the_note() -> None:
    table, clients = client_lobby("Asha", "Bikash", seats=2)
    clients[0].post(reverse("tables:start", args=[table.code]))
    host_hashes = claims.session_hashes(clients[0].session)
    guest_hashes = claims.session_hashes(clients[1].session)
    row = Table.objects.get(pk=table.id)
    legal = game_of(row).hand.legal_actions()  # type: ignore[union-attr]
    assert legal is not None
    actor = host_hashes if legal.seat == 0 else guest_hashes
    play.act(table.id, actor, kind="fold", amount=None, version=row.version,
             action_id="fold", seat=legal.seat)
    cards = show(table.id, guest_hashes)
    page = clients[1].get(reverse("tables:hand", args=[table.code, 1]))
    text = page.content.decode()
    assert 'data-testid="rest-of-board-note"' in text
    assert "Bikash asked what would have come" in text
    for card in cards:
        assert f'data-card="{card}"' in text


def test_p5_a_phone_asks_by_a_websocket_message_of_the_playing_family() -> None:
    from tables.live import consumer, playing
    from tables.live.protocol import parse

    message = parse('{"type": "rest_of_board"}', None, 1000)
    assert message.type == "rest_of_board"
    assert consumer.HANDLERS["rest_of_board"] is playing.HANDLERS["rest_of_board"]
