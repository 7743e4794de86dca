"""Hands in PHH, the poker hand history text format of the PokerKit authors (variant ``NT``).

A PHH file is TOML. The fields this table writes and reads::

    variant = "NT"
    antes = [0, 0, 0]
    blinds_or_straddles = [10, 20, 0]   # p1 small blind, p2 big blind (heads-up: reversed)
    min_bet = 20
    starting_stacks = [1000, 850, 1200]
    actions = ["d dh p1 AsKd", "d dh p2 ????", "d dh p3 7h7c", "p3 cbr 60", "p1 cc", "p2 f",
               "d db Kh9s2c", "p1 cc", "p3 cbr 100", "p1 cc", ...]

Players are numbered from the first seat to the left of the button: ``p1`` is the small blind
and the last player is the button. Heads-up ``p1`` is the big blind and ``p2`` the button, who
posts the small blind; the blinds are still written ``[small, big]`` and PokerKit, like the spec,
reverses them. ``cbr`` amounts are "to" amounts, like this table's (R14).

``to_phh`` writes a hand of this table; ``read_phh`` reads a file from anywhere and
``replay_phh`` plays it again with this engine, refusing with a readable reason what this table
does not play (antes, straddles, an action its rules forbid). Run
``python -m engine.phh replay FILE...`` to replay files from the command line.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.actions import ActionError, ActionKind
from engine.cards import ALL_CARDS, Card, CardError, parse_card
from engine.evaluator import evaluate
from engine.events import ACTION, BOARD, DEAL_HOLE, MUCK, SHOW, Event
from engine.hand import Hand, HandSettings

VARIANT = "NT"
REQUIRED_FIELDS = (
    "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions",
)
MAX_PLAYERS = 22  # 2 hole cards each, 5 board cards and 3 burns must fit in one deck
UNKNOWN = "??"
MAX_DIGITS = 15  # the longest amount read (whole chips, after scaling)


class PhhError(ValueError):
    """A PHH text this table cannot read or replay; the message is meant for a person."""


# ---------------------------------------------------------------------------------- writing
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


# ---------------------------------------------------------------------------------- reading
@dataclass(frozen=True, slots=True)
class PhhAction:
    """One line of ``actions``. ``player`` is the 0-based PHH player index (None: the dealer).

    ``verb`` is ``dh``/``db`` (dealing), ``f``/``cc``/``cbr`` (betting), ``sm`` (show or muck;
    ``cards`` empty for a muck, None entries for unknown cards) or ``noop``.
    """

    number: int  # 1-based position in the file's action list, for messages
    text: str
    verb: str
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int | None = None

    def describe(self) -> str:
        return f"action {self.number} ({_shown(self.text.strip())})"


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A PHH no-limit hold'em hand as this table reads it; amounts already scaled to chips."""

    starting_stacks: tuple[int, ...]  # PHH player order
    small_blind: int
    big_blind: int
    min_bet: int
    actions: tuple[PhhAction, ...]
    seats: tuple[int, ...]  # this table's seat number for each PHH player; the last is the button
    players: tuple[str, ...] | None = None
    hand: int | str | None = None
    scale: int = 1

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)


def read_phh(text: str, scale: int = 1) -> PhhHand:
    """Read one no-limit hold'em hand from PHH text, multiplying every amount by ``scale``.

    Raises ``PhhError`` with a readable reason for anything this table cannot play: another
    variant, antes, straddles, amounts that are not whole chips after scaling, bad cards or
    action lines.
    """
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise PhhError("the scale must be a whole number of at least 1")
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"the file is not valid PHH (TOML): {exc}") from None
    except RecursionError:  # the reader recurses once per nested list or table
        raise PhhError(
            "the file nests lists or tables too deeply: a hand history nests at most two deep"
        ) from None
    except ValueError:  # an integer longer than Python converts (4,300 digits)
        raise PhhError(
            f"a number in the file is too long: amounts have at most {MAX_DIGITS} digits"
        ) from None
    try:
        return _read_fields(data, scale)
    except _Fractional as exc:
        raise PhhError(exc.message(_places_needed(data, scale))) from None


