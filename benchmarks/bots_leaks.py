"""Counting the computer players' known leaks while they play the benchmark's matches.

Each decision of a computer player is looked at with the names of the players at the table;
when it is one of the spots below, the spot is counted, and so is the decision when it is the
one the leak is about. A rate is decisions / spots.

- ``button fold vs loose``: before the flop on the button, everyone before folded, and every
  player still to act is a loose one (a station or a maniac): folding here gives up the best
  seat against players who pay off; (``button limp vs loose`` counts the limps in those spots).
- ``fold after own re-raise``: before the flop, the bot has re-raised (a raise over a raise)
  and faces a raise again: folding throws away what it put in (lower is better); counted
  again for the hands among the strongest 15% (folding those is the clearest mistake).
- ``fold top pair+ to a raise``: after the flop the bot bet or raised this round with top pair
  or better (made-hand percentile at least 0.8) and folds to a raise.
- ``bluff into station``: on the river, against nobody but players who never fold, with a
  weak hand (made-hand percentile under 0.5): betting or raising.
- ``weak barrel into strength``: on the turn or river, nobody to call, against nobody but tight
  players who each called a bet earlier after the flop (their calls mean top pair or better),
  with a hand under 0.6 (behind everything they call with): betting.
- ``strong bet multiway``: after the flop, nobody to call, two or more opponents, a strong hand
  (made-hand percentile at least 0.85): betting (higher is better).
"""

from __future__ import annotations

from collections.abc import Mapping

from benchmarks.scripted import made_strength
from engine.actions import Action, ActionKind
from engine.bots import preflop as preflop_table
from engine.bots.base import Spot

LOOSE = frozenset({"station", "wild", "always-call", "loose-caller", "maniac"})
STATIONS = frozenset({"station", "always-call"})
STRENGTH_CALLERS = frozenset({"tight", "tight-folder"})

LEAKS = (
    "button fold vs loose",
    "button limp vs loose",
    "fold after own re-raise",
    "... of them with a top-15% hand",
    "fold top pair+ to a raise",
    "bluff into station",
    "weak barrel into strength",
    "strong bet multiway",
)
BETTER_HIGH = frozenset({"strong bet multiway", "button limp vs loose"})

Tally = dict[tuple[str, str], list[int]]  # (level, leak) -> [spots, hits]


def _aggressive(spot: Spot, action: Action) -> bool:
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        return True
    return action.kind == ActionKind.ALL_IN and spot.mine.stack > spot.to_call


def spots_of(spot: Spot, action: Action, names: Mapping[int, str]) -> list[tuple[str, bool]]:
    """The leak spots this decision is in, each with whether the decision is the leak."""
    out: list[tuple[str, bool]] = []
    folded = action.kind == ActionKind.FOLD
    live = [o.seat for o in spot.opponents]
    if spot.street == 0:
        before = spot.street_acts(0)
        if (
            spot.distance_from_button(spot.me) == 0
            and spot.level() <= 1
            and all(a.kind == "fold" for a in before)
            and live
            and all(names[s] in LOOSE for s in live)
        ):
            out.append(("button fold vs loose", folded))
            out.append(("button limp vs loose", action.kind == ActionKind.CALL))
        reraised = any(a.seat == spot.me and a.kind == "raise" and a.level >= 2 for a in before)
        if reraised and spot.to_call > 0:
            out.append(("fold after own re-raise", folded))
            if preflop_table.percentile(spot.hole) <= 0.15:
                out.append(("... of them with a top-15% hand", folded))
        return out
    s = made_strength(spot)
    mine_now = [a for a in spot.street_acts(spot.street) if a.seat == spot.me]
    if spot.to_call > 0 and any(a.kind in ("bet", "raise") for a in mine_now) and s >= 0.8:
        out.append(("fold top pair+ to a raise", folded))
    if spot.street == 3 and s < 0.5 and live and all(names[x] in STATIONS for x in live):
        out.append(("bluff into station", _aggressive(spot, action)))
    if spot.street >= 2 and spot.to_call == 0 and s < 0.6 and live:
        earlier = [a for a in spot.acts if 1 <= a.street < spot.street]
        if all(
            names[x] in STRENGTH_CALLERS and any(a.seat == x and a.kind == "call" for a in earlier)
            for x in live
        ):
            out.append(("weak barrel into strength", _aggressive(spot, action)))
    if spot.to_call == 0 and len(live) >= 2 and s >= 0.85:
        out.append(("strong bet multiway", _aggressive(spot, action)))
    return out


def record(tally: Tally, level: str, spot: Spot, action: Action,
           names: Mapping[int, str]) -> None:
    for leak, hit in spots_of(spot, action, names):
        cell = tally.setdefault((level, leak), [0, 0])
        cell[0] += 1
        cell[1] += int(hit)


def merge(into: Tally, other: Tally) -> None:
    for key, (spots, hits) in other.items():
        cell = into.setdefault(key, [0, 0])
        cell[0] += spots
        cell[1] += hits


def report(tally: Tally, levels: tuple[str, ...]) -> list[str]:
    lines = ["leaks (decisions / spots; lower is better unless marked 'higher is better'):"]
    for leak in LEAKS:
        cells = []
        for level in levels:
            spots, hits = tally.get((level, leak), [0, 0])
            rate = f"{100 * hits / spots:5.1f}%" if spots else "    -"
            cells.append(f"{level} {hits}/{spots} = {rate}")
        mark = " (higher is better)" if leak in BETTER_HIGH else ""
        lines.append(f"  {leak + mark:44s} " + "; ".join(cells))
    return lines
