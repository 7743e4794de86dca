"""A deck fixed before the first card: the commitment every phone gets, and the proof after.

Before a hand's first card is dealt the table shows everyone a *root* that fixes the whole
deck order. For each deck position ``i`` (0..51, in dealing order, burns included)::

    c_i  = SHA-256(bytes([i]) + card text in ASCII ("As", "Td") + salt_i)   # salt_i: 16 bytes
    root = SHA-256(c_0 + c_1 + ... + c_51)                                  # raw 32-byte digests

After the hand a viewer's proof holds the root, all 52 ``c_i`` and ``(i, card, salt_i)`` for
exactly the cards that viewer saw (the board, their own hole cards, hands shown at showdown).
Anyone can check that those cards sat at those places in the deck fixed at the deal; the
other 16-byte salts stay secret, so the other ``c_i`` say nothing about the hidden cards.
What it proves: the deck did not change after the deal. What it cannot prove: that the
shuffle itself was fair (the server chose the order).

The salts are derived from one secret 32-byte key per hand (``salt_i = HMAC-SHA256(key,
"deck salt" + i)`` cut to 16 bytes), which lives in the hand's server-side record beside the
deck: each salt is as unpredictable as a fresh random one to anyone without the key, and the
record stays small. The key, like the deck, never reaches a browser.

``python -m engine.proof FILE.json`` checks a proof file and says what it shows.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.cards import ALL_CARDS, Card, parse_card
from engine.events import SHOW
from engine.hand import Hand

PROOF_VERSION = 1
KEY_BYTES = 32
SALT_BYTES = 16
DECK_SIZE = 52
SCHEME = (
    "c_i = SHA-256(bytes([i]) + card_ascii + salt_i); root = SHA-256(c_0 + ... + c_51)"
)
_SALT_LABEL = b"deck salt"


class ProofError(ValueError):
    """A proof that does not hold, or cannot be read; the message says what and where."""


# ------------------------------------------------------------------------------ committing
def new_salt_key(seed: int | str | None = None) -> bytes:
    """The hand's secret salt key: from the OS's CSPRNG, or from ``seed`` (tests and
    simulations, whose deck is seeded or given too, so that a deal repeats exactly)."""
    if seed is None:
        return secrets.token_bytes(KEY_BYTES)
    return hashlib.sha256(b"holdem deck salts:" + str(seed).encode("ascii")).digest()


def salts_for(key: bytes) -> tuple[bytes, ...]:
    """The 52 salts (16 bytes each) a hand's key gives, by deck position."""
    if len(key) != KEY_BYTES:
        raise ProofError(f"a salt key has {KEY_BYTES} bytes, not {len(key)}")
    return tuple(
        hmac.new(key, _SALT_LABEL + bytes([i]), hashlib.sha256).digest()[:SALT_BYTES]
        for i in range(DECK_SIZE)
    )


def commitment(position: int, card: str, salt: bytes) -> bytes:
    """``c_i`` for one deck position."""
    return hashlib.sha256(bytes([position]) + card.encode("ascii") + salt).digest()


def root_of(commitments: Iterable[bytes]) -> bytes:
    return hashlib.sha256(b"".join(commitments)).digest()


@dataclass(frozen=True, slots=True)
class Commitment:
    """A deck's commitment: the root, the 52 ``c_i`` and the salts (the salts stay secret)."""

    root: bytes
    commitments: tuple[bytes, ...]
    salts: tuple[bytes, ...]


def commit(deck: Sequence[Card], key: bytes) -> Commitment:
    """The commitment to ``deck`` (52 cards in dealing order) with the salts of ``key``."""
    return _commit(bytes([card.id for card in deck]), key)


@lru_cache(maxsize=512)
def _commit(deck_ids: bytes, key: bytes) -> Commitment:
    # Kept per deck and key: every frame of a hand shows the same root.
    if len(deck_ids) != DECK_SIZE or len(set(deck_ids)) != DECK_SIZE:
        raise ProofError("a deck commitment needs the 52 cards once each")
    salts = salts_for(key)
    texts = [_TEXT[card_id] for card_id in deck_ids]
    cs = tuple(commitment(i, texts[i], salts[i]) for i in range(DECK_SIZE))
    return Commitment(root_of(cs), cs, salts)


