"""The deck commitment (issue 18, engine.proof): the formula, proofs of random games that all
verify, tampering that is always caught, and proofs that reveal only what a viewer saw (P3)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import proof
from engine.actions import ActionKind
from engine.cards import shuffled_deck
from engine.game import Game, GameSettings
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import HistoryError, hand_record, replay
from engine.proof import ProofError, proof_for, verify
from engine.views import hand_view
from tests.engine.helpers import stacked_deck

KEY = bytes(range(32))


def random_hands(seed: int, games: int = 6) -> list[Hand]:
    """Every hand of a few random games (2-6 players) played with random legal actions,
    calling often enough that many hands reach a showdown."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    for _game in range(games):
        players = rng.randint(2, 6)
        game = Game(GameSettings(max_hands=30), {s: True for s in range(players)}, rng=rng)
        while not game.finished:
            hand = game.start_hand(seed=rng.getrandbits(64))
            while not hand.finished:
                legal = hand.legal_actions()
                assert legal is not None
                roll = rng.random()
                if roll < 0.12:
                    game.act(legal.seat, ActionKind.FOLD)
                elif roll < 0.9 or legal.bet_or_raise is None or legal.min_to is None:
                    game.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
                elif roll < 0.97:
                    game.act(legal.seat, legal.bet_or_raise, legal.min_to)
                else:
                    game.act(legal.seat, ActionKind.ALL_IN)
            hands.append(replay(json.loads(json.dumps(hand_record(hand)))))
    return hands


HANDS = random_hands(18, games=12)


def visible_cards(hand: Hand, viewer: int | None) -> set[str]:
    """What the table showed ``viewer`` at the end of the hand (engine.views, the authority on
    privacy): the board, their own cards and the hands shown."""
    view = hand_view(hand, viewer, events=False)
    seen = set(view["board"])
    for player in view["players"]:
        seen.update(player["cards"] or [])
    return seen


def test_the_commitment_follows_the_published_formula() -> None:
    deck = shuffled_deck(7)
    made = proof.commit(deck, KEY)
    for i, card in enumerate(deck):
        salt = hmac.new(KEY, b"deck salt" + bytes([i]), hashlib.sha256).digest()[:16]
        assert made.salts[i] == salt
        assert made.commitments[i] == hashlib.sha256(
            bytes([i]) + str(card).encode("ascii") + salt
        ).digest()
    assert made.root == hashlib.sha256(b"".join(made.commitments)).digest()
    assert len(set(made.salts)) == 52 and all(len(s) == 16 for s in made.salts)


def test_every_hand_is_dealt_with_its_own_secret_key() -> None:
    keys = [hand.salt_key for hand in HANDS]
    assert all(key is not None and len(key) == 32 for key in keys)
    assert len(set(keys)) == len(keys)


def test_a_seeded_deal_repeats_its_commitment_and_a_secure_one_does_not() -> None:
    def root(seed: int | None) -> bytes:
        game = Game(GameSettings(), {0: True, 1: True}, rng=random.Random(1))
        made = proof.hand_commitment(game.start_hand(seed=seed))
        assert made is not None
        return made.root

    assert root(5) == root(5)
    assert root(None) != root(None)


def test_every_hand_of_random_games_verifies_for_every_viewer() -> None:
    assert len(HANDS) > 100
    showdowns = 0
    for hand in HANDS:
        showdowns += bool(hand.shown)
        for viewer in [*hand.seats, None]:
            revealed = verify(json.loads(json.dumps(proof_for(hand, viewer))))
            assert {r.card for r in revealed} == visible_cards(hand, viewer)
            for r in revealed:
                assert str(hand.deck[r.position]) == r.card
        everything = verify(proof_for(hand, None, every_hole=True))
        holes = {str(c) for cards in hand.hole for c in cards}
        assert {r.card for r in everything} == holes | {str(c) for c in hand.board}
    assert showdowns > 20  # the privacy check above covered many shown hands


def test_no_proof_holds_a_card_its_viewer_did_not_see() -> None:
    """P3: a burn, a card never dealt or another player's unshown hand is never revealed."""
    for hand in HANDS:
        burnt = {str(c) for c in hand.burnt}
        for viewer in [*hand.seats, None]:
            data = proof_for(hand, viewer)
            text = json.dumps(data)
            seen = visible_cards(hand, viewer)
            revealed = {entry["card"] for entry in data["revealed"]}
            assert revealed == seen
            assert not revealed & burnt
            for i, seat in enumerate(hand.seats):
                if seat != viewer and i not in hand.shown and seat not in hand.shown_seats():
                    assert not {str(c) for c in hand.hole[i]} & revealed
            # Nothing else names a card or a salt: the salt key never leaves the server.
            assert hand.salt_key is not None and hand.salt_key.hex() not in text
            hidden_salts = {
                s.hex() for k, s in enumerate(proof.salts_for(hand.salt_key))
                if k not in {entry["position"] for entry in data["revealed"]}
            }
            assert not any(salt in text for salt in hidden_salts)


def folded_hand() -> Hand:
    """Three players; seat 2 folds preflop, seats 0 and 1 check it down to a showdown."""
    deck = stacked_deck((0, 1, 2), 0, {0: "AsAh", 1: "KsKh", 2: "2c7d"}, "Qd9c4h3s8d")
    hand = Hand(HandSettings(1, (0, 1, 2), (1000, 1000, 1000), 0, 10, 20), deck, KEY)
    hand.act(0, "fold")
    hand.act(1, "call")
    hand.act(2, "check")
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, "check")
    return hand


