"""Why a computer player did what it did, as data: a code, numbers and seats.

A bot that is asked to explain itself (``engine.bots.decide_explained``) is given a
:class:`Notes`; as it decides it writes down what it worked out (its hand's strength, its share
of the pot, the price of a call, its position, its read of the players it faces, the options it
weighed) and which branch of its plan it took. Writing a note never draws from the random
generator and never changes a branch, so the action is the one ``decide`` takes. The notes then
become a :class:`Reason`. The words are the tables app's (in each viewer's language).

A reason has two parts:

- the **private** part, the bot's own: ``motive`` (``value``, ``bluff``, ``steal``...), its
  ``strength`` category and its ``equity``. It says something about the bot's hidden cards.
- the **public** part (:meth:`Reason.public`): what anyone at the table could say of the spot,
  chosen by the action and the situation only, never by the hidden cards: the kind of spot
  (``open``, ``call_raise``, ``bet``...), the pot and the price of a call, the position, the
  stack in big blinds, the bot's read of the opponents (from the public history of the game)
  and, for a bet or raise, how often it reckoned everyone would fold, rounded to ten points.

The coarse strength words (:func:`strength_of`) are a function of the cards and the board, the
same one the bot writes in its notes, so that once its cards are face up anyone may say them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, ActionKind
from engine.bots import preflop
from engine.bots.base import Spot
from engine.bots.combos import COMBO_INDEX, board_strength

__all__ = [
    "MOTIVES",
    "SITUATIONS",
    "STRENGTHS",
    "Notes",
    "Read",
    "Reason",
    "said",
    "strength_of",
]

VERSION = 1

# The bot's own reasons (private: they say how strong its hand is).
MOTIVES = (
    "premium",  # preflop: among the best starting hands
    "open",  # preflop: in the range this seat opens
    "steal",  # preflop: opened wider than its chart (the players behind give up often)
    "punish_limpers",  # preflop: raised the limps of loose players
    "push",  # short stack: all in with a hand strong enough for its seat
    "limp",  # called the big blind (on the button behind loose players, or to complete)
    "free_check",  # the big blind's option: checked
    "fold_weak",  # not a hand to play from here
    "price_call",  # its share of the pot pays the price of the call
    "price_fold",  # its share of the pot does not pay the price
    "reraise",  # re-raised: worth more than calling or folding
    "value",  # bet or raised with a hand that is ahead when called
    "semi_bluff",  # bet or raised behind, with cards to come and folds to win now
    "bluff",  # bet or raised with little, for the folds
    "check_weak",  # checked: betting would not pay
    "check_strong",  # checked a strong hand (a bet would only fold out worse)
    "whim",  # took a close second-best option (people do not always play by the book)
)

# The public spots (chosen by the action and the situation, never by the cards).
SITUATIONS = (
    "open", "raise_limpers", "push_short", "limp", "check_option", "fold_preflop",
    "call_raise", "reraise", "fold_to_raise",
    "bet", "raise", "call", "fold", "check",
)

STRENGTHS = ("very_strong", "strong", "fair", "weak")

# The reads a reason may quote, from engine.bots.reads.Profile.
READS = ("vpip", "pfr", "fold_to_bet", "aggression", "reraise", "bet_rate")


def strength_of(hole: tuple[int, int], board: tuple[int, ...]) -> str:
    """A coarse strength category of two cards (card ids) on a board: preflop by the starting
    hand's place among all hands, after the flop by the hand's place among every two cards on
    that board (a draw counts as a fair hand: ``board_strength``)."""
    if len(board) < 3:
        top = float(preflop.percentile(hole))  # 0 the best hand .. 1 the worst
        place = 1.0 - top
        cuts = (0.95, 0.85, 0.6)
    else:
        strength, _ = board_strength(board)
        place = float(strength[COMBO_INDEX[hole[0], hole[1]]])
        cuts = (0.92, 0.75, 0.45)
    for name, cut in zip(STRENGTHS, cuts, strict=False):
        if place >= cut:
            return name
    return "weak"


@dataclass(frozen=True, slots=True)
class Read:
    """The bot's estimate of one opponent's habit, from the hands of the game it saw."""

    seat: int
    stat: str  # one of READS
    rate: float  # 0..1, the estimate the bot played with (shrunk towards a typical player)
    hands: int  # hands it has seen the player decide in

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "stat": self.stat, "rate": round(self.rate, 2),
                "hands": self.hands}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the bot in ``seat`` took ``action``: private motive and strength, public spot."""

    seat: int
    action: str  # fold, check, call, bet, raise, all_in
    amount: int | None
    street: int  # 0 preflop .. 3 river
    motive: str  # one of MOTIVES (private)
    strength: str  # one of STRENGTHS (private)
    equity: float | None  # its share of the pot against the hands it gave the others (private)
    situation: str  # one of SITUATIONS (public)
    pot: int  # every chip in the pot before the action
    to_call: int  # chips a call would have added
    position: str  # "in_position" / "out_of_position" after the flop; preflop the seat's place
    behind: int  # players still to act after the bot in this round
    opponents: int  # opponents still in the hand
    stack_bb: float  # the effective stack in big blinds
    reads: tuple[Read, ...] = ()
    fold_chance: float | None = None  # (a bet or raise) how often it reckoned all would fold
    options: tuple[tuple[str, float], ...] = ()  # (action, value in chips) of what it weighed

    @property
    def price(self) -> float | None:
        """The share of the time a call must win to pay (None: nothing to call)."""
        if self.to_call <= 0:
            return None
        return self.to_call / (self.pot + self.to_call)

    def as_dict(self) -> dict[str, Any]:
        """Every part, private ones included (server-side only, like the deck)."""
        return {
            **self.public(),
            "motive": self.motive,
            "strength": self.strength,
            "equity": None if self.equity is None else round(self.equity, 3),
            "options": [[a, round(v, 1)] for a, v in self.options],
        }

    def public(self) -> dict[str, Any]:
        """What may be said of this decision to anyone at the table while the bot's cards are
        hidden: the spot, the price, the position, the reads and its reckoned folds. Nothing
        in it depends on the bot's cards but the fold chance, which depends on them only
        through the few combos they block and is rounded to ten points."""
        fold = None if self.fold_chance is None else round(self.fold_chance * 10) / 10
        return {
            "v": VERSION,
            "seat": self.seat,
            "action": self.action,
            "amount": self.amount,
            "street": self.street,
            "situation": self.situation,
            "pot": self.pot,
            "to_call": self.to_call,
            "position": self.position,
            "behind": self.behind,
            "opponents": self.opponents,
            "stack_bb": round(self.stack_bb),
            "reads": [r.as_dict() for r in self.reads],
            "fold": fold,
        }