def _read_fields(data: Mapping[str, Any], scale: int) -> PhhHand:
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise PhhError("the file holds several hands; give one hand per file")
    missing = [name for name in REQUIRED_FIELDS if name not in data]
    if missing:
        raise PhhError(f"the file lacks the required field(s): {', '.join(missing)}")
    if data["variant"] != VARIANT:
        raise PhhError(
            f"the variant {_shown(data['variant'])} is not no-limit Texas hold'em ({VARIANT!r})"
        )

    raw_stacks = data["starting_stacks"]
    if not isinstance(raw_stacks, list) or not 2 <= len(raw_stacks) <= MAX_PLAYERS:
        raise PhhError(f"starting_stacks must list 2 to {MAX_PLAYERS} players' chips")
    n = len(raw_stacks)
    # What this table never plays is refused first: no scale can make such a hand playable.
    raw_antes = _per_player(data["antes"], n, "antes")
    if any(_number(v, "antes") != 0 for v in raw_antes):
        raise PhhError("antes are not played at this table (R35)")
    raw_blinds = _per_player(data["blinds_or_straddles"], n, "blinds_or_straddles")
    if any(_number(v, "blinds_or_straddles") != 0 for v in raw_blinds[2:]):
        raise PhhError("straddles are not played at this table (R35): only two blinds")

    stacks = tuple(_chips(v, "starting_stacks", scale) for v in raw_stacks)
    if any(s <= 0 for s in stacks):
        raise PhhError("every starting stack must be more than zero")
    small, big = (_chips(v, "blinds_or_straddles", scale) for v in raw_blinds[:2])
    if small <= 0 or big <= 0:
        raise PhhError("this table needs a small blind and a big blind, both more than zero")
    if small > big:
        raise PhhError(f"the small blind ({small}) is bigger than the big blind ({big})")
    min_bet = _chips(data["min_bet"], "min_bet", scale)

    raw_actions = data["actions"]
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise PhhError("actions must be a list of texts")
    actions = tuple(_parse_action(k + 1, line, n, scale) for k, line in enumerate(raw_actions))

    players = data.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != n
        or not all(isinstance(p, str) for p in players)
    ):
        raise PhhError(f"players must list {n} names")
    hand = data.get("hand")
    return PhhHand(
        starting_stacks=stacks,
        small_blind=small,
        big_blind=big,
        min_bet=min_bet,
        actions=actions,
        seats=_seat_numbers(data.get("seats"), n),
        players=tuple(players) if players is not None else None,
        hand=hand if isinstance(hand, int | str) and not isinstance(hand, bool) else None,
        scale=scale,
    )


def _seat_numbers(raw: object, n: int) -> tuple[int, ...]:
    """Our seat numbers (the file's, which count from 1, less one) when they agree with play
    going left (R4) and the button last; otherwise the positions 0..n-1 (seat numbers are
    labels: they never change the play)."""
    positions = tuple(range(n))
    if not isinstance(raw, list) or len(raw) != n:
        return positions
    if not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in raw):
        return positions
    ordered = sorted(raw)
    if len(set(ordered)) != n:
        return positions
    cut = ordered.index(raw[-1]) + 1
    if ordered[cut:] + ordered[:cut] != raw:
        return positions
    return tuple(s - 1 for s in raw)


def _shown(value: object) -> str:
    """``value`` quoted for a reason, cut to a few dozen characters (a file may hold long
    nonsense: the reason names it, it does not repeat it)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(value: object, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise PhhError(f"{what}: {_shown(value)} is not an amount")
    try:
        number = Decimal(value.replace(",", "") if isinstance(value, str) else value)
    except InvalidOperation:
        raise PhhError(f"{what}: {_shown(value)} is not an amount") from None
    if not number.is_finite():
        raise PhhError(f"{what}: an unknown (infinite) amount cannot be replayed")
    _check_size(number, what)
    return number


def _check_size(number: Decimal, what: str) -> None:
    """Refuse an amount of more than ``MAX_DIGITS`` digits before the point: no table plays
    it, and a huge one would only slow the replay or fail when written out."""
    if number and number.adjusted() >= MAX_DIGITS:
        raise PhhError(f"{what}: the amount is too large (at most {MAX_DIGITS} digits)")


def _chips(value: object, what: str, scale: int) -> int:
    """An amount times ``scale`` as whole chips (R3); ``_Fractional`` when it is not whole."""
    number = _number(value, what) * scale
    _check_size(number, what)
    if number < 0:
        raise PhhError(f"{what}: the amount {value} is negative")
    if number != number.to_integral_value():
        raise _Fractional(what, value, scale)
    return int(number)


class _Fractional(PhhError):
    """An amount still fractional after scaling; ``read_phh`` words the message for the file."""

    def __init__(self, what: str, value: object, scale: int) -> None:
        self.what, self.value, self.scale = what, value, scale
        super().__init__(self.message(_decimals(value) if isinstance(value, Decimal) else 0))

    def message(self, needed_places: int) -> str:
        needed = self.scale * 10**needed_places
        scaled = f" after scaling by {self.scale}" if self.scale != 1 else ""
        return (
            f"{self.what}: the amount {self.value} is not a whole number of chips{scaled}; "
            f"multiply every amount by {needed} (--scale {needed})"
        )


def _decimals(number: Decimal) -> int:
    """How many decimal places ``number`` needs (0 for whole numbers)."""
    exponent = number.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _places_needed(data: Mapping[str, Any], scale: int) -> int:
    """The decimal places left in the file's amounts after scaling, for one helpful message."""
    values: list[object] = []
    for name in ("antes", "blinds_or_straddles", "min_bet", "starting_stacks"):
        raw = data.get(name)
        values.extend(raw if isinstance(raw, list) else [raw])
    for line in data.get("actions", []):
        if isinstance(line, str):
            words = line.split("#", 1)[0].split()
            if len(words) == 3 and words[1] == "cbr":
                values.append(words[2].replace(",", ""))
    places = 0
    for value in values:
        try:
            number = Decimal(value) if isinstance(value, str | int | Decimal) else None
        except InvalidOperation:
            continue
        if number is not None and number.is_finite() and not isinstance(value, bool):
            places = max(places, _decimals(number * scale))
    return places