def test_a_players_proof_holds_the_board_their_cards_and_the_shown_hands_only() -> None:
    hand = folded_hand()
    data = proof_for(hand, 1)
    cards = {entry["card"]: entry for entry in data["revealed"]}
    assert set(cards) == {"Qd", "9c", "4h", "3s", "8d", "Ks", "Kh"}
    assert cards["Ks"]["role"] == "hole" and cards["Ks"]["seat"] == 1
    assert cards["3s"]["role"] == "turn" and cards["8d"]["role"] == "river"
    assert "As" not in cards and "Ah" not in cards  # seat 0 folded: never shown
    assert "2c" not in cards and "7d" not in cards  # seat 2 could not beat kings: mucked (R28)
    # Hole cards from the button's left: seat 1 gets positions 0 and 3 (R11).
    assert sorted(e["position"] for e in data["revealed"] if e.get("seat") == 1) == [0, 3]
    assert sorted(e["position"] for e in data["revealed"] if e["role"] == "flop") == [7, 8, 9]


def tampered(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(proof_for(folded_hand(), 1))
    change(data)
    return data


def _other_card(data: dict[str, Any]) -> None:
    data["revealed"][0]["card"] = "Ac"


def _other_salt(data: dict[str, Any]) -> None:
    salt = data["revealed"][0]["salt"]
    data["revealed"][0]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]


def _other_position(data: dict[str, Any]) -> None:
    data["revealed"][0]["position"] = 51  # a card never dealt


def _swapped_places(data: dict[str, Any]) -> None:
    a, b = data["revealed"][-1], data["revealed"][-2]
    a["card"], b["card"] = b["card"], a["card"]


def _other_root(data: dict[str, Any]) -> None:
    data["root"] = hashlib.sha256(b"another deck").hexdigest()


def _other_commitment(data: dict[str, Any]) -> None:
    data["commitments"][51] = hashlib.sha256(b"x").hexdigest()


def _other_role(data: dict[str, Any]) -> None:
    entry = next(e for e in data["revealed"] if e["role"] == "flop")
    entry["role"] = "river"


def _other_seat(data: dict[str, Any]) -> None:
    entry = next(e for e in data["revealed"] if e["role"] == "hole")
    entry["seat"] = 0


def _other_button(data: dict[str, Any]) -> None:
    data["button"] = 1


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_other_card, "does not match commitment"),
        (_other_salt, "does not match commitment"),
        (_other_position, "does not match commitment"),
        (_swapped_places, "does not match commitment"),
        (_other_root, "the deck changed"),
        (_other_commitment, "the deck changed"),
        (_other_role, "is not where"),
        (_other_seat, "is not where"),
        (_other_button, "is not where"),
    ],
)
def test_a_changed_card_salt_position_or_root_fails(change: Any, says: str) -> None:
    with pytest.raises(ProofError, match=says):
        verify(tampered(change))


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(version=2),
        lambda d: d.update(root="xyz"),
        lambda d: d["commitments"].pop(),
        lambda d: d["revealed"][0].update(card="1x"),
        lambda d: d["revealed"][0].update(position=52),
        lambda d: d["revealed"][0].update(position=True),
        lambda d: d["revealed"][0].update(salt="00"),
        lambda d: d["revealed"].append(dict(d["revealed"][0])),
        lambda d: d.update(seats="all"),
        lambda d: d.update(revealed={}),
    ],
)
def test_a_damaged_proof_is_refused_with_a_reason(damage: Any) -> None:
    with pytest.raises(ProofError):
        verify(tampered(damage))
    with pytest.raises(ProofError):
        verify([])


def test_a_running_hand_or_one_without_a_key_has_no_proof() -> None:
    deck = shuffled_deck(3)
    running = Hand(HandSettings(1, (0, 1), (1000, 1000), 0, 10, 20), deck, KEY)
    with pytest.raises(ProofError, match="still being played"):
        proof_for(running, 0)
    keyless = Hand(HandSettings(1, (0, 1), (1000, 1000), 0, 10, 20), deck)
    keyless.act(0, "fold")
    with pytest.raises(ProofError, match="without a deck commitment"):
        proof_for(keyless, 0)
    assert "salt_key" not in hand_record(keyless)


def test_the_salt_key_survives_the_record_and_a_damaged_one_is_refused() -> None:
    hand = folded_hand()
    record = json.loads(json.dumps(hand_record(hand)))
    assert replay(record).salt_key == KEY
    assert proof_for(replay(record), 2) == proof_for(hand, 2)
    for bad in ("abc", 7, "00" * 31, "zz" * 32):
        with pytest.raises(HistoryError, match="salt key"):
            replay({**record, "salt_key": bad})


def test_the_command_line_checks_a_proof_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "proof.json"
    good.write_text(json.dumps(proof_for(folded_hand(), 1)))
    assert proof.main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "deck verified" in out and "Ks" in out and "seat 1's hole card" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered(_other_card)))
    assert proof.main([str(bad)]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().out
    assert proof.main([str(tmp_path / "missing.json")]) == 2
    assert proof.main([]) == 2


def test_places_follow_the_dealing_order_of_r11() -> None:
    places = proof.places([1, 3, 4], button=3, board_cards=5)
    holes = [(p.position, p.seat) for p in places if p.role == "hole"]
    assert holes == [(0, 4), (1, 1), (2, 3), (3, 4), (4, 1), (5, 3)]
    assert [(p.position, p.role) for p in places if p.role != "hole"] == [
        (6, "burn"), (7, "flop"), (8, "flop"), (9, "flop"), (10, "burn"), (11, "turn"),
        (12, "burn"), (13, "river"),
    ]