def said(notes: Notes | None, motive: str, action: Action) -> Action:
    """``action``, with ``motive`` written in ``notes`` when the bot keeps notes."""
    if notes is not None:
        notes.motive = motive
    return action


@dataclass
class Notes:
    """What a bot writes down while it decides (see the module's docstring)."""

    motive: str = ""
    equity: float | None = None
    reads: list[Read] = field(default_factory=list)
    options: list[tuple[Action, float]] = field(default_factory=list)
    fold_chances: dict[Action, float] = field(default_factory=dict)
    chosen_second: bool = False

    def read(self, seat: int, stat: str, rate: float, hands: int) -> None:
        """An opponent's habit the decision used (kept once per seat and habit)."""
        if any(r.seat == seat and r.stat == stat for r in self.reads):
            return
        self.reads.append(Read(seat, stat, float(rate), int(hands)))

    def weighed(self, options: list[tuple[Action, float]], second: bool) -> None:
        """The options the bot compared (action, value in chips), and whether it took the
        second best on purpose (its mistakes)."""
        self.options = list(options)
        self.chosen_second = second

    def reason(self, spot: Spot, action: Action) -> Reason:
        """The reason for ``action`` in ``spot``, from what was written down."""
        kind = action.kind.value
        motive = "whim" if self.chosen_second else self.motive or self._motive(spot, action)
        fold = self.fold_chances.get(action) if _aggressive(action) else None
        return Reason(
            seat=spot.me,
            action=kind,
            amount=action.amount,
            street=spot.street,
            motive=motive,
            strength=strength_of(spot.hole, spot.board),
            equity=self.equity,
            situation=situation(spot, action),
            pot=spot.pot,
            to_call=spot.to_call,
            position=position(spot),
            behind=_behind(spot),
            opponents=len(spot.opponents),
            stack_bb=spot.effective_stack() / max(spot.big_blind, 1),
            reads=tuple(self.reads),
            fold_chance=fold,
            options=tuple((a.kind.value, float(v)) for a, v in self.options),
        )

    def _motive(self, spot: Spot, action: Action) -> str:
        """The motive of a choice among options (after the flop, or facing a raise), from the
        bot's own share of the pot and the price it faced."""
        equity = self.equity if self.equity is not None else 0.5
        price = spot.to_call / (spot.pot + spot.to_call) if spot.to_call else 0.0
        if action.kind is ActionKind.FOLD:
            return "price_fold"
        if action.kind is ActionKind.CHECK:
            return "check_strong" if equity >= 0.7 else "check_weak"
        if action.kind is ActionKind.CALL:
            return "price_call" if equity >= price else "whim"
        if spot.street == 0 and spot.level() >= 2:
            return "reraise"
        fair = 1.0 / (len(spot.opponents) + 1)
        if equity >= max(0.5, fair):
            return "value"
        if spot.street < 3 and equity >= 0.25:
            return "semi_bluff"
        return "bluff"