_TEXT = tuple(str(card) for card in ALL_CARDS)  # card text by card id


def hand_commitment(hand: Hand) -> Commitment | None:
    """The commitment of a hand dealt with a salt key (None for a hand without one: dealt
    before commitments existed, or read from a PHH file)."""
    if hand.salt_key is None:
        return None
    return commit(hand.deck, hand.salt_key)


def short_root(root: bytes | str) -> str:
    """The root as people compare it at a glance: its first 12 hex digits in groups of 4."""
    text = root.hex() if isinstance(root, bytes) else root
    return " ".join(text[k : k + 4] for k in range(0, 12, 4))


# ------------------------------------------------------------------------------ what was seen
@dataclass(frozen=True, slots=True)
class Place:
    """What one dealt deck position was for: ``role`` is ``hole`` (with the seat), ``burn``,
    ``flop``, ``turn`` or ``river``."""

    position: int
    role: str
    seat: int | None = None


def dealing_order(seats: Sequence[int], button: int) -> list[int]:
    """Seats in the order they get cards: the first one to the left of the button first (R11)."""
    ordered = sorted(seats)
    start = ordered.index(button) + 1
    return [ordered[(start + k) % len(ordered)] for k in range(len(ordered))]


def places(seats: Sequence[int], button: int, board_cards: int = 5) -> list[Place]:
    """Every deck position dealt in a hand with these players and ``board_cards`` on the board
    (R11: two passes of one card from the button's left, then burn, flop, burn, turn, burn,
    river)."""
    order = dealing_order(seats, button)
    n = len(order)
    out = [Place(k, "hole", seat) for k, seat in enumerate(order)]
    out += [Place(n + k, "hole", seat) for k, seat in enumerate(order)]
    streets = [("flop", 3), ("turn", 1), ("river", 1)]
    at, dealt = 2 * n, 0
    for street, count in streets:
        if dealt >= board_cards:
            break
        out.append(Place(at, "burn"))
        out += [Place(at + 1 + k, street) for k in range(count)]
        at += 1 + count
        dealt += count
    return out


def seen_places(hand: Hand, viewer: int | None, *, every_hole: bool = False) -> list[Place]:
    """The deck positions ``viewer`` (a seat, or None: a spectator) saw in this hand: the board,
    their own hole cards and the hands shown at showdown (P3); ``every_hole``: every hole card
    dealt (staff, who read the complete record). Never a burn, never a card not dealt."""
    shown = {e.seat for e in hand.events if e.kind == SHOW}
    return [
        place for place in places(hand.seats, hand.settings.button, len(hand.board))
        if place.role in ("flop", "turn", "river")
        or (place.role == "hole" and (every_hole or place.seat == viewer or place.seat in shown))
    ]


def proof_for(hand: Hand, viewer: int | None, *, every_hole: bool = False) -> dict[str, Any]:
    """The proof one viewer may have of a finished hand (JSON-ready): the root, the 52
    commitments and the seen cards with their salts. Raises ``ProofError`` for a hand
    without a commitment or still running (its cards are not all seen yet)."""
    made = hand_commitment(hand)
    if made is None:
        raise ProofError("this hand was dealt without a deck commitment")
    if not hand.finished:
        raise ProofError("the hand is still being played")
    revealed = []
    for place in seen_places(hand, viewer, every_hole=every_hole):
        entry: dict[str, Any] = {
            "position": place.position,
            "card": str(hand.deck[place.position]),
            "salt": made.salts[place.position].hex(),
            "role": place.role,
        }
        if place.seat is not None:
            entry["seat"] = place.seat
        revealed.append(entry)
    return {
        "version": PROOF_VERSION,
        "scheme": SCHEME,
        "seats": list(hand.seats),
        "button": hand.settings.button,
        "root": made.root.hex(),
        "commitments": [c.hex() for c in made.commitments],
        "revealed": revealed,
    }


