"""Property tests (hypothesis): whatever the players do, the engine keeps its promises.

For random hands (2-6 players, random blinds, stacks from a fraction of a blind to deep, random
deck) played with random legal actions:

- chips are conserved after every action and after every recorded event (R3, R19-R24);
- no stack, bet, contribution or pot is ever negative;
- someone can always act until the hand ends, and the action they are offered is accepted;
- every hand ends within a bounded number of actions;
- replaying the record rebuilds the live state exactly, at the end and at any point on the way;

and for whole games (``engine.game.Game``): chips are conserved, the game always ends, and the
JSON state taken at any point between or during hands rebuilds a game that then plays on exactly
like the live one.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import events
from engine.actions import ActionKind, LegalActions
from engine.cards import ALL_CARDS, Card, shuffled_deck
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import hand_record, replay

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


# ---------------------------------------------------------------------------- strategies
@st.composite
def hand_settings(draw: st.DrawFn) -> HandSettings:
    n = draw(st.integers(2, 6))
    seats = tuple(sorted(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True))))
    big = draw(st.sampled_from([2, 10, 20, 25, 50, 100, 6000]))
    small = draw(st.integers(1, big))
    stack = st.one_of(
        st.integers(1, 2 * big),  # short: blinds larger than the stack
        st.integers(1, 20 * big),
        st.integers(20 * big, 300 * big),
    )
    stacks = tuple(draw(st.lists(stack, min_size=n, max_size=n)))
    return HandSettings(
        hand_number=draw(st.integers(1, 500)),
        seats=seats,
        stacks=stacks,
        button=draw(st.sampled_from(seats)),
        small_blind=small,
        big_blind=big,
    )


decks = st.permutations(ALL_CARDS)


def draw_action(data: st.DataObject, legal: LegalActions) -> tuple[ActionKind, int | None]:
    """Any legal action, each kind reachable: fold, check/call, all in, or a bet or raise of
    any legal size (the minimum and the maximum more often)."""
    options: list[str] = ["fold", "passive"]
    if legal.bet_or_raise is not None:
        options += ["min", "max", "any", "all_in"]
    elif legal.call_all_in:
        options.append("all_in")
    choice = data.draw(st.sampled_from(options))
    if choice == "fold":
        return ActionKind.FOLD, None
    if choice == "passive":
        return (ActionKind.CHECK if legal.can_check else ActionKind.CALL), None
    if choice == "all_in":
        return ActionKind.ALL_IN, None
    assert legal.bet_or_raise is not None and legal.min_to is not None
    assert legal.max_to is not None
    if choice == "min":
        return legal.bet_or_raise, legal.min_to
    if choice == "max":
        return legal.bet_or_raise, legal.max_to
    return legal.bet_or_raise, data.draw(st.integers(legal.min_to, legal.max_to))


# ---------------------------------------------------------------------------- invariants
def action_bound(s: HandSettings) -> int:
    """An upper bound on the actions of a hand: every full bet or raise adds at least the big
    blind, short all ins happen at most once per player, and between two raises each player
    acts at most once, on each of four rounds."""
    raises = sum(s.stacks) // s.big_blind + len(s.seats)
    return 4 * len(s.seats) * (raises + 1)


def check_state(hand: Hand) -> None:
    """Chips conserved and nothing negative in the live state."""
    start = sum(hand.settings.stacks)
    assert all(x >= 0 for x in hand.stack), hand.stack
    assert all(x >= 0 for x in hand.bet), hand.bet
    assert all(x >= 0 for x in hand.total), hand.total
    assert all(b <= t for b, t in zip(hand.bet, hand.total, strict=True))
    if hand.finished:
        assert sum(hand.stack) == start
        assert all(p.amount > 0 for p in hand.pots)
        assert sum(p.amount for p in hand.pots) == sum(hand.total)
        assert sum(a.amount for a in hand.awards) == sum(hand.total)
        assert hand.legal_actions() is None
    else:
        assert sum(hand.stack) + sum(hand.total) == start
        assert all(p.amount >= 0 for p in hand.current_pots())
        assert sum(p.amount for p in hand.current_pots()) == sum(hand.total) - sum(hand.bet)


def check_event_ledger(hand: Hand) -> None:
    """Replaying the chips of the event list one event at a time: after every event the stacks
    and the pot are non-negative and add up to the chips the hand started with; at the end the
    stacks are the hand's stacks (and the pot is empty once the hand is over)."""
    seats = hand.seats
    stacks = dict(zip(seats, hand.settings.stacks, strict=True))
    start = sum(stacks.values())
    pot = 0
    known = {
        events.POST_SMALL_BLIND, events.POST_BIG_BLIND, events.DEAL_HOLE, events.BURN,
        events.BOARD, events.ACTION, events.UNCALLED, events.SHOW, events.MUCK, events.AWARD,
        events.HAND_END,
    }
    for event in hand.events:
        assert event.kind in known, event
        assert event.amount >= 0, event
        if event.kind in (events.POST_SMALL_BLIND, events.POST_BIG_BLIND, events.ACTION):
            assert event.seat is not None
            stacks[event.seat] -= event.amount
            pot += event.amount
            assert event.all_in == (stacks[event.seat] == 0), event
        elif event.kind in (events.UNCALLED, events.AWARD):
            assert event.seat is not None
            stacks[event.seat] += event.amount
            pot -= event.amount
        assert pot >= 0 and all(v >= 0 for v in stacks.values()), event
        assert sum(stacks.values()) + pot == start, event
    assert stacks == hand.final_stacks
    if hand.finished:
        assert pot == 0
        assert hand.events[-1].kind == events.HAND_END
    else:
        assert pot == sum(hand.total)


