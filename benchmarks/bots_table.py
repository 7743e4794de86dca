"""The table the computer players' matches play at (:mod:`benchmarks.bots_match`, and the pool
yardstick :mod:`benchmarks.bots_pool`): blinds 10/20 and 100 big blinds a stack, the players by
name (the computer levels and the scripted policies), and ``play_hand``, which deals one seeded
hand with ``engine.hand.Hand`` and lets each seat's player act.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from benchmarks import bots_leaks, outside_styles
from benchmarks.bots_opponents import OUTSIDE
from benchmarks.scripted import ANY_PRICE, Policy, View, by_ranges, made_strength
from engine.actions import Action, ActionKind
from engine.bots import decide
from engine.bots import preflop as preflop_table
from engine.bots.base import bet_to, check_or_call, fold_or_check, read_spot
from engine.bots.ranges import open_width
from engine.cards import shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.views import hand_view

BIG_BLIND = 20
SMALL_BLIND = 10
STACK = 100 * BIG_BLIND

Past = list[dict[str, Any]]  # the hands of a session a player remembers


# ------------------------------------------------------------------ scripted players
def always_call(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    return check_or_call(read_spot(view))


def random_player(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Picks uniformly among fold (when facing a bet), check or call, and bet or raise (to a
    uniformly random amount between the smallest allowed and all in)."""
    spot = read_spot(view)
    legal = spot.legal
    choices = ["passive"]
    if not legal["check"]:
        choices.append("fold")
    if legal["bet_or_raise"] is not None:
        choices.append("raise")
    pick = rng.choice(choices)
    if pick == "fold":
        return fold_or_check(spot)
    if pick == "raise":
        amount = rng.randint(int(legal["min_to"]), int(legal["max_to"]))
        return Action(spot.me, ActionKind(legal["bet_or_raise"]), amount)
    return check_or_call(spot)


def loose_caller(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Plays two hands in three, calls bets with any piece of the board, raises only monsters."""
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.03, [(0.65, 10), (0.1, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot * 0.5) if s >= 0.9 else check_or_call(spot)
    if s >= 0.97 and rng.random() < 0.5:
        return bet_to(spot, spot.current_bet * 2.5)
    if s >= 0.3 or rng.random() < 0.25:
        return check_or_call(spot)
    return fold_or_check(spot)


def tight_folder(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Plays one hand in eight and gives up without a strong hand."""
    spot = read_spot(view)
    if spot.street == 0:
        return by_ranges(spot, 0.08, [(0.12, 8), (0.03, ANY_PRICE)])
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot * 0.66) if s >= 0.8 else check_or_call(spot)
    need = 0.85 if spot.to_call > 0.7 * spot.pot else 0.75
    if s >= 0.95:
        return bet_to(spot, spot.current_bet * 2.5)
    return check_or_call(spot) if s >= need else fold_or_check(spot)


