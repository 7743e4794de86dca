"""Actions a player takes, the errors a refused action raises, what the seat to act may do, and
the checks of a requested action against it (``action_kind``, ``whole_chips``,
``check_without_amount``, ``check_bet_or_raise``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


class ActionError(ValueError):
    """An action the rules refuse. ``code`` is stable for programs, ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``amount`` is the "to" amount of a bet or raise (R14): the player's total
    for the betting round after the action; other kinds carry no amount."""

    seat: int
    kind: ActionKind
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value}
        if self.amount is not None:
            data["amount"] = self.amount
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        return cls(int(data["seat"]), ActionKind(data["kind"]), data.get("amount"))


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Exactly what ``seat`` may do now; the UI draws its buttons from this and nothing else.

    ``call`` is the number of chips a call adds (0 when checking is possible); ``call_all_in``
    says that calling puts the player all in. ``min_to``/``max_to`` bound a bet or raise ("to"
    amounts) and are ``None`` when the player may not bet or raise. ``all_in_to`` is the
    player's total if they push every chip; an all in is always allowed as a call, and as a bet
    or raise only when betting or raising is allowed.
    """

    seat: int
    can_check: bool
    call: int
    call_all_in: bool
    bet_or_raise: ActionKind | None
    min_to: int | None
    max_to: int | None
    all_in_to: int
    reason: str = ""

    @property
    def can_call(self) -> bool:
        return self.call > 0

    @property
    def can_fold(self) -> bool:
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "fold": True,
            "check": self.can_check,
            "call": self.call,
            "call_all_in": self.call_all_in,
            "bet_or_raise": self.bet_or_raise.value if self.bet_or_raise else None,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "all_in_to": self.all_in_to,
            "reason": self.reason,
        }


# ---------------------------------------------------------------------- checking a request
def action_kind(kind: ActionKind | str) -> ActionKind:
    """``kind`` as an action kind, or refused with the list of actions."""
    if isinstance(kind, ActionKind):
        return kind
    try:
        return ActionKind(kind)
    except ValueError:
        raise ActionError(
            "unknown_action",
            f"{kind!r} is not an action: fold, check, call, bet, raise or all_in.",
        ) from None


def check_without_amount(kind: ActionKind, legal: LegalActions, bet: int) -> None:
    """A fold, check, call or all in by the seat to act, who has put ``bet`` in this round:
    refused when illegal."""
    if kind == ActionKind.CHECK and not legal.can_check:
        raise ActionError("cannot_check", f"You cannot check: it costs {legal.call} to call.")
    if kind == ActionKind.CALL and legal.can_check:
        raise ActionError("nothing_to_call", "There is nothing to call: you can check.")
    if kind == ActionKind.ALL_IN:
        if legal.bet_or_raise is None and legal.all_in_to > bet + legal.call:
            raise ActionError("raise_not_allowed", legal.reason)
        if legal.all_in_to == bet:
            raise ActionError("no_chips", "You have no chips left to put in.")


def check_bet_or_raise(
    seat: int, kind: ActionKind, to: int, legal: LegalActions, current_bet: int
) -> Action:
    """A bet or raise to ``to`` facing ``current_bet``: refused when the other one is due, not
    allowed, or outside the legal sizes."""
    if kind == ActionKind.BET and current_bet > 0:
        raise ActionError(
            "bet_not_allowed", f"There is already a bet of {current_bet}: raise instead."
        )
    if kind == ActionKind.RAISE and current_bet == 0:
        raise ActionError("raise_not_allowed", "There is no bet to raise: bet instead.")
    if legal.bet_or_raise is None or legal.min_to is None or legal.max_to is None:
        raise ActionError("raise_not_allowed", legal.reason)
    if to > legal.max_to:
        raise ActionError(
            "above_stack", f"You can put in at most {legal.max_to} this round (all in)."
        )
    if to < legal.min_to:
        word = "bet" if kind == ActionKind.BET else "raise"
        raise ActionError(
            "below_minimum",
            f"The smallest {word} is to {legal.min_to} (or all in for {legal.all_in_to}).",
        )
    return Action(seat, kind, to)


def whole_chips(amount: object, most: int) -> int:
    """Chips are whole numbers (R3): refuse fractions, negatives, text and absurd amounts (above
    ``most``)."""
    if isinstance(amount, bool) or amount is None:
        raise ActionError("bad_amount", "Say how many chips: a whole number.")
    if isinstance(amount, float):
        if not amount.is_integer():
            raise ActionError("bad_amount", "Chips are whole numbers: no fractions.")
        amount = int(amount)
    if not isinstance(amount, int):
        raise ActionError("bad_amount", "The amount must be a whole number of chips.")
    if amount <= 0:
        raise ActionError("bad_amount", "The amount must be more than zero.")
    if amount > most:
        raise ActionError("bad_amount", "That is more chips than there are at the table.")
    return amount
