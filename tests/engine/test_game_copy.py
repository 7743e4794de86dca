"""``Game.copy`` (used by the tables write path instead of rebuilding the state from JSON) gives
a twin that behaves exactly like the game rebuilt from its JSON, and is independent of it."""

from __future__ import annotations

import json
import random

import pytest

from engine.game import Game, GameSettings
from tests.engine.helpers import legal_now


def _step(game: Game, rng: random.Random) -> tuple[int, str, int | None]:
    """A random legal action for the seat to act (bets, raises, all ins, folds, calls)."""
    legal = legal_now(game)
    r = rng.random()
    if legal.bet_or_raise is not None and legal.min_to is not None and r < 0.2:
        to = rng.randint(legal.min_to, legal.max_to or legal.min_to)
        return legal.seat, legal.bet_or_raise, to
    if not legal.can_check and r < 0.4:
        return legal.seat, "fold", None
    if legal.bet_or_raise is not None and r < 0.42:
        return legal.seat, "all_in", None
    return legal.seat, "check" if legal.can_check else "call", None


def test_a_copy_plays_on_like_the_game_rebuilt_from_json_and_leaves_the_original_alone() -> None:
    compared = 0
    for seed in range(60):
        rng = random.Random(seed)
        persons = {s: s % 2 == 0 for s in range(2 + seed % 5)}
        game = Game(GameSettings(blind_every=5), persons, rng=rng)
        while not game.finished and compared < 4000:
            if game.hand is None or game.hand.finished:
                game.start_hand(seed=rng.getrandbits(32))
                continue
            before = json.dumps(game.to_dict())
            twin = game.copy()
            rebuilt = Game.from_dict(json.loads(before))
            assert twin.to_dict() == rebuilt.to_dict()
            action = _step(game, rng)
            for other in (twin, rebuilt):
                other.act(*action)
            # Play the twin on a little further: the original must not move.
            assert json.dumps(game.to_dict()) == before
            assert twin.to_dict() == rebuilt.to_dict()
            assert twin.hand is not None and rebuilt.hand is not None
            assert twin.hand.legal_actions() == rebuilt.hand.legal_actions()
            assert [e.to_dict() for e in twin.hand.events] == [
                e.to_dict() for e in rebuilt.hand.events
            ]
            if twin.hand.finished and not twin.finished:
                twin.start_hand(seed=7)
                assert json.dumps(game.to_dict()) == before
            game.act(*action)
            compared += 1
    assert compared > 500


def _same_game(one: Game, other: Game) -> None:
    assert one.to_dict() == other.to_dict()
    if one.hand is not None or other.hand is not None:
        assert one.hand is not None and other.hand is not None
        assert one.hand.legal_actions() == other.hand.legal_actions()
        assert [e.to_dict() for e in one.hand.events] == [e.to_dict() for e in other.hand.events]


def test_a_state_rebuilt_on_an_earlier_one_is_the_state_rebuilt_from_scratch() -> None:
    """``Game.from_dict(state, base=earlier)`` (the tables load a new version on the one they
    hold) builds exactly what ``Game.from_dict(state)`` builds, plays on alike, and never
    changes ``earlier``; a base from another hand or another deal is simply not used."""
    continued = fell_back = 0
    for seed in range(40):
        rng = random.Random(1000 + seed)
        game = Game(GameSettings(blind_every=5), {s: True for s in range(2 + seed % 5)}, rng=rng)
        states: list[str] = []
        while not game.finished and len(states) < 120:
            if game.hand is None or game.hand.finished:
                game.start_hand(seed=rng.getrandbits(32))
            else:
                game.act(*_step(game, rng))
            states.append(json.dumps(game.to_dict()))
        for at, text in enumerate(states):
            # An earlier state of this game (same hand or not), or a state of another game.
            earlier_text = states[max(0, at - rng.randint(0, 4))]
            earlier = Game.from_dict(json.loads(earlier_text))
            state = json.loads(text)
            built = Game.from_dict(state, base=earlier)
            _same_game(built, Game.from_dict(json.loads(text)))
            assert json.dumps(earlier.to_dict()) == earlier_text  # the base never moves
            same_hand = (
                earlier.hand is not None and built.hand is not None
                and earlier.hand.deck == built.hand.deck
            )
            continued += same_hand
            fell_back += not same_hand
            if built.hand is not None and not built.hand.finished:
                # Both play on alike, and playing on leaves the base alone.
                action = _step(built, random.Random(at))
                scratch = Game.from_dict(json.loads(text))
                built.act(*action)
                scratch.act(*action)
                _same_game(built, scratch)
                assert json.dumps(earlier.to_dict()) == earlier_text
    assert continued > 500 and fell_back > 50


def test_a_record_that_continues_its_base_is_not_replayed_from_its_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import history

    rng = random.Random(9)
    game = Game(GameSettings(), {s: True for s in range(3)}, rng=rng)
    hand = game.start_hand(seed=3)
    game.act(*_step(game, rng))
    base = hand.copy()
    game.act(*_step(game, rng))
    record = history.hand_record(hand)

    def no_new_hand(*args: object) -> None:
        raise AssertionError("the hand was dealt again instead of continued")

    monkeypatch.setattr(history, "Hand", no_new_hand)
    again = history.replay(record, base)
    assert len(again.actions) == 2 and len(base.actions) == 1
    assert history.hand_record(again) == record


def test_a_record_that_is_not_the_base_played_on_is_replayed_from_its_start() -> None:
    """The base's actions must be the record's first ones: a record that went another way
    from the same deal (or the base with an action too many) is replayed whole."""
    from engine.history import hand_record, replay

    rng = random.Random(5)
    game = Game(GameSettings(), {s: True for s in range(4)}, rng=rng)
    hand = game.start_hand(seed=11)
    game.act(*_step(game, rng))
    base = hand.copy()
    record = hand_record(hand)
    legal = hand.legal_actions()
    assert legal is not None
    other = dict(record, actions=[*record["actions"][:-1]])  # one action short of the base
    assert len(replay(other, base).actions) == len(record["actions"]) - 1
    game.act(legal.seat, "fold")
    forked = hand_record(game.hand) if game.hand is not None else record
    diverged = dict(forked, actions=[{**forked["actions"][0], "seat": -1}, *forked["actions"][1:]])
    try:
        replay(diverged, base)
    except ValueError as exc:  # replayed from the start: the bad first action is reported
        assert "action 1" in str(exc)
    else:
        raise AssertionError("a record that differs from its base was not replayed whole")