def maniac(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """Raises and bets most of the time with anything; calls the rest."""
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        if spot.level() <= 3 and rng.random() < 0.6:
            return bet_to(spot, 3.5 * max(spot.current_bet, bb))
        if spot.legal["check"] or pct <= 0.7:
            return check_or_call(spot)
        return fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        return bet_to(spot, spot.pot) if rng.random() < 0.7 else check_or_call(spot)
    if rng.random() < 0.35:
        return bet_to(spot, spot.current_bet + spot.pot)
    if s >= 0.4 or rng.random() < 0.5:
        return check_or_call(spot)
    return fold_or_check(spot)


def solid(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
    """A sensible rule-based player: opens by position, continuation-bets, calls with the price."""
    spot = read_spot(view)
    bb = spot.big_blind
    if spot.street == 0:
        pct = preflop_table.percentile(spot.hole)
        level = spot.level()
        if level <= 1:
            if spot.legal["check"]:
                return bet_to(spot, 4 * bb) if pct <= 0.1 else check_or_call(spot)
            if pct <= open_width(spot.n, spot.behind_preflop(spot.me)):
                return bet_to(spot, 2.5 * bb if spot.n == 2 else 3 * bb)
            return fold_or_check(spot)
        if level == 2:
            if pct <= 0.04:
                return bet_to(spot, 3 * spot.current_bet)
            if pct <= (0.3 if spot.n == 2 else 0.15) and spot.to_call <= 4 * bb:
                return check_or_call(spot)
            return fold_or_check(spot)
        if pct <= 0.02:
            return bet_to(spot, 2.3 * spot.current_bet)
        return check_or_call(spot) if pct <= 0.05 else fold_or_check(spot)
    s = made_strength(spot)
    if spot.to_call == 0:
        raiser = spot.last_aggressor(0) == spot.me
        if s >= 0.75 or (spot.street == 1 and raiser and (s >= 0.55 or rng.random() < 0.5)):
            return bet_to(spot, spot.pot * 0.6)
        return check_or_call(spot)
    price = spot.to_call / (spot.pot + spot.to_call)
    if s >= 0.93:
        return bet_to(spot, spot.current_bet * 2.5)
    if s >= 0.45 + 0.8 * price:
        return check_or_call(spot)
    return fold_or_check(spot)


def bot(level: str) -> Policy:
    def policy(view: View, past: Sequence[Mapping[str, Any]], rng: random.Random) -> Action:
        return decide(level, view, past, rng)

    return policy


PLAYERS: dict[str, Policy] = {
    "easy": bot("easy"),
    "medium": bot("medium"),
    "hard": bot("hard"),
    "always-call": always_call,
    "random": random_player,
    "loose-caller": loose_caller,
    "tight-folder": tight_folder,
    "maniac": maniac,
    "solid": solid,
    **OUTSIDE,
    **outside_styles.POOL,
}
LEVELS = ("easy", "medium", "hard")
REMEMBERS = {"hard", "medium"}  # players that read ``past`` (the others get an empty list)
# With the pool of outside styles (``--pool``), the adapter reads the hands of its session too.
POOL_REMEMBERS = REMEMBERS | outside_styles.REMEMBERING


# ------------------------------------------------------------------ playing
def play_hand(
    number: int,
    seats: Sequence[int],
    button: int,
    deck_seed: int,
    players: Mapping[int, str],
    pasts: Mapping[int, Past],
    seeds: Mapping[int, int],
    tally: bots_leaks.Tally | None = None,
    stacks: Mapping[int, int] | None = None,
    remembers: frozenset[str] | set[str] = REMEMBERS,
) -> dict[int, int]:
    """Play one hand at 100 big blinds each (or at ``stacks``); returns each seat's net chips.
    The computer players' decisions are looked at for the known leaks when ``tally`` is given;
    the players named in ``remembers`` get the hands of their session as ``past``."""
    starting = {s: (stacks or {}).get(s, STACK) for s in seats}
    settings = HandSettings(
        hand_number=number,
        seats=tuple(seats),
        stacks=tuple(starting[s] for s in seats),
        button=button,
        small_blind=SMALL_BLIND,
        big_blind=BIG_BLIND,
    )
    hand = Hand(settings, shuffled_deck(deck_seed))
    rngs = {s: random.Random(seeds[s]) for s in seats}
    while not hand.finished:
        seat = hand.seat_to_act
        assert seat is not None
        view = {"hand": hand_view(hand, seat)}
        name = players[seat]
        past = pasts[seat] if name in remembers else []
        action = PLAYERS[name](view, past, rngs[seat])
        if tally is not None and name in LEVELS:
            bots_leaks.record(tally, name, read_spot(view), action, players)
        hand.act(action.seat, action.kind, action.amount)
    for seat in seats:
        if players[seat] in remembers:
            pasts[seat].append(hand_view(hand, seat))
    return {s: hand.stack[i] - starting[s] for i, s in enumerate(hand.seats)}
