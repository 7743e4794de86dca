"""Peak memory of a process holding 10,000 finished hand histories.

    .venv/bin/python benchmarks/bench_memory.py [--hands N]

Plays N random 6-player hands (1,000 chips each, blinds 10/20, a mix of folds, calls, raises and
all ins) and keeps every finished hand, in one of three forms, each in a fresh process:

- ``hand``: the live ``Hand`` objects (events, actions, deck, pots, awards, shown hands);
- ``record``: only their records (``engine.history.hand_record``: settings, deck, actions),
  from which ``replay`` rebuilds everything;
- ``json``: the records as JSON text, as stored in the database.

For each form it prints the memory Python allocated for the histories (tracemalloc, less what
the baseline still holds at its end: held at the end, and the peak while building them) and the
process's peak resident size (ru_maxrss, in a separate run without tracemalloc, which adds its
own overhead), against a baseline process that imports the same modules, plays the same hands
and keeps nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import ActionKind
from engine.cards import shuffled_deck
from engine.hand import Hand
from engine.hand_settings import HandSettings
from engine.history import hand_record

FORMS = ("baseline", "hand", "record", "json")
SETTINGS = HandSettings(1, tuple(range(6)), (1000,) * 6, 0, 10, 20)


def play(rng: random.Random) -> Hand:
    hand = Hand(SETTINGS, shuffled_deck(rng.getrandbits(32)))
    while not hand.finished:
        legal = hand.legal_actions()
        assert legal is not None
        r = rng.random()
        if r < 0.25 and not legal.can_check:
            hand.act(legal.seat, ActionKind.FOLD)
        elif r < 0.85 or legal.bet_or_raise is None:
            hand.act(legal.seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        elif r < 0.97:
            hand.act(legal.seat, legal.bet_or_raise, legal.min_to)
        else:
            hand.act(legal.seat, ActionKind.ALL_IN)
    return hand


def build(form: str, hands: int) -> list[Any]:
    rng = random.Random(1)
    kept: list[Any] = []
    for _ in range(hands):
        if form == "baseline":
            play(rng)  # the same work, nothing kept
        elif form == "hand":
            kept.append(play(rng))
        elif form == "record":
            kept.append(hand_record(play(rng)))
        else:
            kept.append(json.dumps(hand_record(play(rng))))
    return kept


def child(form: str, hands: int, trace: bool) -> None:
    """Runs in a fresh process; prints one JSON line of figures."""
    if trace:
        tracemalloc.start()
    kept = build(form, hands)
    result: dict[str, Any] = {"form": form, "kept": len(kept)}
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        result.update(current=current, peak=peak)
    else:
        result["maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps(result))


def run_child(form: str, hands: int, trace: bool) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", form, "--hands", str(hands)]
    if trace:
        command.append("--trace")
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def mib(n: float) -> str:
    return f"{n / 2**20:7.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--child", choices=FORMS)
    parser.add_argument("--trace", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.hands, args.trace)
        return

    print(f"{args.hands:,} finished 6-player hands kept in memory (fresh process per form)")
    base = run_child("baseline", args.hands, True)
    base_rss = run_child("baseline", args.hands, False)["maxrss"]
    print(
        f"  baseline (imports, plays the hands, keeps nothing): held {mib(base['current'])}, "
        f"ru_maxrss {mib(base_rss)}"
    )
    for form in FORMS[1:]:
        traced = run_child(form, args.hands, True)
        rss = run_child(form, args.hands, False)["maxrss"]
        held = traced["current"] - base["current"]
        print(
            f"  {form:<7} held {mib(held)} ({held / args.hands / 1024:5.1f} KiB/hand), "
            f"tracemalloc peak {mib(traced['peak'] - base['current'])}; ru_maxrss {mib(rss)} "
            f"(+{mib(rss - base_rss).strip()} over baseline)"
        )


if __name__ == "__main__":
    main()