def _per_player(raw: object, n: int, what: str) -> list[object]:
    """A per-player amount list; PHH also allows one number for everybody or a shorter list."""
    if not isinstance(raw, list):
        return [raw] * n
    if len(raw) > n:
        raise PhhError(f"{what} lists {len(raw)} amounts for {n} players")
    return list(raw) + [0] * (n - len(raw))


def _parse_cards(text: str, where: str) -> tuple[Card | None, ...]:
    if len(text) % 2:
        raise PhhError(f"{where}: {_shown(text)} is not a list of cards like AsKd")
    cards: list[Card | None] = []
    for k in range(0, len(text), 2):
        chunk = text[k : k + 2]
        if chunk == UNKNOWN:
            cards.append(None)
            continue
        try:
            cards.append(parse_card(chunk))
        except CardError:
            raise PhhError(f"{where}: {chunk!r} is not a card") from None
    return tuple(cards)


def _parse_action(number: int, text: str, n: int, scale: int) -> PhhAction:
    words = text.split("#", 1)[0].split()
    where = f"action {number} ({_shown(text.strip())})"

    def player(word: str) -> int:
        match = re.fullmatch(r"p([0-9]{1,3})", word)
        if match is None or not 1 <= int(match.group(1)) <= n:
            raise PhhError(f"{where}: {_shown(word)} is not one of the players p1 to p{n}")
        return int(match.group(1)) - 1

    match words:
        case []:
            return PhhAction(number, text, "noop")
        case ["d", "db", cards]:
            return PhhAction(number, text, "db", cards=_parse_cards(cards, where))
        case ["d", "dh", who, cards]:
            return PhhAction(number, text, "dh", player(who), _parse_cards(cards, where))
        case [who, ("f" | "cc") as verb]:
            return PhhAction(number, text, verb, player(who))
        case [who, "cbr", amount]:
            chips = _chips(amount, where, scale)
            if chips <= 0:
                raise PhhError(f"{where}: a bet or raise must be more than zero")
            return PhhAction(number, text, "cbr", player(who), amount=chips)
        case [who, "sm"]:
            return PhhAction(number, text, "sm", player(who))
        case [who, "sm", "-"]:
            return PhhAction(number, text, "sm", player(who), (None, None))
        case [who, "sm", cards]:
            return PhhAction(number, text, "sm", player(who), _parse_cards(cards, where))
        case [_, "sd", *_] | [_, "pb"]:
            raise PhhError(f"{where}: draws and bring-ins are not part of no-limit hold'em")
    raise PhhError(f"{where}: this is not a PHH action")


# ---------------------------------------------------------------------------------- replaying
@dataclass(frozen=True, slots=True)
class PhhReplay:
    """A PHH hand played again with this engine."""

    phh: PhhHand
    hand: Hand

    @property
    def seats(self) -> tuple[int, ...]:
        return self.phh.seats

    @property
    def starting_stacks(self) -> list[int]:
        return list(self.phh.starting_stacks)

    @property
    def finishing_stacks(self) -> list[int]:
        final = self.hand.final_stacks
        return [final[seat] for seat in self.phh.seats]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.phh.player_count,
            "starting_stacks": self.starting_stacks,
            "finishing_stacks": self.finishing_stacks,
        }


