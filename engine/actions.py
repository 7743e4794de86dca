"""Actions a player takes, the errors a refused action raises, and what the seat to act may do."""

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
