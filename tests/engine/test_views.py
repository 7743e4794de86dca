"""Views: each seat sees exactly what it may (own hole cards, others' only once shown), never
the deck, the burnt cards or a mucked hand; spectators see no hole card until it is shown; and
every view is plain JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.actions import ActionKind
from engine.events import DEAL_HOLE, MUCK, SHOW
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.views import game_view, hand_view, view_for, visible_events
from tests.engine.helpers import make_hand, play


def quoted(cards: Any) -> set[str]:
    return {f'"{c}"' for c in cards}


def random_action(hand: Hand, rng: random.Random) -> tuple[int, ActionKind, int | None]:
    legal = hand.legal_actions()
    assert legal is not None
    roll = rng.random()
    if legal.bet_or_raise is not None and roll < 0.25:
        assert legal.min_to is not None and legal.max_to is not None
        return legal.seat, legal.bet_or_raise, rng.randint(legal.min_to, legal.max_to)
    if legal.bet_or_raise is not None and roll < 0.3:
        return legal.seat, ActionKind.ALL_IN, None
    if roll < 0.4 and not legal.can_check:
        return legal.seat, ActionKind.FOLD, None
    return legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL, None


def assert_private(game: Game) -> None:
    """Check every seat's view and the spectator's against what the server knows."""
    hand = game.hand
    assert hand is not None
    shown = {e.seat for e in hand.events if e.kind == SHOW}
    mucked = {e.seat for e in hand.events if e.kind == MUCK}
    dealt = {str(c) for h in hand.hole for c in h} | {str(c) for c in hand.board}
    never = quoted(str(c) for c in hand.burnt) | quoted(
        str(c) for c in hand.deck if str(c) not in dealt
    )
    for viewer in [*game.seats, None]:
        view = game_view(game, viewer)
        text = json.dumps(view)
        assert json.loads(text) == view  # plain JSON: survives a round-trip unchanged
        assert not [q for q in never if q in text], "a deck or burnt card leaked"
        for i, seat in enumerate(hand.seats):
            cards = quoted(str(c) for c in hand.hole[i])
            if seat == viewer:
                assert cards <= {q for q in cards if q in text}
                assert view["hand"]["players"][i]["cards"] == [str(c) for c in hand.hole[i]]
            elif seat in shown:
                assert view["hand"]["players"][i]["cards"] == [str(c) for c in hand.hole[i]]
            else:
                assert not any(q in text for q in cards), f"seat {seat} leaked to {viewer}"
                assert view["hand"]["players"][i]["cards"] is None
        assert not (mucked & shown)


def test_random_games_never_show_a_card_a_viewer_may_not_see() -> None:
    rng = random.Random(20240501)
    showdowns = mucks = 0
    for g in range(12):
        players = 2 + g % 5
        seats = {s: s == 0 for s in rng.sample(range(6), players)}
        game = Game(GameSettings(blind_every=5), seats, rng=random.Random(g))
        for _ in range(15):
            if game.finished:
                break
            hand = game.start_hand(seed=rng.randrange(10**9))
            assert_private(game)
            while not hand.finished:
                game.act(*random_action(hand, rng))
                assert_private(game)
            showdowns += any(e.kind == SHOW for e in hand.events)
            mucks += any(e.kind == MUCK for e in hand.events)
    assert showdowns > 20 and mucks > 3  # the walk really reached showdowns and mucks


def test_a_seat_sees_its_own_hole_cards_and_nobody_elses() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "QhQd"}, board="2c7s9d3cJs")
    view = hand_view(hand, 1)
    assert [p["cards"] for p in view["players"]] == [None, ["Kh", "Kd"], None]
    text = json.dumps(view)
    for card in ("Ah", "Ad", "Qh", "Qd"):
        assert f'"{card}"' not in text
    deals = [e for e in visible_events(hand, 1) if e["kind"] == DEAL_HOLE]
    assert deals == [
        {"kind": DEAL_HOLE, "seat": 1, "cards": ["Kh", "Kd"]},
        {"kind": DEAL_HOLE, "seat": 2},
        {"kind": DEAL_HOLE, "seat": 0},
    ]
    assert view["you"] == 1
    # From the n-th event on: the same events, as the same viewer sees them.
    for start in range(len(hand.events) + 2):
        assert visible_events(hand, 1, start) == visible_events(hand, 1)[start:]
        assert visible_events(hand, None, start) == visible_events(hand, None)[start:]


def test_the_spectator_sees_no_hole_cards_until_they_are_shown() -> None:
    hand = make_hand({0: 1000, 1: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd"}, board="2c7s9d3cJs")
    play(hand, "0 call", "1 check", "1 check", "0 check", "1 check", "0 check", "1 check")
    view = hand_view(hand, None)
    assert [p["cards"] for p in view["players"]] == [None, None]
    text = json.dumps(view)
    assert not [q for q in quoted(["Ah", "Ad", "Kh", "Kd"]) if q in text]
    assert "you" not in view and view["legal"] is None
    play(hand, "0 check")
    view = hand_view(hand, None)
    assert [p["cards"] for p in view["players"]] == [["Ah", "Ad"], ["Kh", "Kd"]]
    assert [p["shown"] for p in view["players"]] == [True, True]


def test_only_the_seat_to_act_gets_its_legal_actions() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0)
    assert hand_view(hand, 0)["legal"] == {
        "seat": 0, "fold": True, "check": False, "call": 20, "call_all_in": False,
        "bet_or_raise": "raise", "min_to": 40, "max_to": 1000, "all_in_to": 1000, "reason": "",
    }
    assert hand_view(hand, 1)["legal"] is None
    assert hand_view(hand, None)["legal"] is None


def test_burnt_cards_and_the_rest_of_the_deck_never_appear_even_after_the_hand() -> None:
    hand = make_hand({0: 1000, 1: 1000}, button=0, holes={0: "AhAd", 1: "KhKd"},
                     board="2c7s9d3cJs")
    play(hand, "0 all_in", "1 call")
    assert hand.finished and len(hand.burnt) == 3
    secret = quoted(str(c) for c in hand.burnt) | quoted(str(c) for c in hand.deck[13:])
    for viewer in (0, 1, None):
        text = json.dumps(hand_view(hand, viewer))
        assert not [q for q in secret if q in text]
        assert "deck" not in json.loads(text) and "burnt" not in json.loads(text)


def test_a_mucked_hand_never_appears_in_a_view_not_even_in_the_events() -> None:
    hand = make_hand({0: 1000, 1: 1000, 2: 1000}, button=0,
                     holes={0: "AhAd", 1: "KhKd", 2: "5c4c"}, board="2s7s9d3dJs")
    play(hand, "0 call", "1 call", "2 check")
    for _ in range(3):
        play(hand, "1 check", "2 check", "0 check")
    assert [(e.kind, e.seat) for e in hand.events if e.kind in (SHOW, MUCK)] == [
        (SHOW, 1), (MUCK, 2), (SHOW, 0),
    ]
    for viewer in (0, 1, None):
        view = hand_view(hand, viewer)
        text = json.dumps(view)
        assert '"5c"' not in text and '"4c"' not in text
        assert view["players"][2]["cards"] is None and not view["players"][2]["shown"]
        (muck,) = [e for e in view["events"] if e["kind"] == MUCK]
        assert muck == {"kind": MUCK, "seat": 2}


def test_a_seat_view_built_on_the_public_view_equals_the_seat_view() -> None:
    """``view_for`` (used to draw six phones from one public view) gives exactly
    ``game_view(game, viewer, events=False)``, for every seat, a spectator and a stranger, at
    every step of random games, and leaves the public view as it was."""
    rng = random.Random(7)
    checked = 0
    for g in range(8):
        seats = {s: s % 2 == 0 for s in rng.sample(range(6), 2 + g % 5)}
        game = Game(GameSettings(blind_every=5), seats, rng=random.Random(g))
        for _ in range(8):
            if game.finished:
                break
            hand = game.start_hand(seed=rng.randrange(10**9))
            while True:
                public = game_view(game, None, events=False)
                before = json.dumps(public, sort_keys=True)
                for viewer in [*range(7), None]:  # seat 6 is never at the table
                    assert view_for(public, game, viewer) == game_view(
                        game, viewer, events=False
                    )
                    checked += 1
                assert json.dumps(public, sort_keys=True) == before
                if hand.finished:
                    break
                game.act(*random_action(hand, rng))
    assert checked > 2000