def replay_phh(phh: PhhHand, *, mucked_lose: bool = False) -> PhhReplay:
    """Play a PHH hand again with this table's rules, applying each action through ``Hand.act``.

    The deck is rebuilt from the cards in the file; unknown cards (``????``, missing deals) are
    filled with cards seen nowhere else, which is harmless for any hand never compared at
    showdown. Show and muck lines are information only (this table decides showing by R28); the
    cards they show fill in unknown hole cards. Raises ``PhhError`` naming the action and the
    table's reason when an action is illegal here, or when an unknown hand must be compared.

    ``mucked_lose`` (the replayer): a hand mucked at showdown whose cards the file does
    not give (a player's own export: opponents' mucked hands stay hidden) gets the weakest
    cards left instead, so that it loses here too (R28 mucks only a hand that cannot win); the
    replay is refused if this table would then show that hand or pay it.
    """
    n = phh.player_count
    holes, board = _known_cards(phh)
    invented = _fill_mucked(phh, holes, board) if mucked_lose else set()
    deck = _build_deck(holes, board)
    order = sorted(range(n), key=lambda k: phh.seats[k])
    settings = HandSettings(
        hand_number=phh.hand if isinstance(phh.hand, int) else 1,
        seats=tuple(phh.seats[k] for k in order),
        stacks=tuple(phh.starting_stacks[k] for k in order),
        button=phh.seats[-1],
        small_blind=phh.small_blind,
        big_blind=phh.big_blind,
    )
    hand = Hand(settings, deck)
    label = {seat: f"p{k + 1}" for k, seat in enumerate(phh.seats)}

    dealt = 0
    for action in phh.actions:
        if action.verb == "db":
            dealt += len(action.cards)
            if dealt > len(hand.board) or (dealt < len(hand.board) and not hand.finished):
                waiting = hand.seat_to_act
                if hand.finished:
                    why = "the hand is already over at this table"
                elif waiting is not None and dealt > len(hand.board):
                    why = f"{label[waiting]} is still to act in this betting round"
                else:
                    why = f"this table has {len(hand.board)} board card(s) out at this point"
                raise PhhError(f"{action.describe()} does not fit this table's play: {why}")
        elif action.verb in ("f", "cc", "cbr"):
            assert action.player is not None
            _act(hand, phh.seats[action.player], action, label)
    if not hand.finished:
        waiting = hand.seat_to_act
        who = f": {label[waiting]} is to act" if waiting is not None else ""
        raise PhhError(f"the file ends before the hand is over{who}")

    for seat in hand.shown_seats() | {award.seat for award in hand.awards}:
        if phh.seats.index(seat) in invented:
            raise PhhError(
                f"{label[seat]}'s hole cards are not in the file, but this table shows them at "
                "showdown"
            )
    contenders = [hand.seats[i] for i in hand.in_hand]
    if len(contenders) > 1:
        for seat in contenders:
            k = phh.seats.index(seat)
            if None in holes[k]:
                raise PhhError(
                    f"{label[seat]}'s hole cards are not in the file, but this table must "
                    "compare them at showdown"
                )
        if None in board:
            known = sum(c is not None for c in board)
            raise PhhError(
                f"the file gives {known} of the 5 board cards, but this table must compare "
                "hands at showdown"
            )
    return PhhReplay(phh, hand)


def _act(hand: Hand, seat: int, action: PhhAction, label: Mapping[int, str]) -> None:
    legal = hand.legal_actions()
    if legal is not None and legal.seat != seat:
        raise PhhError(
            f"{action.describe()} is illegal at this table: {label[legal.seat]} is to act, "
            f"not {label[seat]}"
        )
    kind: ActionKind
    amount = None
    if action.verb == "f":
        kind = ActionKind.FOLD
    elif action.verb == "cc":
        kind = ActionKind.CHECK if legal is None or legal.can_check else ActionKind.CALL
    else:
        amount = action.amount
        if legal is not None and amount == legal.all_in_to:
            kind, amount = ActionKind.ALL_IN, None
        else:
            kind = ActionKind.BET if hand.current_bet == 0 else ActionKind.RAISE
    try:
        hand.act(seat, kind, amount)
    except ActionError as exc:
        raise PhhError(f"{action.describe()} is illegal at this table: {exc.message}") from None


