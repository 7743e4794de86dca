"""A hand of this table as PHH text (``to_phh``), as a seat or the server may see it, and the
TOML values PHH is written in."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from decimal import Decimal

from engine.events import ACTION, BOARD, DEAL_HOLE, MUCK, SHOW, Event
from engine.hand import Hand
from engine.phh import REQUIRED_FIELDS, UNKNOWN, VARIANT


def phh_order(hand: Hand) -> list[int]:
    """Seat numbers in PHH player order: from the first seat left of the button to the button."""
    n = hand.n
    return [hand.seats[(hand.button_index + 1 + k) % n] for k in range(n)]


def to_phh(
    hand: Hand,
    viewer: int | None = None,
    names: Mapping[int, str] | None = None,
    extra: Mapping[str, object] | None = None,
) -> str:
    """The hand as PHH text.

    With ``viewer=None`` every hole card is written (the server's full history). With a seat
    number, only that seat's hole cards and the hands shown at showdown are written; any other
    hole card is ``????`` (a seat not in the hand gets the spectator's view). ``names`` maps seat
    numbers to player names; ``extra`` adds fields such as ``table``, ``seat_count`` or
    ``currency`` (it may replace the optional fields written here, not the required ones).
    A running hand is written up to now, without finishing stacks.
    """
    seats = phh_order(hand)
    label = {seat: f"p{k + 1}" for k, seat in enumerate(seats)}
    index = {seat: i for i, seat in enumerate(hand.seats)}
    n = hand.n
    s = hand.settings

    actions = [a for e in hand.events if (a := _phh_action(e, label, viewer)) is not None]
    fields: dict[str, object] = {
        "variant": VARIANT,
        "antes": [0] * n,
        "blinds_or_straddles": [s.small_blind, s.big_blind] + [0] * (n - 2),
        "min_bet": s.big_blind,
        "starting_stacks": [s.stacks[index[seat]] for seat in seats],
        "actions": actions,
        "hand": s.hand_number,
        "seats": [seat + 1 for seat in seats],  # PHH numbers seats from 1
    }
    if names is not None:
        fields["players"] = [names.get(seat, "") for seat in seats]
    if hand.finished:
        fields["finishing_stacks"] = [hand.stack[index[seat]] for seat in seats]
        won = dict.fromkeys(seats, 0)
        for award in hand.awards:
            won[award.seat] += award.amount
        fields["winnings"] = [won[seat] for seat in seats]
    for key, value in (extra or {}).items():
        if key in REQUIRED_FIELDS:
            raise ValueError(f"the required field {key!r} cannot be replaced")
        fields[key] = value

    lines = []
    for key, value in fields.items():
        if key == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_toml_value(a)}," for a in actions)
            lines.append("]")
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _phh_action(event: Event, label: Mapping[int, str], viewer: int | None) -> str | None:
    """The PHH action line of one event (``label``: each seat's PHH player), or None for an
    event PHH does not write; hole cards that ``viewer`` may not see are ``????``."""
    seat = event.seat
    if event.kind == BOARD:
        return f"d db {''.join(event.cards)}"
    if seat is None:
        return None
    if event.kind == DEAL_HOLE:
        cards = event.cards if viewer is None or seat == viewer else (UNKNOWN,) * 2
        return f"d dh {label[seat]} {''.join(cards)}"
    if event.kind == ACTION:
        if event.action == "fold":
            return f"{label[seat]} f"
        if event.action in ("check", "call"):
            return f"{label[seat]} cc"
        return f"{label[seat]} cbr {event.to}"  # bet or raise, including all ins that do
    if event.kind == SHOW:
        return f"{label[seat]} sm {''.join(event.cards)}"
    if event.kind == MUCK:
        return f"{label[seat]} sm"
    return None


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_string(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float | Decimal):
        number = Decimal(value)
        if number.is_nan():
            return "nan"
        return str(value) if number.is_finite() else ("-inf" if number < 0 else "inf")
    if isinstance(value, datetime.date | datetime.time):  # TOML local dates and times
        return value.isoformat()
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise ValueError(f"{value!r} cannot be written in a PHH file")
