"""Nepali complete, in the frames: every screen of a table drawn in Nepali (each turn of a few
hands with bets, raises, folds and all ins, for the player to act, another player and a
watcher; the showdown; the game over) shows no Latin word but the players' names, codes, card
ranks and the explicit allow-list (tests.tables.helpers.latin.ALLOWED)."""

from __future__ import annotations

import random

from engine.game import Game, GameSettings
from tests.tables.helpers.frames import NAMES, PERSONS, draw, snapshot_of
from tests.tables.helpers.latin import allowed_for, latin_words

ALLOWED = allowed_for(NAMES, "K7Q4MX")


def assert_nepali(html: str, where: str) -> None:
    found = latin_words(html, ALLOWED)
    assert not found, f"{where}: {found}"


def test_every_turn_and_showdown_in_nepali_shows_no_latin_word() -> None:
    rng = random.Random(7)
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=rng)
    screens: set[str] = set()
    for number in range(6):
        if game.finished:
            break
        hand = game.start_hand(seed=rng.getrandbits(32))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            snapshot = snapshot_of(Game.from_dict(game.to_dict()), number + 1)
            for mine in ([legal.seat], [s for s in PERSONS if s != legal.seat][:1], []):
                frame = draw(snapshot, mine, "ne")
                screens.add(frame.screen or "")
                assert_nepali(frame.text, f"hand {number + 1}, seat {legal.seat} to act, {mine}")
            r = rng.random()
            if legal.bet_or_raise is not None and legal.min_to is not None and r < 0.25:
                game.act(legal.seat, legal.bet_or_raise, legal.min_to)
            elif not legal.can_check and r < 0.4:
                game.act(legal.seat, "fold")
            elif legal.bet_or_raise is not None and r < 0.45:
                game.act(legal.seat, "all_in")
            else:
                game.act(legal.seat, "check" if legal.can_check else "call")
        ended = snapshot_of(Game.from_dict(game.to_dict()), 100 + number, deadline_kind="next_hand")
        for mine in ([0], [1], []):
            assert_nepali(draw(ended, mine, "ne").text, f"after hand {number + 1}, {mine}")
    assert screens, "no frame was drawn"


def test_the_game_over_frame_in_nepali_shows_no_latin_word() -> None:
    rng = random.Random(3)
    game = Game(GameSettings(), {s: s in PERSONS for s in range(4)}, rng=rng)
    while not game.finished:
        hand = game.start_hand(seed=rng.getrandbits(32))
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            game.act(legal.seat, "all_in" if legal.bet_or_raise is not None else "call")
    over = snapshot_of(game, 999, status="finished", deadline_kind="", next_deadline=None)
    for mine in ([0], [1], []):
        frame = draw(over, mine, "ne")
        assert frame.screen == "over", frame.screen
        assert_nepali(frame.text, f"game over, {mine}")
