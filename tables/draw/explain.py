"""The replayer's explanations of a player's own decisions, and the hint at the table, in words.

The figures come from ``engine.advice`` (the player's own cards, the board, the public actions
and the hands shown at the table; unshown hands only as the hard computer player's range); this
module only says them in the page's language, with the words of How to play's glossary (pot
odds, outs, flush draw...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.advice import Decision, HandHelp, decisions
from engine.hand import Hand as EngineHand
from engine.runout import runout_dict
from engine.views import hand_view
from tables.draw.hand_names import hand_name

PAST_HANDS = 60  # the hard computer player's model reads at most this many earlier hands


def percent(share: float) -> str:
    """A share 0..1 as a whole percentage ("35%"); under 1 but above 0 as "under 1%"."""
    value = round(share * 100)
    if value == 0 and share > 0:
        return _("under 1%")
    return _("%(n)s%%") % {"n": value}


def _names(seats: Iterable[int], names: Mapping[int, str]) -> str:
    listed = [names.get(s, "?") for s in seats]
    if len(listed) <= 1:
        return "".join(listed)
    return _("%(first)s and %(last)s") % {"first": ", ".join(listed[:-1]), "last": listed[-1]}


_DRAWS = {
    "flush": lambda: _("Flush draw"),
    "open_ended": lambda: _("Open-ended straight draw"),
    "gutshot": lambda: _("Inside straight draw"),
}


def help_lines(help_: HandHelp, names: Mapping[int, str]) -> list[str]:
    """The figures of one spot, a sentence each: the hand and its outs, the price, the chance."""
    lines: list[str] = []
    if help_.hand:
        lines.append(_("Your hand: %(hand)s.") % {"hand": hand_name(help_.hand)})
    for draw in help_.draws:
        lines.append(ngettext(
            "%(draw)s: %(outs)s card, about %(chance)s by the river.",
            "%(draw)s: %(outs)s cards, about %(chance)s by the river.",
            draw.outs,
        ) % {
            "draw": _DRAWS[draw.kind](), "outs": draw.outs,
            "chance": percent(draw.by_river),
        })
    if len(help_.draws) > 1:
        total = sum(d.outs for d in help_.draws)
        lines.append(_("Either draw: %(outs)s outs in all, about %(chance)s by the river.") % {
            "outs": total, "chance": percent(help_.draws[0].by_river),
        })
    if help_.need is not None:
        lines.append(_("Pot odds: call %(call)s to win %(pot)s, so you need %(need)s.") % {
            "call": help_.to_call, "pot": help_.pot, "need": percent(help_.need),
        })
    if help_.against == "shown":
        lines.append(_("Your chance against the hands shown: %(chance)s.") % {
            "chance": percent(help_.equity),
        })
    elif help_.known:
        lines.append(_(
            "Your chance against the hands shown and the hands %(names)s would play like "
            "this: about %(chance)s."
        ) % {"names": _names(help_.ranged, names), "chance": percent(help_.equity)})
    else:
        lines.append(_(
            "Your chance against the hands %(names)s would play like this: about %(chance)s."
        ) % {"names": _names(help_.ranged, names), "chance": percent(help_.equity)})
    return lines


def hint_lines(help_: HandHelp, names: Mapping[int, str]) -> list[str]:
    """The hint's sentences: the figures, then what they mean for this decision in plain words
    (on the odds alone, does calling win or lose chips in the long run)."""
    lines = help_lines(help_, names)
    if help_.need is None:
        lines.append(_("Nothing to call: checking costs you nothing."))
        return lines
    figures = {"need": percent(help_.need), "chance": percent(help_.equity)}
    if help_.equity >= help_.need:
        lines.append(_(
            "You need to win %(need)s of the time to break even on this call; your hand wins "
            "about %(chance)s: on the odds alone, calling wins chips in the long run."
        ) % figures)
    else:
        lines.append(_(
            "You need to win %(need)s of the time to break even on this call; your hand wins "
            "about %(chance)s: on the odds alone, calling loses chips in the long run."
        ) % figures)
    return lines


def _verdict(decision: Decision) -> str:
    need = decision.help.need
    if need is None:
        return ""
    better = decision.help.equity >= need
    if decision.action == "call":
        return _("On these figures the call paid.") if better else _(
            "On these figures the call cost more than it won."
        )
    if decision.action == "fold":
        return _("On these figures a call would have paid.") if better else _(
            "On these figures folding was right."
        )
    return ""


def explain(
    hand: EngineHand, viewer: int, names: Mapping[int, str],
    past: Sequence[Mapping[str, Any]] = (),
) -> dict[str, list[str]]:
    """Event index (as text, for JSON) -> the sentences for the viewer's decision there."""
    out: dict[str, list[str]] = {}
    for decision in decisions(hand, viewer, past):
        lines = help_lines(decision.help, names)
        verdict = _verdict(decision)
        if verdict:
            lines.append(verdict)
        out[str(decision.event)] = lines
    return out


def past_views(hands: Iterable[EngineHand], viewer: int) -> list[dict[str, Any]]:
    """The earlier hands as ``viewer`` saw them, for the hard computer player's model."""
    return [hand_view(h, viewer) for h in hands]


def replay_extras(
    hand: EngineHand, viewer: int | None, names: Mapping[int, str],
    earlier: Sequence[EngineHand] = (),
) -> dict[str, Any]:
    """What the replayer adds to a hand: the run-out's odds (when the hands were face up) and,
    for a player, the explanations of their own decisions."""
    extras: dict[str, Any] = {"odds": runout_dict(hand)}
    if viewer is not None and viewer in hand.seats:
        past = past_views(earlier[-PAST_HANDS:], viewer)
        extras["explain"] = explain(hand, viewer, names, past)
    return extras
