"""What a computer player has learnt about each opponent from the hands of this game: the rates
read from the counts of :mod:`engine.bots.counts`.

Everything comes from the hand views the bot's seat saw (``past``). The model is rebuilt from
that list whenever needed, so a server restart loses nothing; a small cache keyed by the list's
length and content makes repeated calls cheap.

Each rate is shrunk towards a prior (what a typical player does at that table size) by adding a
few imaginary observations, so a handful of hands cannot make a player look extreme. The words
at the end describe an opponent for the recap (:func:`summary`, :func:`style`, :func:`describe`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.bots.counts import Counts, count_hand


@dataclass(frozen=True, slots=True)
class Rates:
    """A player's habits as rates: a typical player's (the prior of the reads, by table size)
    and, in a :class:`Profile`, one opponent's as read."""

    vpip: float
    pfr: float
    aggression: float = 0.55
    bet_rate: float = 0.35  # bets and raises among all their decisions after the flop
    fold_to_bet: float = 0.45
    showdown: float = 0.3
    reraise: float = 0.12  # raises when facing a raise before the flop
    fold_again: float = 0.3  # folds to a bet after calling one on an earlier street
    weak_calls: float = 0.3  # share of their calls after the flop made with weak hands


# What a typical, reasonable player does by number of players dealt in.
PRIORS: dict[int, Rates] = {
    2: Rates(vpip=0.62, pfr=0.4, reraise=0.16),
    3: Rates(vpip=0.45, pfr=0.3, reraise=0.12),
    4: Rates(vpip=0.36, pfr=0.24, reraise=0.1),
    5: Rates(vpip=0.3, pfr=0.2, reraise=0.09),
    6: Rates(vpip=0.27, pfr=0.18, reraise=0.08),
}

# How many imaginary observations of the prior each rate starts with.
WEIGHT_HANDS = 12.0
WEIGHT_ACTIONS = 10.0
WEIGHT_SPOTS = 8.0
WEIGHT_SHOWN = 4.0  # hands seen at showdown are few but say a lot


def prior_for(players: int) -> Rates:
    return PRIORS[min(max(players, 2), 6)]


@dataclass(frozen=True, slots=True)
class Profile(Rates):
    """One opponent as the bot sees them: rates shrunk towards the prior, and the raw counts."""

    counts: Counts = Counts()
    # their opens against a typical player's from the same seats (1: typical, 2: twice as wide)
    open_ratio: float = 1.0
    # their calls of one raise against a typical player's in the same spots
    call_ratio: float = 1.0

    @classmethod
    def of(cls, counts: Counts, prior: Rates) -> Profile:
        def shrink(hits: int, total: int, rate: float, weight: float) -> float:
            return (hits + rate * weight) / (total + weight)

        c = counts
        acted = c.aggressive + c.calls
        vpip = shrink(c.vpip, c.hands, prior.vpip, WEIGHT_HANDS)
        pfr = shrink(c.pfr, c.hands, prior.pfr, WEIGHT_HANDS)
        return cls(
            vpip=vpip,
            pfr=pfr,
            aggression=shrink(c.aggressive, acted, prior.aggression, WEIGHT_ACTIONS),
            bet_rate=shrink(c.aggressive, c.decisions, prior.bet_rate, WEIGHT_ACTIONS),
            fold_to_bet=shrink(c.folded, c.faced, prior.fold_to_bet, WEIGHT_SPOTS),
            showdown=shrink(c.showdowns, c.flops, prior.showdown, WEIGHT_SPOTS),
            counts=c,
            reraise=shrink(c.pre_reraised, c.pre_faced, prior.reraise, WEIGHT_SPOTS),
            fold_again=shrink(c.folded_again, c.faced_again, prior.fold_again, WEIGHT_SPOTS),
            weak_calls=shrink(c.shown_weak_calls, c.shown_calls, prior.weak_calls, WEIGHT_SHOWN),
            # The broader reads stand in for the narrow ones while they have few chances: how
            # often he raises at all for his opens, how many hands he plays for his calls.
            open_ratio=observed_ratio(c.opens, c.open_chances, c.open_expected, pfr / prior.pfr),
            call_ratio=observed_ratio(c.raise_calls, c.call_chances, c.call_expected,
                                      vpip / prior.vpip),
        )

    @classmethod
    def typical(cls, players: int) -> Profile:
        prior = prior_for(players)
        return cls(**{f.name: getattr(prior, f.name) for f in fields(Rates)})


