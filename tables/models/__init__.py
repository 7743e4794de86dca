"""The app's rows, one module per feature; every model is named here so Django finds it and
the rest of the code imports from ``tables.models``.

- ``table``: tables, their seats, the hands they played, seat moves, wrong codes, the moderation
  log, late arrivals' requests;
- ``talk``: table talk's lines, whether talk is on, who is muted;
- ``season``: your games, groups and their statistics, identity moves;
- ``tournament``: a tournament and its entrants;
- ``push``: Web Push subscriptions, the claims they speak for, pages in sight, turns pushed;
- ``game_nights``: a group's game nights and its members' answers;
- ``fields``: the field definitions and constraints several of them share.
"""

from tables.models.game_nights import Answer, GameNight, GameNightAnswer
from tables.models.push import PageInSight, PushClaim, PushedTurn, PushSubscription
from tables.models.season import GameStats, Group, GroupGame, IdentityMove, StatsAtTable
from tables.models.table import (
    MAX_SEATS,
    MIN_RESUME_SECONDS,
    NAME_MAX,
    TURN_SECONDS,
    FailedJoin,
    FormerClaim,
    Hand,
    LateSeats,
    Level,
    ModerationAction,
    Seat,
    SeatMove,
    SeatRequest,
    Table,
    TableQuerySet,
)
from tables.models.talk import CHAT_MAX, ChatMessage, ChatMute, TableTalk
from tables.models.tournament import Entrant, Tournament

__all__ = [
    "CHAT_MAX",
    "MAX_SEATS",
    "MIN_RESUME_SECONDS",
    "NAME_MAX",
    "TURN_SECONDS",
    "Answer",
    "ChatMessage",
    "ChatMute",
    "Entrant",
    "FailedJoin",
    "FormerClaim",
    "GameNight",
    "GameNightAnswer",
    "GameStats",
    "Group",
    "GroupGame",
    "Hand",
    "IdentityMove",
    "LateSeats",
    "Level",
    "ModerationAction",
    "PageInSight",
    "PushClaim",
    "PushSubscription",
    "PushedTurn",
    "Seat",
    "SeatMove",
    "SeatRequest",
    "StatsAtTable",
    "Table",
    "TableQuerySet",
    "TableTalk",
    "Tournament",
]