def _aggressive(action: Action) -> bool:
    return action.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)


def situation(spot: Spot, action: Action) -> str:
    """The public kind of spot: from the action, the street and the betting so far."""
    kind = action.kind
    facing = spot.to_call > 0
    if kind is ActionKind.ALL_IN:
        if spot.legal.get("bet_or_raise") is None:
            kind = ActionKind.CALL
        else:
            kind = ActionKind.RAISE if facing else ActionKind.BET
    if spot.street == 0:
        level = spot.level()
        limps = any(a.kind == "call" for a in spot.street_acts(0))
        if kind is ActionKind.FOLD:
            return "fold_to_raise" if level >= 2 else "fold_preflop"
        if kind is ActionKind.CHECK:
            return "check_option"
        if kind is ActionKind.CALL:
            return "call_raise" if level >= 2 else "limp"
        if level >= 2:
            return "reraise"
        if action.kind is ActionKind.ALL_IN and spot.effective_stack() <= 12 * spot.big_blind:
            return "push_short"
        return "raise_limpers" if limps else "open"
    if kind is ActionKind.FOLD:
        return "fold"
    if kind is ActionKind.CHECK:
        return "check"
    if kind is ActionKind.CALL:
        return "call"
    return "raise" if facing else "bet"


def position(spot: Spot) -> str:
    """Where the bot sits: after the flop in or out of position; preflop its place."""
    if spot.street >= 1:
        return "in_position" if spot.in_position() else "out_of_position"
    if spot.n > 2 and spot.distance_from_button(spot.me) == 1:
        return "small_blind"
    if spot.distance_from_button(spot.me) == (2 if spot.n > 2 else 1):
        return "big_blind"
    if spot.distance_from_button(spot.me) == 0:
        return "button"
    behind = spot.behind_preflop(spot.me)
    return "late" if behind <= 3 else "early"


def _behind(spot: Spot) -> int:
    """Opponents still in who act after the bot in this round."""
    order = spot.preflop_order() if spot.street == 0 else spot.postflop_order()
    at = order.index(spot.me)
    return sum(
        1 for s in order[at + 1:]
        if not spot.info(s).folded and not spot.info(s).all_in
    )
