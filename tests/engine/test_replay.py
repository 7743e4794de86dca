"""Hand histories (P3): records and events survive JSON round trips, replay rebuilds the hand,
and a damaged record is refused with a ``HistoryError`` a person can read."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engine.actions import Action, ActionKind
from engine.cards import shuffled_deck
from engine.events import Event
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import RECORD_VERSION, HistoryError, hand_record, replay


def random_hand(seed: int, finish: bool = True) -> Hand:
    """A random hand (2-6 players, some short stacks) played with random legal actions."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    seats = tuple(sorted(rng.sample(range(10), n)))
    stacks = tuple(rng.choice([rng.randint(1, 40), rng.randint(40, 3000)]) for _ in seats)
    settings = HandSettings(seed, seats, stacks, rng.choice(seats), 10, 20)
    hand = Hand(settings, shuffled_deck(seed))
    stop = None if finish else rng.randint(0, 6)
    while not hand.finished and (stop is None or len(hand.actions) < stop):
        legal = hand.legal_actions()
        assert legal is not None
        r = rng.random()
        if r < 0.15:
            hand.act(legal.seat, ActionKind.FOLD)
        elif r < 0.3 and legal.min_to is not None and legal.bet_or_raise is not None:
            hand.act(legal.seat, legal.bet_or_raise, rng.randint(legal.min_to, legal.max_to or 0))
        elif r < 0.35 and (legal.min_to is not None or legal.call_all_in):
            hand.act(legal.seat, ActionKind.ALL_IN)
        else:
            hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    return hand


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


# ---------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("finish", [True, False])
def test_p3_records_survive_json_and_replay_to_the_same_hand(finish: bool) -> None:
    """P3: a record read back from JSON is the same record and rebuilds the same hand."""
    for seed in range(150):
        hand = random_hand(seed, finish)
        record = hand_record(hand)
        assert record["version"] == RECORD_VERSION
        restored = through_json(record)
        assert restored == record
        rebuilt = replay(restored)
        assert [e.to_dict() for e in rebuilt.events] == [e.to_dict() for e in hand.events]
        assert rebuilt.final_stacks == hand.final_stacks
        assert rebuilt.board == hand.board and rebuilt.awards == hand.awards
        assert rebuilt.finished == hand.finished and rebuilt.to_act == hand.to_act
        assert hand_record(rebuilt) == record


def test_p3_events_survive_json() -> None:
    """Every event of every kind reads back equal from its JSON form."""
    kinds = set()
    for seed in range(150):
        for event in random_hand(seed).events:
            kinds.add(event.kind)
            assert Event.from_dict(through_json(event.to_dict())) == event
    # All kinds of events met, including shows, mucks and uncalled bets returned.
    assert {"post_sb", "post_bb", "deal_hole", "burn", "board", "action", "uncalled", "show",
            "muck", "award", "hand_end"} <= kinds


def test_p3_actions_survive_json() -> None:
    for seed in range(50):
        for action in random_hand(seed).actions:
            assert Action.from_dict(through_json(action.to_dict())) == action


def test_p3_settings_survive_json() -> None:
    settings = HandSettings(7, (0, 3, 5), (1000, 15, 2400), 3, 25, 50)
    assert HandSettings.from_dict(through_json(settings.to_dict())) == settings


# ---------------------------------------------------------------------------- damaged records
def base_record() -> dict[str, Any]:
    hand = Hand(HandSettings(1, (0, 1, 2), (100, 100, 100), 0, 10, 20), shuffled_deck(1))
    hand.act(0, "call")
    hand.act(1, "call")
    hand.act(2, "check")
    record: dict[str, Any] = through_json(hand_record(hand))
    return record


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return record

    return change


def _drop(key: str) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        del record[key]
        return record

    return change