def _known_cards(phh: PhhHand) -> tuple[list[list[Card | None]], list[Card | None]]:
    """Each player's two hole cards and the five board cards as far as the file tells them."""
    n = phh.player_count
    dealt: list[list[Card | None]] = [[] for _ in range(n)]
    shown: list[list[Card]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    for action in phh.actions:
        if action.verb == "dh":
            assert action.player is not None
            dealt[action.player].extend(action.cards)
            if len(dealt[action.player]) > 2:
                raise PhhError(f"{action.describe()}: a player gets two hole cards in hold'em")
        elif action.verb == "db":
            board.extend(action.cards)
            if len(board) > 5:
                raise PhhError(f"{action.describe()}: the board has only five cards")
        elif action.verb == "sm":
            assert action.player is not None
            if len(action.cards) > 2:
                raise PhhError(f"{action.describe()}: a player has only two hole cards")
            shown[action.player].extend(c for c in action.cards if c is not None)

    holes: list[list[Card | None]] = []
    for k in range(n):
        cards = dealt[k] + [None] * (2 - len(dealt[k]))
        for card in shown[k]:
            if card in cards:
                continue
            if None not in cards:
                raise PhhError(
                    f"p{k + 1} shows {card} but was dealt {''.join(str(c) for c in cards)}"
                )
            cards[cards.index(None)] = card
        holes.append(cards)
    board += [None] * (5 - len(board))

    seen: set[Card] = set()
    for maybe in [c for cards in holes for c in cards] + board:
        if maybe is None:
            continue
        if maybe in seen:
            raise PhhError(f"the card {maybe} appears twice in the hand")
        seen.add(maybe)
    return holes, board


def _fill_mucked(
    phh: PhhHand, holes: list[list[Card | None]], board: Sequence[Card | None]
) -> set[int]:
    """Give each player who mucked at showdown with cards the file does not give the weakest
    cards left with this board; returns those players (``replay_phh(mucked_lose=True)``)."""
    mucked = [
        k for k in dict.fromkeys(
            a.player for a in phh.actions if a.verb == "sm" and not a.cards
        ) if k is not None and None in holes[k]
    ]
    if not mucked or None in board:
        return set()  # without the whole board nothing can be compared: refused later
    known_board = [c for c in board if c is not None]
    used = {c for cards in holes for c in cards if c is not None} | set(known_board)
    for k in mucked:
        have = [c for c in holes[k] if c is not None]
        spare = [c for c in ALL_CARDS if c not in used]
        missing = 2 - len(have)
        picks = (
            [(a,) for a in spare] if missing == 1
            else [(a, b) for i, a in enumerate(spare) for b in spare[i + 1 :]]
        )
        weakest = min(picks, key=lambda pick: evaluate([*have, *pick, *known_board]).value)
        holes[k] = [*have, *weakest]
        used.update(weakest)
    return set(mucked)


def _build_deck(holes: Sequence[Sequence[Card | None]], board: Sequence[Card | None]) -> list[Card]:
    """A deck that deals this table's way (R11: one card at a time from p1, then a burn before
    the flop, the turn and the river) the cards of the file; unknown places get unused cards."""
    n = len(holes)
    slots: list[Card | None] = [None] * 52
    for k, cards in enumerate(holes):
        slots[k], slots[n + k] = cards[0], cards[1]
    base = 2 * n
    for place, card in zip((1, 2, 3, 5, 7), board, strict=True):
        slots[base + place] = card
    used = {c for c in slots if c is not None}
    spare: Iterator[Card] = (c for c in ALL_CARDS if c not in used)
    return [c if c is not None else next(spare) for c in slots]


# ---------------------------------------------------------------------------------- command line
def replay_file(path: str, scale: int = 1) -> dict[str, Any]:
    """One line of the ``replay`` command's output for one file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return {"file": path, "error": f"the file cannot be read: {reason}"}
    try:
        result = replay_phh(read_phh(text, scale))
    except PhhError as exc:
        return {"file": path, "error": str(exc)}
    return {"file": path, **result.to_dict()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.phh",
        description="Replay no-limit hold'em hands written in PHH with this table's rules.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser(
        "replay",
        help="replay each file and print one JSON line per file",
        description="Replay each PHH file with this table's rules. Prints one JSON object per "
        "line: the players, starting and finishing stacks in PHH player order, or an error.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument(
        "--scale", type=int, default=1, metavar="N",
        help="multiply every amount by N before play (e.g. 100 for amounts in cents)",
    )
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be a whole number of at least 1")
    failed = False
    for path in args.files:
        line = replay_file(path, args.scale)
        failed = failed or "error" in line
        print(json.dumps(line, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