# ------------------------------------------------------------------------------ checking
@dataclass(frozen=True, slots=True)
class Revealed:
    position: int
    card: str
    role: str
    seat: int | None


def verify(data: Any) -> list[Revealed]:
    """Check a proof: the root is the hash of the 52 commitments, and each revealed card with
    its salt gives the commitment at its position, which is the place it was dealt from. Returns
    the revealed cards; raises ``ProofError`` saying what does not hold."""
    if not isinstance(data, dict):
        raise ProofError("a proof is a JSON object")
    if data.get("version") != PROOF_VERSION:
        raise ProofError(f"unknown proof version {data.get('version')!r}")
    root = _hex(data.get("root"), 32, "the root")
    raw = data.get("commitments")
    if not isinstance(raw, list) or len(raw) != DECK_SIZE:
        raise ProofError(f"a proof holds {DECK_SIZE} commitments, one per deck position")
    commitments = [_hex(c, 32, f"commitment {i}") for i, c in enumerate(raw)]
    if root_of(commitments) != root:
        raise ProofError("the root is not the hash of the 52 commitments: the deck changed")
    dealt = _dealt_places(data)
    entries = data.get("revealed")
    if not isinstance(entries, list):
        raise ProofError("the proof's revealed cards must be a list")
    out: list[Revealed] = []
    positions: set[int] = set()
    cards: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise ProofError(f"revealed card {number} is not an object")
        position = entry.get("position")
        if type(position) is not int or not 0 <= position < DECK_SIZE:
            raise ProofError(f"revealed card {number} has no deck position from 0 to 51")
        card_text = entry.get("card")
        try:
            card = str(parse_card(card_text)) if isinstance(card_text, str) else ""
        except ValueError:
            card = ""
        if card != card_text:
            raise ProofError(f"revealed card {number} is not a card written like As or Td")
        salt = _hex(entry.get("salt"), SALT_BYTES, f"the salt of revealed card {number}")
        if position in positions or card in cards:
            raise ProofError(f"revealed card {number} ({card}) repeats a position or a card")
        positions.add(position)
        cards.add(card)
        if commitment(position, card, salt) != commitments[position]:
            raise ProofError(
                f"{card} with its salt does not match commitment {position}: "
                "this card was not at that place in the deck fixed at the deal"
            )
        role, seat = entry.get("role"), entry.get("seat")
        place = dealt.get(position)
        if place is None or place.role != role or place.seat != seat:
            raise ProofError(
                f"{card} is said to be a {role} card, but position {position} is not where "
                "that card is dealt from"
            )
        out.append(Revealed(position, card, place.role, place.seat))
    return out


def _dealt_places(data: dict[str, Any]) -> dict[int, Place]:
    seats, button = data.get("seats"), data.get("button")
    if (
        not isinstance(seats, list) or not 2 <= len(seats) <= 10
        or not all(type(s) is int for s in seats) or len(set(seats)) != len(seats)
        or type(button) is not int or button not in seats
    ):
        raise ProofError("the proof must name the seats dealt in and the button among them")
    return {p.position: p for p in places(seats, button) if p.role != "burn"}


def _hex(value: Any, size: int, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ProofError(f"{what} must be {2 * size} hexadecimal digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ProofError(f"{what} must be {2 * size} hexadecimal digits") from None


def describe(revealed: Sequence[Revealed]) -> list[str]:
    """One line per revealed card, for people."""
    lines = []
    for item in revealed:
        what = f"seat {item.seat}'s hole card" if item.role == "hole" else f"the {item.role}"
        lines.append(f"  position {item.position:2d}: {item.card}  ({what})")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m engine.proof FILE.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as source:
            data = json.load(source)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args[0]}: {exc}", file=sys.stderr)
        return 2
    try:
        revealed = verify(data)
    except ProofError as exc:
        print(f"NOT VERIFIED: {exc}")
        return 1
    print(f"deck verified: root {data['root']}")
    print(f"{len(revealed)} cards were at the places fixed before the first card was dealt:")
    print("\n".join(describe(revealed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
