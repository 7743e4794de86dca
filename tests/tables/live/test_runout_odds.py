"""The odds of an all-in run-out at the table (issue 27): in the frame only once every hand
still in is face up, the same for every phone, and the next hand waits for the run-out."""

from __future__ import annotations

import json
import random
import re

from django.test import override_settings

from engine.game import Game, GameSettings
from tables.cache import fragments
from tables.live.frames import FrameOptions, render_frame
from tables.live.perspective import PassState, perspective
from tables.models import Table
from tables.write.deadlines import deadline_for
from tests.tables.helpers import Frame, leaked_cards
from tests.tables.helpers.frames import PERSONS, draw, snapshot_of


def data_of(text: str) -> dict[str, object]:
    found = re.search(r'<script id="table-data"[^>]*>(.*?)</script>', text, re.S)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def all_in_game(seed: int) -> tuple[Game, list[Game]]:
    """Four seats: the first to act goes all in, the next calls, the others fold. Returns the
    finished game and the game after each action before."""
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(seed))
    hand = game.start_hand(seed=seed)
    before: list[Game] = []
    moves = ["all_in", "call", "fold", "fold"]
    while not hand.finished:
        before.append(Game.from_dict(game.to_dict()))
        legal = hand.legal_actions()
        assert legal is not None
        game.act(legal.seat, moves.pop(0) if moves else "fold")
    return game, before


@override_settings(TABLES_NEXT_HAND_PAUSE=5.0, TABLES_RUNOUT_STEP=0.4)
def test_every_phone_gets_the_same_run_out_odds_once_the_hands_are_face_up() -> None:
    fragments.clear()
    game, before = all_in_game(3)
    for earlier in before:  # no frame before the end holds odds
        for mine in ([0], [1], [2], []):
            assert "runout" not in data_of(draw(snapshot_of(earlier), mine).text)
    snapshot = snapshot_of(game, 9)
    seen = []
    for mine in ([0], [1], [2], []):
        frame = draw(snapshot, mine)
        runout = data_of(frame.text)["runout"]
        assert isinstance(runout, dict)
        seen.append(runout)
        # Only the shown hands and the board: nothing a phone may not see.
        assert not leaked_cards(frame.text, frame_allowed(game, mine))
    assert all(r == seen[0] for r in seen)
    stages = seen[0]["stages"]
    assert [s["board"] for s in stages] == [0, 3, 4]
    assert stages[0]["method"] == "simulated" and stages[1]["method"] == "exact"
    assert len(seen[0]["seats"]) == 2 and seen[0]["step"] == 2000
    for stage in stages:
        total = sum(stage["win"]) + max(stage["split"])
        assert 995 <= total <= 1005  # the wins and one share of the splits make the whole


def frame_allowed(game: Game, mine: list[int]) -> set:  # type: ignore[type-arg]
    hand = game.hand
    assert hand is not None
    allowed = set(hand.board)
    for i, seat in enumerate(hand.seats):
        if seat in mine[:1] or seat in hand.shown_seats():
            allowed |= set(hand.hole[i])
    return allowed


@override_settings(TABLES_NEXT_HAND_PAUSE=5.0, TABLES_RUNOUT_STEP=0.4)
def test_the_next_hand_waits_two_seconds_a_street_after_a_run_out() -> None:
    game, _ = all_in_game(3)
    table = Table(status=Table.Status.PLAYING)
    kind, delay = deadline_for(table, game, {})
    assert kind == Table.Deadline.NEXT_HAND and delay == 5.0 + 3 * 2.0


def test_a_hand_won_without_a_run_out_has_no_odds_and_no_longer_pause() -> None:
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=random.Random(1))
    hand = game.start_hand(seed=1)
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        game.act(legal.seat, "check" if legal.can_check else "call")
    assert "runout" not in data_of(draw(snapshot_of(game), [0]).text)
    persp = perspective(snapshot_of(game), [0], PassState())
    frame = Frame(render_frame(snapshot_of(game), persp, FrameOptions(language="ne")))
    assert "runout" not in data_of(frame.text)
