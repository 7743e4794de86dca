"""A strict reader of the PokerStars text export for the tests: each hand split off and parsed,
every amount checked against the chips the player has."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field


# ------------------------------------------------------------------------------ the parser
class FormatError(AssertionError):
    """A PokerStars text our parser does not accept."""


@dataclass
class Parsed:
    hand_id: int
    blinds: tuple[int, int]
    table: str
    max_seats: int
    button: int
    seats: dict[str, int] = field(default_factory=dict)  # name -> seat (1-based)
    start: dict[str, int] = field(default_factory=dict)
    final: dict[str, int] = field(default_factory=dict)
    dealt: dict[str, list[str]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    shown: dict[str, list[str]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    mucked: list[str] = field(default_factory=list)
    collected: dict[str, int] = field(default_factory=dict)
    collected_by_pot: dict[str, int] = field(default_factory=dict)
    put_in: int = 0
    total: int = 0
    pots: dict[str, int] = field(default_factory=dict)
    summary: dict[int, str] = field(default_factory=dict)
    summary_board: list[str] = field(default_factory=list)


HEADER = re.compile(
    r"PokerStars Hand #(\d+):  Hold'em No Limit \((\d+)/(\d+)\) - "
    r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC( \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\])?"
)
TABLE = re.compile(r"Table '([^']+)' (\d)-max Seat #(\d) is the button")
SEAT = re.compile(r"Seat (\d): (.+) \((\d+) in chips\)")
POST = re.compile(r"(.+): posts (small|big) blind (\d+)( and is all-in)?")
DEALT = re.compile(r"Dealt to (.+) \[(\S\S \S\S)\]")
ACT = re.compile(
    r"(.+?): (folds|checks|calls (\d+)|bets (\d+)|raises (\d+) to (\d+))( and is all-in)?"
)
STREET = re.compile(r"\*\*\* (FLOP|TURN|RIVER) \*\*\* (?:\[([^\]]+)\] )?\[([^\]]+)\]")
UNCALLED_LINE = re.compile(r"Uncalled bet \((\d+)\) returned to (.+)")
SHOWS = re.compile(r"(.+): shows \[(\S\S \S\S)\] \((.+)\)")
MUCKS = re.compile(r"(.+): mucks hand")
NO_SHOW = re.compile(r"(.+): doesn't show hand")
COLLECT = re.compile(r"(.+) collected (\d+) from (pot|main pot|side pot|side pot-\d)")
TOTAL = re.compile(r"Total pot (\d+)((?: (?:Main pot|Side pot|Side pot-\d) \d+\.)*) \| Rake 0")
POT_PART = re.compile(r"(Main pot|Side pot|Side pot-\d) (\d+)\.")
SUMMARY_SEAT = re.compile(
    r"Seat (\d): (.+?)((?: \((?:button|small blind|big blind)\))*) "
    r"(folded before Flop(?: \(didn't bet\))?|folded on the (?:Flop|Turn|River)"
    r"|showed \[(\S\S \S\S)\] and (?:won \((\d+)\)|lost) with (.+)"
    r"|collected \((\d+)\)|mucked(?: \[\S\S \S\S\])?)"
)


def parse(text: str) -> Parsed:
    """Read one hand, checking each amount against the chips the player has."""
    lines = text.rstrip("\n").split("\n")
    header = HEADER.fullmatch(lines[0])
    table = TABLE.fullmatch(lines[1]) if len(lines) > 1 else None
    if not header or not table:
        raise FormatError(f"bad header: {lines[:2]}")
    small, big = int(header[2]), int(header[3])
    hand = Parsed(int(header[1]), (small, big), table[1], int(table[2]), int(table[3]))
    stack: dict[str, int] = {}
    bet: dict[str, int] = defaultdict(int)
    folded: set[str] = set()
    highest = big  # preflop the bet to call is the full big blind (R9)
    section = "seats"
    for line in lines[2:]:
        if section == "seats" and (m := SEAT.fullmatch(line)):
            hand.seats[m[2]] = int(m[1])
            hand.start[m[2]] = stack[m[2]] = int(m[3])
            continue
        section = "summary" if line == "*** SUMMARY ***" or section == "summary" else "play"
        if line == "*** SUMMARY ***":
            continue
        if section == "summary":
            _summary_line(hand, line)
        elif m := POST.fullmatch(line):
            amount = int(m[3])
            _pay(stack, bet, m[1], amount, bool(m[4]), line)
            hand.put_in += amount
        elif line in ("*** HOLE CARDS ***", "*** SHOW DOWN ***"):
            pass
        elif m := DEALT.fullmatch(line):
            hand.dealt[m[1]] = m[2].split()
        elif m := STREET.fullmatch(line):
            before = m[2].split() if m[2] else []
            if before != hand.board or len(before) != {"FLOP": 0, "TURN": 3, "RIVER": 4}[m[1]]:
                raise FormatError(f"the board so far is wrong: {line}")
            hand.board += m[3].split()
            bet.clear()
            highest = 0
        elif m := UNCALLED_LINE.fullmatch(line):
            name, amount = m[2], int(m[1])
            others = max((v for k, v in bet.items() if k != name), default=0)
            if bet[name] - amount != others:
                raise FormatError(f"the uncalled bet does not leave the bet matched: {line}")
            stack[name] += amount
            bet[name] -= amount
            hand.put_in -= amount
        elif m := SHOWS.fullmatch(line):
            hand.shown[m[1]] = m[2].split()
            hand.descriptions[m[1]] = m[3]
        elif m := MUCKS.fullmatch(line):
            hand.mucked.append(m[1])
        elif m := COLLECT.fullmatch(line):
            hand.collected[m[1]] = hand.collected.get(m[1], 0) + int(m[2])
            hand.collected_by_pot[m[3]] = hand.collected_by_pot.get(m[3], 0) + int(m[2])
            stack[m[1]] += int(m[2])
        elif NO_SHOW.fullmatch(line):
            pass
        elif m := ACT.fullmatch(line):
            highest = _action(hand, stack, bet, folded, highest, m, line)
        else:
            raise FormatError(f"unknown line: {line!r}")
    hand.final = stack
    return hand


def split_hands(text: str) -> list[str]:
    return [part for part in re.split(r"\n{3,}", text) if part.strip()]


def _pay(stack: dict[str, int], bet: dict[str, int], name: str, amount: int, all_in: bool,
         line: str) -> None:
    if name not in stack or amount <= 0 or amount > stack[name]:
        raise FormatError(f"{name!r} cannot put in {amount}: {line}")
    stack[name] -= amount
    bet[name] += amount
    if all_in != (stack[name] == 0):
        raise FormatError(f"'and is all-in' is wrong: {line}")


def _action(hand: Parsed, stack: dict[str, int], bet: dict[str, int], folded: set[str],
            highest: int, m: re.Match[str], line: str) -> int:
    name, verb, all_in = m[1], m[2].split()[0], bool(m[7])
    others = [n for n in stack if n != name and n not in folded]
    price = highest
    if not any(stack[n] for n in others):
        # R17: with everyone else still in all in, a call matches only what they put in.
        price = min(highest, max(bet[n] for n in others))
    if verb in ("folds", "checks"):
        if all_in or (verb == "checks" and bet[name] < price):
            raise FormatError(f"cannot check facing a bet: {line}")
        if verb == "folds":
            folded.add(name)
        return highest
    if verb == "calls":
        amount = int(m[3])
        owed = min(price - bet[name], stack[name])
        if amount != owed and not (all_in and amount == stack[name] and amount < owed):
            raise FormatError(f"a call of {amount} where {owed} was owed: {line}")
        _pay(stack, bet, name, amount, all_in, line)
        hand.put_in += amount
        return highest
    if verb == "bets":
        if highest:
            raise FormatError(f"a bet when there is already a bet: {line}")
        amount = int(m[4])
        _pay(stack, bet, name, amount, all_in, line)
        hand.put_in += amount
        return amount
    by, to = int(m[5]), int(m[6])
    if to - by != highest or to <= highest:
        raise FormatError(f"'raises {by} to {to}' does not raise the bet of {highest}: {line}")
    added = to - bet[name]
    _pay(stack, bet, name, added, all_in, line)
    hand.put_in += added
    return to


def _summary_line(hand: Parsed, line: str) -> None:
    if m := TOTAL.fullmatch(line):
        hand.total = int(m[1])
        hand.pots = {label: int(amount) for label, amount in POT_PART.findall(m[2])}
    elif line.startswith("Board ["):
        hand.summary_board = line[7:-1].split()
    elif m := SUMMARY_SEAT.fullmatch(line):
        if hand.seats.get(m[2]) != int(m[1]):
            raise FormatError(f"summary seat does not match the seat line: {line}")
        hand.summary[int(m[1])] = m[4]
    else:
        raise FormatError(f"unknown summary line: {line!r}")
