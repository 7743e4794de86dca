"""Reading PHH: one no-limit hold'em hand from TOML text (``read_phh``) into a ``PhhHand`` of
``PhhAction`` lines, amounts scaled to whole chips, with a readable reason for anything this table
cannot read or play (another variant, antes, straddles, fractions of a chip, bad cards or action
lines)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from engine.cards import Card, CardError, parse_card
from engine.phh import REQUIRED_FIELDS, UNKNOWN, VARIANT, PhhError

MAX_PLAYERS = 22  # 2 hole cards each, 5 board cards and 3 burns must fit in one deck
MAX_DIGITS = 15  # the longest amount read (whole chips, after scaling)


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