def observed_ratio(made: int, chances: int, expected: float, toward: float = 1.0) -> float:
    """How much more often a player did something than a typical player in the same spots:
    ``made`` of ``chances`` against the ``expected`` count, with ``WEIGHT_HANDS`` imaginary
    chances added at ``toward`` times a typical player's rate (a credibility weighting: after a
    dozen chances the read is halfway from ``toward`` to what was seen). Opens: ``open_ratio``;
    calls of a raise: ``call_ratio``."""
    toward = min(max(toward, 0.15), 3.0)
    if chances == 0 or expected <= 0:
        return toward
    rate = expected / chances  # a typical player's rate at these chances
    return (made + WEIGHT_HANDS * rate * toward) / (expected + WEIGHT_HANDS * rate)


class OpponentModel:
    """Counts per opponent seat, from the hands the bot has seen."""

    def __init__(self, counts: Mapping[int, Counts] | None = None) -> None:
        self.counts: dict[int, Counts] = dict(counts or {})

    def profile(self, seat: int, players: int) -> Profile:
        return Profile.of(self.counts.get(seat, Counts()), prior_for(players))

    def add_hand(self, hand: Mapping[str, Any], me: int | None) -> None:
        for seat, counts in count_hand(hand).items():
            if seat != me:
                self.counts[seat] = self.counts.get(seat, Counts()) + counts

    def copy(self) -> OpponentModel:
        return OpponentModel(self.counts)



# ------------------------------------------------------------------ cached rebuild from past
_CACHE: OrderedDict[tuple[Any, ...], OpponentModel] = OrderedDict()
_CACHE_SIZE = 512
# Fingerprints of hand views already seen, by object identity; the view itself is kept so that
# its id cannot be reused by another object while the entry lives.
_SEEN: OrderedDict[int, tuple[Mapping[str, Any], int]] = OrderedDict()
_SEEN_SIZE = 2_000
# The last model built for each seat, with the fingerprints of the hands it counted.
_LAST: OrderedDict[int | None, tuple[tuple[int, ...], OpponentModel]] = OrderedDict()


def _fingerprint(hand: Mapping[str, Any]) -> int:
    """Tells hands apart: who was dealt in with what, and every event as this seat saw it."""
    found = _SEEN.get(id(hand))
    if found is not None and found[0] is hand:
        return found[1]
    events = tuple(
        (e["kind"], e.get("seat"), e.get("action"), e.get("to"), tuple(e.get("cards", ())))
        for e in hand["events"]
    )
    players = tuple((p["seat"], p["in_pot"], p["stack"], p["folded"]) for p in hand["players"])
    value = hash((hand.get("hand_number"), hand.get("button"), players, events))
    _SEEN[id(hand)] = (hand, value)
    while len(_SEEN) > _SEEN_SIZE:
        _SEEN.popitem(last=False)
    return value