def same_hand(a: Hand, b: Hand) -> None:
    """Two hands are in the same state: everything the table or a history can see."""
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.actions == b.actions
    assert a.stack == b.stack and a.bet == b.bet and a.total == b.total
    assert a.folded == b.folded
    assert a.board == b.board and a.hole == b.hole and a.burnt == b.burnt
    assert a.finished == b.finished and a.to_act == b.to_act
    assert a.legal_actions() == b.legal_actions()
    assert a.awards == b.awards and a.pots == b.pots
    assert a.street == b.street and a.current_bet == b.current_bet


def play_checked(hand: Hand, data: st.DataObject) -> None:
    """Play ``hand`` to the end with random legal actions, checking every invariant on the way."""
    bound = action_bound(hand.settings)
    check_state(hand)
    check_event_ledger(hand)
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None, "the hand is running but nobody is to act"
        assert hand.seat_to_act == legal.seat
        # The timeout action (P1) is always accepted.
        hand.check_action(legal.seat, hand.timeout_action().kind)
        kind, amount = draw_action(data, legal)
        hand.act(legal.seat, kind, amount)
        assert len(hand.actions) <= bound, "the hand does not end"
        check_state(hand)
        check_event_ledger(hand)


# ---------------------------------------------------------------------------- hands
@PROPERTY_SETTINGS
@given(hand_settings(), decks, st.data())
def test_hand_invariants_hold_after_every_action(
    settings_: HandSettings, deck: list[Card], data: st.DataObject
) -> None:
    """R3, R14-R24: chips conserved, nothing negative, someone can act, the hand ends."""
    hand = Hand(settings_, deck)
    play_checked(hand, data)
    assert hand.finished
    assert hand.awards, "every finished hand awards its pots"


@PROPERTY_SETTINGS
@given(hand_settings(), decks, st.data())
def test_replay_equals_the_live_hand_at_every_point(
    settings_: HandSettings, deck: list[Card], data: st.DataObject
) -> None:
    """P3: the record (settings, deck, actions) rebuilds the live state, through JSON, whether
    the hand is over or stopped at a random point."""
    hand = Hand(settings_, deck)
    stop_after = data.draw(st.integers(0, 40))
    while not hand.finished and len(hand.actions) < stop_after:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, *draw_action(data, legal))
    record = json.loads(json.dumps(hand_record(hand)))
    same_hand(replay(record), hand)
    play_checked(hand, data)
    record = json.loads(json.dumps(hand_record(hand)))
    rebuilt = replay(record)
    same_hand(rebuilt, hand)
    assert rebuilt.final_stacks == hand.final_stacks


