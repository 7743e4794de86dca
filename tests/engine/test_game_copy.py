"""``Game.copy`` (used by the tables write path instead of rebuilding the state from JSON) gives
a twin that behaves exactly like the game rebuilt from its JSON, and is independent of it."""

from __future__ import annotations

import json
import random

from engine.game import Game, GameSettings


def _step(game: Game, rng: random.Random) -> tuple[int, str, int | None]:
    """A random legal action for the seat to act (bets, raises, all ins, folds, calls)."""
    hand = game.hand
    assert hand is not None
    legal = hand.legal_actions()
    assert legal is not None
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
