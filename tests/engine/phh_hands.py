"""Hands for the tests of the PHH exports and imports: random hands, pokerkit's replay of a text,
the rule cases (R9, R12, R16, R24), a PHH text written by hand."""

from __future__ import annotations

import json
import random
import warnings
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from typing import TypeVar

from pokerkit import HandHistory, State

from engine.actions import ActionKind
from engine.cards import shuffled_deck
from engine.events import ACTION, POST_BIG_BLIND, POST_SMALL_BLIND
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.phh.write import phh_order

BLINDS = ((10, 20), (15, 30), (25, 50), (50, 100), (5, 10), (1, 2), (20, 20), (7, 25))


# ------------------------------------------------------------------------------ random hands
def random_hand(rng: random.Random) -> Hand:
    """A hand among 2-6 players with many short stacks, played with a random legal policy."""
    n = rng.randint(2, 6)
    seats = tuple(sorted(rng.sample(range(1, 7), n)))
    small, big = rng.choice(BLINDS)
    stacks = tuple(
        rng.randint(1, rng.choice((3, 40, 200)) * big) for _ in seats
    )
    settings = HandSettings(rng.randint(1, 99), seats, stacks, rng.choice(seats), small, big)
    hand = Hand(settings, shuffled_deck(rng.randrange(2**32)))
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        r = rng.random()
        if legal.bet_or_raise is not None and legal.min_to is not None and r < 0.3:
            assert legal.max_to is not None
            to = legal.min_to if rng.random() < 0.3 else rng.randint(legal.min_to, legal.max_to)
            hand.act(legal.seat, legal.bet_or_raise, to)
        elif r < 0.38 and (legal.bet_or_raise is not None or legal.call_all_in):
            hand.act(legal.seat, ActionKind.ALL_IN)
        elif r < 0.48 and not legal.can_check:
            hand.act(legal.seat, ActionKind.FOLD)
        else:
            hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    return hand


def random_hands(seed: int, count: int) -> list[Hand]:
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(count)]


def our_stacks(hand: Hand) -> list[int]:
    return [hand.final_stacks[seat] for seat in phh_order(hand)]


# ------------------------------------------------------------------------------ PokerKit
def pokerkit_play(text: str) -> tuple[HandHistory, State]:
    """Load ``text`` with PokerKit and play it to the end."""
    with warnings.catch_warnings():
        # PokerKit warns about a fold with nothing to call; R14 allows it here.
        warnings.simplefilter("ignore")
        history = HandHistory.loads(text)
        state = deque(history, maxlen=1)[0]  # the same state object, after the last action
    assert not state.status, "PokerKit did not finish the hand"
    return history, state


def pokerkit_final_stacks(text: str) -> list[int]:
    return [int(s) for s in pokerkit_play(text)[1].stacks]


def r9_short_big_blind(hand: Hand) -> bool:
    posted = [e.amount for e in hand.events if e.kind in (POST_SMALL_BLIND, POST_BIG_BLIND)]
    if max(posted) >= hand.settings.big_blind:
        return False
    return any(
        e.kind == ACTION and e.street == "preflop" and e.action != "fold" for e in hand.events
    )


def r12_equal_blinds_heads_up(hand: Hand) -> bool:
    posted = [
        (e.seat, e.amount) for e in hand.events if e.kind in (POST_SMALL_BLIND, POST_BIG_BLIND)
    ]
    start = dict(zip(hand.seats, hand.settings.stacks, strict=True))
    return (
        hand.n == 2
        and len({amount for _, amount in posted}) == 1
        and all(seat is not None and start[seat] > amount for seat, amount in posted)
    )


def r16_raise_after_short_all_ins(hand: Hand) -> bool:
    big = hand.settings.big_blind
    street, current, min_raise, shorts = "", 0, big, 0
    acted: set[int | None] = set()
    for e in hand.events:
        if e.kind != ACTION:
            continue
        if e.street != street:
            street, min_raise, shorts, acted = e.street, big, 0, set()
            current = big if street == "preflop" else 0
        if e.action in ("bet", "raise"):
            if shorts >= 3 and e.seat in acted:
                return True
            if e.to - current >= min_raise:
                min_raise, shorts = e.to - current, 0
            else:
                shorts += 1
            current = e.to
        acted.add(e.seat)
    return False


def r24_odd_chip_splits(hand: Hand) -> tuple[set[int], int]:
    """Seats sharing a pot that does not divide evenly, and the number of odd chips."""
    winners: dict[int, set[int]] = defaultdict(set)
    for award in hand.awards:
        if award.hand is not None:
            winners[award.pot].add(award.seat)
    seats: set[int] = set()
    odd = 0
    for pot, who in winners.items():
        remainder = hand.pots[pot].amount % len(who)
        if len(who) > 1 and remainder:
            seats |= who
            odd += remainder
    return seats, odd


K = TypeVar("K")  # how a player is known: a place in the PHH order, a name


def pokerkit_differs(hand: Hand) -> bool:
    """A hand whose rules PokerKit plays otherwise (R9, R12, R16): not compared."""
    return (r9_short_big_blind(hand) or r12_equal_blinds_heads_up(hand)
            or r16_raise_after_short_all_ins(hand))


def stacks_agree(
    hand: Hand, ours: Mapping[K, int], theirs: Mapping[K, int], key: Callable[[int], K],
    text: str,
) -> str:
    """'strict' when PokerKit's final stacks are ours; else 'adapted': they differ only for the
    players (``key`` of their seat) sharing a pot with odd chips (R24), by no more than those
    chips, and add up to the same between them. Fails otherwise."""
    split, odd = r24_odd_chip_splits(hand)
    if not split:
        assert theirs == ours, text
        return "strict"
    inside = {key(seat) for seat in split}
    for k in ours:
        if k not in inside:
            assert theirs[k] == ours[k], text
        else:
            assert abs(theirs[k] - ours[k]) <= odd, text
    assert sum(theirs[k] for k in inside) == sum(ours[k] for k in inside), text
    return "adapted"


def compare_with_pokerkit(hand: Hand, text: str) -> str:
    """'skipped', 'adapted' or 'strict'; fails when PokerKit disagrees outside the list."""
    if pokerkit_differs(hand):
        return "skipped"
    ours = dict(enumerate(our_stacks(hand)))
    theirs = dict(enumerate(pokerkit_final_stacks(text)))
    return stacks_agree(hand, ours, theirs, phh_order(hand).index, text)


# ------------------------------------------------------------------------------ reader
def phh(actions: list[str], stacks: str = "[1000, 1000, 1000]", **fields: str) -> str:
    n = stacks.count(",") + 1
    lines = {
        "variant": '"NT"',
        "antes": str([0] * n),
        "blinds_or_straddles": str([10, 20] + [0] * (n - 2)),
        "min_bet": "20",
        "starting_stacks": stacks,
        "actions": json.dumps(actions),
    }
    lines.update(fields)
    return "\n".join(f"{key} = {value}" for key, value in lines.items()) + "\n"