def model_from_past(past: Sequence[Mapping[str, Any]], me: int | None) -> OpponentModel:
    """The model after the hands of ``past`` (oldest first), as seen from seat ``me``.

    Cached by the content of every hand; a list that grew by one hand since the last call only
    counts the new hand.
    """
    if not past:
        return OpponentModel()
    prints = tuple(_fingerprint(hand) for hand in past)
    key = (me, len(prints), hash(prints))
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    model: OpponentModel | None = None
    if len(past) > 1:
        earlier = _CACHE.get((me, len(prints) - 1, hash(prints[:-1])))
        if earlier is not None:
            model = earlier.copy()
            model.add_hand(past[-1], me)
    if model is None:
        # A seat that asks only now and then (the medium player) finds its last model here
        # and counts only the hands played since.
        last = _LAST.get(me)
        if last is not None and len(last[0]) < len(prints) and prints[: len(last[0])] == last[0]:
            model = last[1].copy()
            for hand in past[len(last[0]) :]:
                model.add_hand(hand, me)
        else:
            model = OpponentModel()
            for hand in past:
                model.add_hand(hand, me)
    _CACHE[key] = model
    _LAST[me] = (prints, model)
    _LAST.move_to_end(me)
    while len(_LAST) > _CACHE_SIZE:
        _LAST.popitem(last=False)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return model


def clear_cache() -> None:
    _CACHE.clear()
    _SEEN.clear()
    _LAST.clear()


# ------------------------------------------------------------------ words
def summary(profile: Profile) -> str:
    """A short English description such as "plays 45% of hands, calls often, rarely raises"."""
    c = profile.counts
    if c.hands == 0:
        return "not seen playing yet"
    raw_vpip = c.vpip / c.hands
    raw_pfr = c.pfr / c.hands
    parts = [f"plays {round(100 * raw_vpip)}% of hands"]
    postflop = c.aggressive + c.calls
    if postflop >= 3:
        if c.calls / postflop >= 0.65:
            parts.append("calls often")
        elif c.aggressive / postflop >= 0.65:
            parts.append("bets and raises often")
    if raw_pfr < 0.08 or (raw_vpip > 0 and raw_pfr / raw_vpip < 0.3):
        parts.append("rarely raises before the flop")
    elif raw_pfr >= 0.3:
        parts.append("raises a lot before the flop")
    if c.faced >= 3:
        rate = c.folded / c.faced
        if rate >= 0.6:
            parts.append("often folds to a bet")
        elif rate <= 0.25:
            parts.append("seldom folds to a bet")
    if c.flops >= 4 and c.showdowns / c.flops >= 0.5:
        parts.append("goes to showdown a lot")
    text = ", ".join(parts)
    if c.hands < 10:
        text += " (only a few hands seen)"
    return text


def style(profile: Profile) -> str:
    """A one-word style for the UI to translate: loose or tight, passive or aggressive."""
    loose = profile.vpip >= 0.4 if profile.counts.hands else False
    aggressive = profile.aggression >= 0.5 and profile.pfr >= 0.5 * profile.vpip
    if profile.counts.hands < 5:
        return "unknown"
    if loose and aggressive:
        return "loose_aggressive"
    if loose:
        return "loose_passive"
    if aggressive:
        return "tight_aggressive"
    return "tight_passive"


def describe(model: OpponentModel, players: int) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for seat in sorted(model.counts):
        profile = model.profile(seat, players)
        c = profile.counts

        def rate(hits: int, total: int) -> float | None:
            return round(hits / total, 3) if total else None

        out[seat] = {
            "hands": c.hands,
            "vpip": rate(c.vpip, c.hands),
            "pfr": rate(c.pfr, c.hands),
            "aggression": rate(c.aggressive, c.aggressive + c.calls),
            "bet_rate": rate(c.aggressive, c.decisions),
            "fold_to_bet": rate(c.folded, c.faced),
            "showdown": rate(c.showdowns, c.flops),
            "estimate": {
                "vpip": round(profile.vpip, 3),
                "pfr": round(profile.pfr, 3),
                "aggression": round(profile.aggression, 3),
                "bet_rate": round(profile.bet_rate, 3),
                "fold_to_bet": round(profile.fold_to_bet, 3),
                "showdown": round(profile.showdown, 3),
            },
            "style": style(profile),
            "summary": summary(profile),
        }
    return out


__all__ = [
    "OpponentModel",
    "Profile",
    "Rates",
    "clear_cache",
    "describe",
    "model_from_past",
    "prior_for",
    "summary",
]
