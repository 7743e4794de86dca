"""The counts a person reads agree everywhere, and say what they mean.

- Game over and the recap count the same hands: the hands played to their end. A hand the
  host calls off by ending the game is dealt (its number was shown) but not played; game over
  said one more than the recap.
- A guest is told why the game ended when the host ends it early, and by whom.
- "Blinds go up after 0 more hands" said on the last hand of a level: "after this hand".
"""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from tables import claims, clock
from tables.cache import load_snapshot
from tables.live import frames, perspective
from tables.models import Hand, Table
from tables.pages import recap
from tables.write import host as host_controls
from tables.write import lobby
from tests.tables.helpers import game_of, play_out
from tests.tables.helpers.driver import seat_people_now

pytestmark = pytest.mark.django_db(transaction=True)


def _over(table: Table, seat: int) -> str:
    snapshot = load_snapshot(table.id)
    assert snapshot is not None
    persp = perspective.Perspective((seat,), seat, seat, None)
    return frames.render_frame(snapshot, persp, frames.FrameOptions())


def _over_count(table: Table, seat: int) -> int:
    html = _over(table, seat)
    found = re.search(r"(\d+) hands? played", html)
    assert found, "no count of hands on the game over screen"
    return int(found.group(1))


def test_game_over_counts_the_hands_the_recap_counts_when_the_host_ends_mid_hand() -> None:
    table, sessions = seat_people_now([["Asha"], ["Bikash"]], lobby.TableSettings(seat_count=4))
    # Time-outs and computer players until hand 3 is being played (a deadline of any kind: the
    # people may be away by then, their turns taken at once).
    for _ in range(2000):
        table.refresh_from_db()
        game = game_of(table)
        if game.hand_number >= 3 and game.hand is not None and game.hand_running:
            break
        clock.fire(table.id, table.version, table.next_deadline)
    running = game_of(table).hand_number
    assert running >= 3
    assert host_controls.end_game(table.id, claims.session_hashes(sessions[0])) == running
    table.refresh_from_db()
    played = Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False).count()
    assert played == running - 1
    assert len(recap.build(table).hands) == played
    assert _over_count(table, 0) == played
    # Every phone, the guest's too, is told why the game ended and by whom.
    for seat in (0, 1):
        assert "Asha, the host, ended the game early: places go by chips." in _over(
            table, seat
        )


def test_the_last_hand_of_a_level_says_the_blinds_go_up_after_this_hand() -> None:
    def level_line(left: int) -> str:
        html = render_to_string("table/_table_info.html", {
            "top": {"blinds": (10, 20), "hand_number": 10, "to_next_level": left},
        })
        found = re.search(r'table-info__level">([^<]*)<', html)
        assert found
        return found.group(1)

    assert level_line(0) == "Blinds go up after this hand"
    assert level_line(1) == "Blinds go up after 1 more hand"
    assert level_line(3) == "Blinds go up after 3 more hands"


def test_game_over_counts_the_hands_the_recap_counts_when_the_game_ends_by_itself() -> None:
    # Asha against three computer players: she wins every chip, or has none left (R33), with
    # computer players still holding chips: either way nobody ended the game early.
    table, _sessions = seat_people_now([["Asha"]], lobby.TableSettings(seat_count=4))
    table = play_out(table.id)
    assert table.status == Table.Status.FINISHED
    played = Hand.objects.filter(table=table, ended_at__isnull=False, cancelled=False).count()
    assert played == game_of(table).hand_number
    assert len(recap.build(table).hands) == played
    assert _over_count(table, 0) == played
    assert 'data-testid="over-why"' not in _over(table, 0)  # one player won every chip
