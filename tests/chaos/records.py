"""Small records of the chaos soak built with ``engine`` for the checker's tests: two finished
hands at one table, every version seen by both players and each person's action sent and told
it counted (``build``); a test plants one breach in them."""

from __future__ import annotations

from typing import Any

from benchmarks.chaos.evidence import Database
from engine.cards import shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import hand_record

TABLE = 7
PERSONS = (1, 2)  # seats held by websocket players; seat 3 is a computer player
TURN = 12


def _play(number: int, stacks: tuple[int, ...], button: int) -> Hand:
    settings = HandSettings(number, (1, 2, 3), stacks, button, 10, 20)
    hand = Hand(settings, shuffled_deck(seed=number))
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(seat, "check" if legal.can_check else "call")
    return hand


def build() -> tuple[list[dict[str, Any]], Database]:
    """Two finished hands, every version seen by both players at 1 s a version, each action of
    a person's seat sent by them and told it counted."""
    events: list[dict[str, Any]] = [
        {"t": 0.0, "e": "tables", "tables": [{"id": TABLE, "code": "ABC123", "level": "easy",
                                              "seats": list(PERSONS)}]},
    ]
    hands: list[dict[str, Any]] = []
    stacks: tuple[int, ...] = (1000, 1000, 1000)
    version, t = 1, 1.0
    for number in (1, 2):
        hand = _play(number, stacks, button=number)
        hands.append({"number": number, "record": hand_record(hand), "cancelled": False,
                      "players": [{"seat": s, "stack": c} for s, c in zip(
                          hand.settings.seats, stacks, strict=True)],
                      "final_stacks": {str(k): v for k, v in hand.final_stacks.items()}})
        replayed = Hand(hand.settings, hand.deck)
        for index in range(len(hand.actions) + 1):
            to_act = replayed.seat_to_act
            for seat in PERSONS:
                cards = [str(c) for c in replayed.hole[replayed.index_of(seat)]]
                events.append({"t": t, "e": "frame", "table": TABLE, "player": f"p{seat}",
                               "seat": seat, "version": version, "hand": number,
                               "events": len(replayed.events), "screen": "play",
                               "to_act": to_act, "you": seat, "cards": cards,
                               "hand_over": replayed.finished, "notice": "", "away": []})
            if index == len(hand.actions):
                break
            action = hand.actions[index]
            if action.seat in PERSONS:
                action_id = f"p{action.seat}-{version}"
                events.append({"t": t + 0.3, "e": "sent", "table": TABLE,
                               "player": f"p{action.seat}", "seat": action.seat,
                               "version": version, "hand": number, "id": action_id,
                               "kind": action.kind.value, "amount": action.amount,
                               "resend": False})
                events.append({"t": t + 0.4, "e": "fate", "table": TABLE,
                               "player": f"p{action.seat}", "seat": action.seat,
                               "id": action_id, "fate": "applied", "code": ""})
            replayed.act(action.seat, action.kind, action.amount)
            version, t = version + 1, t + 1.0
        stacks = tuple(hand.final_stacks[s] for s in (1, 2, 3))
        version, t = version + 1, t + 1.0
    state = {"seats": [{"stack": c} for c in stacks], "hand": None, "hand_number": 2}
    db = Database(
        tables={TABLE: {"code": "ABC123", "status": "playing", "version": version - 1,
                        "state": state, "turn_seconds": TURN, "recent_actions": [],
                        "seats": {1: False, 2: False, 3: True}}},
        hands={TABLE: hands},
    )
    events.append({"t": t, "e": "end"})
    events.append({"t": t, "e": "stuck", "tables": {}})
    return events, db