def _add_action(action: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        record["actions"].append(action)
        return record

    return change


def _first_action(action: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        record["actions"].insert(0, action)
        return record

    return change


def _deck(change_deck: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        record["deck"] = change_deck(record["deck"])
        return record

    return change


CORRUPTIONS = [
    ("not an object", lambda r: [r], "must be a JSON object"),
    ("no record", lambda r: None, "must be a JSON object"),
    ("unknown version", _set(("version",), 99), "unknown hand record version 99"),
    ("no version", _drop("version"), "unknown hand record version None"),
    ("no deck", _drop("deck"), "has no deck"),
    ("no settings", _drop("settings"), "has no settings"),
    ("no actions", _drop("actions"), "has no actions"),
    ("settings not an object", _set(("settings",), "10/20"), "settings must be a JSON object"),
    ("empty settings", lambda r: {**r, "settings": {}}, "have no 'hand_number'"),
    ("button not dealt in", _set(("settings", "button"), 5), "button seat 5 is not dealt in"),
    ("negative stack", _set(("settings", "stacks"), [100, -5, 100]), "positive number of chips"),
    ("fractional stack", _set(("settings", "stacks"), [100, 5.5, 100]), "whole numbers, not 5.5"),
    ("stack as text", _set(("settings", "stacks"), [100, "lots", 100]), "whole numbers"),
    ("small blind above big", _set(("settings", "small_blind"), 50), "small blind not above"),
    ("seats out of order", _set(("settings", "seats"), [2, 1, 0]), "distinct and increasing"),
    ("deck as text", _deck(lambda d: "".join(d)), "deck must be a list of cards"),
    ("short deck", _deck(lambda d: d[:51]), "a deck has 52 cards, this one has 51"),
    ("card twice", _deck(lambda d: [d[0], *d[:51]]), "the same card appears twice"),
    ("not a card", _deck(lambda d: ["Zz", *d[1:]]), "'Zz' is not a card"),
    ("actions not a list", _set(("actions",), 5), "actions must be a list"),
    ("action not an object", _add_action([1, "check"]), "action 4 of the hand record is not"),
    ("action without kind", _add_action({"seat": 1}), "action 4 of the hand record is not"),
    ("unknown action", _add_action({"seat": 1, "kind": "dance"}), "action 4"),
    ("seat as text", _add_action({"seat": "one", "kind": "check"}), "action 4"),
    ("fractional seat", _add_action({"seat": 1.5, "kind": "check"}), "action 4"),
    ("unknown seat", _add_action({"seat": 7, "kind": "check"}), "Seat 7 is not playing"),
    ("out of turn", _first_action({"seat": 1, "kind": "call"}), "not your turn: seat 0"),
    ("bet below minimum", _add_action({"seat": 1, "kind": "bet", "amount": 1}), "smallest bet"),
    ("fractional bet", _add_action({"seat": 1, "kind": "bet", "amount": 20.5}), "no fractions"),
    ("bet as text", _add_action({"seat": 1, "kind": "bet", "amount": "x"}), "whole number"),
    ("check facing a bet", _first_action({"seat": 0, "kind": "check"}), "cannot check"),
]


@pytest.mark.parametrize(
    ("change", "message"), [(c, m) for _, c, m in CORRUPTIONS], ids=[n for n, _, _ in CORRUPTIONS]
)
def test_p3_corrupted_records_raise_a_readable_history_error(change: Any, message: str) -> None:
    """A damaged record is refused with HistoryError saying what is wrong, never a crash."""
    record = change(base_record())
    with pytest.raises(HistoryError) as caught:
        replay(record)
    text = str(caught.value)
    assert message in text
    assert "Traceback" not in text and "object is not" not in text and "invalid literal" not in text


def test_p3_actions_after_the_end_are_refused() -> None:
    hand = Hand(HandSettings(1, (0, 1), (100, 100), 0, 10, 20), shuffled_deck(2))
    hand.act(0, "fold")
    record = hand_record(hand)
    record["actions"].append({"seat": 1, "kind": "check"})
    with pytest.raises(HistoryError, match=r"action 2 .* cannot be replayed: This hand is over"):
        replay(record)


def test_r3_stored_settings_are_never_rounded() -> None:
    """R3 regression: a stored stack of 5.5 used to be read back as 5 chips (``int(5.5)``);
    it is now refused. Whole floats written by other tools (``100.0``) are still read."""
    data = HandSettings(1, (0, 1), (100, 100), 0, 10, 20).to_dict()
    with pytest.raises(ValueError, match="whole numbers"):
        HandSettings.from_dict({**data, "stacks": [100, 5.5]})
    with pytest.raises(ValueError, match="whole numbers"):
        HandSettings.from_dict({**data, "big_blind": True})
    assert HandSettings.from_dict({**data, "stacks": [100.0, 100]}).stacks == (100, 100)


def test_p3_the_record_is_not_changed_by_replay() -> None:
    record = base_record()
    before = copy.deepcopy(record)
    replay(record)
    assert record == before


def test_r3_a_stored_game_with_fractional_chips_is_refused_not_rounded() -> None:
    from engine.game import Game, GameSettings
    from engine.seats import GameError

    game = Game(GameSettings(), {0: True, 1: False}, rng=random.Random(1))
    data = json.loads(json.dumps(game.to_dict()))
    data["seats"][0]["stack"] = 999.5
    with pytest.raises(GameError, match="not a whole number"):
        Game.from_dict(data)
