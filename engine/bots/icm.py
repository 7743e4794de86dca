"""What a stack is worth in places, not chips: an ICM estimate for the end of a game.

The game pays by place (bust order, R31-R34), not by chips, so near the end a chip lost costs
more than a chip won brings. The estimate is the **Malmuth-Harville** model: a player finishes
first with probability equal to their share of the chips; given who finished first, the next
place goes the same way among the rest, and so on. It is the standard ICM of tournament poker,
needs nothing but the stacks (no skill estimates, which the bot has only for the few hands it
saw), and is exact enough for the few players left when it matters. Its known bias (it makes
short stacks a little too likely to finish high) errs on the side of caution about busting.

The place values are ``values[0]`` for first, ``values[1]`` for second, ...; by default each
place is worth one opponent outlasted (``n - 1, n - 2, ..., 0``): "finishing higher", with every
step up worth the same, which is how friends read a standing without prizes.

For the computer players: :func:`applies` says when a spot is near enough the end of a game,
and :func:`need_to_call_all_in` prices a call of an all in in places instead of chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.bots.base import Spot

__all__ = ["applies", "call_threshold", "equities", "linear_values", "need_to_call_all_in"]


def linear_values(players: int) -> tuple[float, ...]:
    """One point per opponent outlasted: ``players - 1`` for first down to 0 for last."""
    return tuple(float(players - 1 - k) for k in range(players))


def equities(stacks: Sequence[int], values: Sequence[float] | None = None) -> list[float]:
    """Each player's expected place value under Malmuth-Harville. Players with no chips get the
    value of the places left below the others (they are out: the lowest places, in order)."""
    n = len(stacks)
    vals = tuple(values) if values is not None else linear_values(n)
    alive = tuple(i for i in range(n) if stacks[i] > 0)
    out = [0.0] * n
    result = _mh(tuple(int(stacks[i]) for i in alive), vals[: len(alive)])
    for j, i in enumerate(alive):
        out[i] = result[j]
    # the busted share the remaining places' values evenly (their order is not ours to know)
    dead = [i for i in range(n) if stacks[i] <= 0]
    if dead:
        rest = vals[len(alive):]
        share = sum(rest) / len(dead) if rest else 0.0
        for i in dead:
            out[i] = share
    return out


@lru_cache(maxsize=4096)
def _mh(stacks: tuple[int, ...], values: tuple[float, ...]) -> tuple[float, ...]:
    n = len(stacks)
    if n == 0 or not values:
        return (0.0,) * n
    total = sum(stacks)
    out = [0.0] * n
    for i in range(n):
        p = stacks[i] / total
        if p == 0:
            continue
        out[i] += p * values[0]
        if n > 1 and len(values) > 1:
            rest = stacks[:i] + stacks[i + 1:]
            sub = _mh(rest, values[1:])
            for j, v in enumerate(sub):
                out[j if j < i else j + 1] += p * v
    return tuple(out)


def call_threshold(stacks: Sequence[int], me: int, villain: int, risk: int,
                   values: Sequence[float] | None = None) -> float:
    """The share of the pot ``me`` needs to call an all in against ``villain`` when ``risk``
    chips of each are at stake beyond what is already in (``stacks`` after folding: the pot
    already in front counted to whoever it would go to on a fold), under Malmuth-Harville.
    Chip EV would need ``0.5`` for an even bet; places need more when busting costs more."""
    fold = equities(stacks, values)[me]
    win = list(stacks)
    lose = list(stacks)
    bet = min(risk, stacks[me], stacks[villain])
    win[me] += bet
    win[villain] -= bet
    lose[me] -= bet
    lose[villain] += bet
    up = equities(win, values)[me] - fold
    down = fold - equities(lose, values)[me]
    if up + down <= 0:
        return 0.5
    return down / (up + down)


# ------------------------------------------------------------------ the end of a game
def applies(spot: Spot) -> bool:
    """Near the end of a game: three or four players left with short stacks against the blinds
    (a mean of 25 big blinds or less), or three left at any depth. Heads-up, places and chips
    agree (two places, one step), so the model is not needed there."""
    n = spot.n
    if n < 3 or n > 4:
        return False
    mean = sum(s.stack + s.in_pot for s in spot.seats) / n
    return n == 3 or mean <= 25 * spot.big_blind


def need_to_call_all_in(spot: Spot, villain: int) -> float:
    """The share of the pot the bot needs to call ``villain``'s all in, under Malmuth-Harville
    over the players still in the game (those out already hold the places below)."""
    seats = [s.seat for s in spot.seats]
    me, vi = seats.index(spot.me), seats.index(villain)
    mine = spot.mine
    call = min(spot.to_call, mine.stack)
    theirs = spot.info(villain)
    # chips of the villain's bet that the bot cannot match go back to him
    excess = max(theirs.bet - (mine.bet + call), 0)
    pot = spot.pot - excess
    behind = [s.stack for s in spot.seats]
    behind[vi] += excess
    fold = list(behind)
    fold[vi] += pot
    win = list(behind)
    win[me] += pot
    lose = list(behind)
    lose[me] -= call
    lose[vi] += pot + call
    values = linear_values(len(seats))
    v_fold = equities(fold, values)[me]
    v_win = equities(win, values)[me]
    v_lose = equities(lose, values)[me]
    if v_win - v_lose <= 0:
        return call / max(pot + call, 1)
    return min(max((v_fold - v_lose) / (v_win - v_lose), 0.0), 1.0)