@settings(max_examples=60, deadline=None)
@given(hand_settings(), decks)
def test_passive_play_always_ends(settings_: HandSettings, deck: list[Card]) -> None:
    """Every hand ends when everybody only checks or calls, or only times out (P1)."""
    for policy in ("passive", "timeout"):
        hand = Hand(settings_, deck)
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            if policy == "timeout":
                action = hand.timeout_action()
                hand.act(action.seat, action.kind)
            else:
                hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
            assert len(hand.actions) <= 4 * len(settings_.seats)
        check_state(hand)
        check_event_ledger(hand)


# ---------------------------------------------------------------------------- games
@st.composite
def game_setups(draw: st.DrawFn) -> tuple[GameSettings, dict[int, bool], int]:
    n = draw(st.integers(2, 6))
    seats = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True))
    persons = {s: draw(st.sampled_from([False, False, True])) for s in seats}
    game_settings = GameSettings(
        blind_every=draw(st.sampled_from([5, 10, 20])),
        max_hands=draw(st.sampled_from([None, 30, 60])),
    )
    return game_settings, persons, draw(st.integers(0, 2**32))


def game_json(game: Game) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(json.dumps(game.to_dict()))
    return state


def game_action(rng: random.Random, legal: LegalActions) -> tuple[ActionKind, int | None]:
    """Mostly checks, calls and minimum raises, a few folds and rare all ins, so that games go
    on for a while (blind levels, eliminations, heads-up) and still end. (Games are long, so
    their actions come from a seeded generator rather than from hypothesis's data.)"""
    choice = rng.randrange(40)
    if choice < 4:
        return ActionKind.FOLD, None
    if choice == 4 and (legal.bet_or_raise is not None or legal.call_all_in):
        return ActionKind.ALL_IN, None
    if choice < 10 and legal.bet_or_raise is not None and legal.min_to is not None:
        return legal.bet_or_raise, legal.min_to
    return (ActionKind.CHECK if legal.can_check else ActionKind.CALL), None


MAX_GAME_HANDS = 400  # blinds reach 3000/6000 after 80-320 hands: no game can last longer


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_setups())
def test_whole_games_conserve_chips_end_and_survive_json(
    setup: tuple[GameSettings, dict[int, bool], int],
) -> None:
    """R3, R7, R10, R31-R34: a game conserves chips, always ends, and its JSON state taken at
    random points (between hands and inside a hand) rebuilds a game that plays on identically."""
    game_settings, persons, seed = setup
    rng = random.Random(seed)
    game = Game(game_settings, persons, rng=random.Random(seed))
    total = game_settings.starting_stack * len(persons)
    copy: Game | None = None
    while not game.finished:
        assert game.hand_number < MAX_GAME_HANDS, "the game does not end"
        if copy is None and rng.random() < 0.1:
            copy = Game.from_dict(game_json(game))  # between hands
            assert game_json(copy) == game_json(game)
        deck_seed = rng.getrandbits(32)
        hand = game.start_hand(deck=shuffled_deck(deck_seed))
        if copy is not None:
            twin = copy.start_hand(deck=shuffled_deck(deck_seed))
            same_hand(twin, hand)
        assert game.total_chips() == total
        while not hand.finished:
            legal = hand.legal_actions()
            assert legal is not None
            kind, amount = game_action(rng, legal)
            game.act(legal.seat, kind, amount)
            if copy is not None:
                copy.act(legal.seat, kind, amount)
            elif rng.random() < 0.03:
                copy = Game.from_dict(game_json(game))  # inside a hand
                assert game_json(copy) == game_json(game)
                assert copy.hand is not None
                same_hand(copy.hand, hand)
            assert game.total_chips() == total
        if copy is not None:
            assert game_json(copy) == game_json(game)
    assert sum(seat.stack for seat in game.seats.values()) == total
    standings = game.standings()
    assert sorted(s.seat for s in standings) == sorted(persons)
    assert standings[0].place == 1
    assert [s.place for s in standings] == sorted(s.place for s in standings)
    if copy is not None:
        assert copy.finished and copy.standings() == standings
