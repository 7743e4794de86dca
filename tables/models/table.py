"""Tables, their seats, the hands they played, and the bookkeeping around them.

Every change to a table goes through ``tables.write.path.apply_change`` (one locked transaction);
the models here only describe rows and answer questions about them.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.blinds import STARTING_STACK
from engine.game import GameSettings
from engine.timebank import DEFAULT_BANK
from tables.models.fields import digest, one_per_table, timestamp, unique_together

NAME_MAX = 20
MAX_SEATS = 6
TURN_SECONDS = (15, 30, 45, 60, 90)
MIN_RESUME_SECONDS = 5.0  # a person whose turn was paused gets at least this long on resume


class Level(models.TextChoices):
    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")


class TableQuerySet(models.QuerySet["Table"]):
    def open(self) -> TableQuerySet:
        return self.filter(status__in=Table.OPEN)

    def due(self, now: datetime) -> TableQuerySet:
        """Playing tables whose next deadline has passed (the clock fires them)."""
        return self.filter(
            status=Table.Status.PLAYING, paused=False, next_deadline__lte=now
        ).order_by("next_deadline")

    def by_code(self, code: str) -> Table | None:
        """The open table with this code, else the most recent one that had it."""
        tables = self.filter(code=code)
        return tables.open().first() or tables.order_by("-created_at").first()


class Table(models.Model):
    """One game at one table, found by its ``code``: its settings, its status, the engine's
    state of the game (``state``, changed only through ``tables.write.path``) and its clock."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Game over")
        CLOSED = "closed", _("Closed")

    class Mode(models.TextChoices):
        FRIENDS = "friends", _("Play with friends")
        COMPUTER = "computer", _("Play against the computer")
        LOCAL = "local", _("Pass and play")

    class Deadline(models.TextChoices):
        NONE = "", _("Nothing pending")
        BOT = "bot", _("A computer player acts")
        TURN = "turn", _("A person runs out of time")
        AWAY = "away", _("An away player acts")
        NEXT_HAND = "next_hand", _("The next hand is dealt")

    OPEN = (Status.WAITING, Status.PLAYING)

    code = models.CharField(max_length=8, db_index=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.FRIENDS)
    # Game settings (R1, R10, R32, P1).
    seat_count = models.PositiveSmallIntegerField(default=6)
    max_hands = models.PositiveSmallIntegerField(null=True, blank=True)  # None: until one has all
    blind_every = models.PositiveSmallIntegerField(default=10)
    computer_level = models.CharField(max_length=6, choices=Level.choices, default=Level.MEDIUM)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    # P4: each person's time bank at the start of the game, in seconds (0: none).
    time_bank = models.PositiveSmallIntegerField(default=DEFAULT_BANK)
    # P5: whoever was dealt into a hand that ended before the river may ask to see what would
    # have come (the host may turn it off); ``rest_of_board_hand``: the hand whose rest is shown
    # (only while it is the last hand dealt: the next deal hides it).
    rest_of_board = models.BooleanField(default=True)
    rest_of_board_hand = models.PositiveIntegerField(null=True, blank=True)

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    host_position = models.PositiveSmallIntegerField(null=True, blank=True)
    # engine.game.Game.to_dict(): holds the running hand's deck, so it never leaves the server.
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    # The ids of the last actions applied here, newest last (tables.write.play.act: a double tap
    # is applied once). Written with the rest of the row: no statement of its own.
    recent_actions = models.JSONField(default=list, blank=True)
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_kind = models.CharField(
        max_length=10, choices=Deadline.choices, default=Deadline.NONE, blank=True
    )
    paused = models.BooleanField(default=False, help_text=_("A moderator stopped the clock."))
    # A learning table: a tap on a computer player's last action tells why it took
    # it. Always on against the computer; the host of a friends table may turn it on.
    learning = models.BooleanField(default=False)
    # At a learning table, the public reasons of the computer players' actions in the hand
    # being played (tables.write.reasons): nothing hidden, so the row may be told as it is.
    bot_reasons = models.JSONField(default=list, blank=True)
    closed_reason = models.CharField(max_length=200, blank=True)
    next_table = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A table of a tournament: its tournament and its number there (1, 2, ...).
    tournament = models.ForeignKey(
        "tables.Tournament", null=True, blank=True, on_delete=models.CASCADE,
        related_name="tables",
    )
    tournament_number = models.PositiveSmallIntegerField(null=True, blank=True)

    created_at = timestamp()
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = TableQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["code"],
                condition=Q(status__in=["waiting", "playing"]),
                name="unique_code_among_open_tables",
            ),
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=MAX_SEATS),
                name="two_to_six_seats",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.get_status_display()})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    def game_settings(self) -> GameSettings:
        return GameSettings(blind_every=self.blind_every, max_hands=self.max_hands)

    def last_pause(self) -> ModerationAction | None:
        """The pause that stopped this table's clock: a moderator's or the host's."""
        return (
            ModerationAction.objects.filter(
                table=self, action__in=(ModerationAction.PAUSE, ModerationAction.HOST_PAUSE)
            )
            .order_by("-at", "-id").first()
        )

    def paused_by(self) -> str | None:
        """The host's name when the host paused this table (None: a moderator did, or nobody)."""
        pause = self.last_pause()
        if pause is None or pause.action != ModerationAction.HOST_PAUSE:
            return None
        return str((pause.detail or {}).get("host") or "") or None

    def seconds_left_on_resume(self) -> float:
        """How long the pending deadline of this paused table will run once the clock is
        resumed (what the phones show, frozen, while it is paused): the time it had left when
        it was paused, kept in the moderation log, and at least ``MIN_RESUME_SECONDS`` for a
        person's turn."""
        paused = self.last_pause()
        left = paused.detail.get("remaining") if paused else None
        if left is None:
            return MIN_RESUME_SECONDS
        if self.deadline_kind != Table.Deadline.TURN:
            return float(left)  # computer moves and deals need no grace period
        return max(float(left), MIN_RESUME_SECONDS)

    def chip_total(self) -> int:
        """Every chip at the table once the game has started (R3): never changes."""
        players = len(self.state["seats"]) if self.state else 0
        return players * STARTING_STACK


class Seat(models.Model):
    """A place at a table, held by a person (claimed by a browser session) or a computer."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX)
    is_computer = models.BooleanField(default=False)
    level = models.CharField(max_length=6, choices=Level.choices, blank=True)
    # SHA-256 of a secret kept in the player's session (tables.claims); empty for computers.
    claim_hash = digest(blank=True, db_index=True)
    joined_at = timestamp()
    last_seen = models.DateTimeField(null=True, blank=True)
    away = models.BooleanField(default=False)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # The first hand whose cards the present claim may see at this seat (0: every hand). A
    # seat that changes hands (moved to another phone, taken over from a computer, handed on at
    # a tournament) starts a new window: the new holder never sees the hands before it.
    first_hand = models.PositiveIntegerField(default=0)
    # Open table pages of this seat's phones (tables.live.consumer), with ``last_seen``: a
    # seat may be moved by the host only once its own phone is gone (tables.write.seat_moves).
    connections = models.PositiveSmallIntegerField(default=0)
    # P4: the seconds of the table's time bank this seat has used (net of the top-ups).
    bank_used = models.PositiveSmallIntegerField(default=0)
    # A person out of chips asked to be told when the next game starts (tables.write.out).
    tell_next_game = models.BooleanField(default=False)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.CheckConstraint(condition=Q(position__lt=MAX_SEATS), name="position_0_to_5"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position})"

    @property
    def is_person(self) -> bool:
        return not self.is_computer


class FormerClaim(models.Model):
    """A seat's claim from before the seat changed hands (the person left, a moderator removed
    them, the seat moved to another phone) or a review-only copy of a claim taken to another
    phone: whoever holds it may still review the hands played there, through that seat's eyes,
    from ``first_hand`` to ``last_hand`` (the hand running or last dealt as they left)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="former_claims")
    position = models.PositiveSmallIntegerField()
    claim_hash = digest(db_index=True)
    name = models.CharField(max_length=NAME_MAX)
    first_hand = models.PositiveIntegerField(default=0)
    last_hand = models.PositiveIntegerField(default=0)
    left_at = timestamp()

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position}, left after hand {self.last_hand})"


class Hand(models.Model):
    """One hand of a table: a stable global id (the primary key), its number at the table, and
    the engine's full record (deck and actions: server-side only, views filter it)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    started_at = timestamp()
    ended_at = models.DateTimeField(null=True, blank=True)
    # engine.history.hand_record(): settings (seats, stacks, button, blinds), deck, actions.
    record = models.JSONField()
    # [{"seat", "name", "stack", "is_computer"}] for every player dealt in, at the hand's start.
    players = models.JSONField(default=list)
    # Seat -> chips after the hand (None while it runs).
    final_stacks = models.JSONField(null=True, blank=True)
    # Called off by a moderator: every chip went back to where it was at the start.
    cancelled = models.BooleanField(default=False)
    # The deck commitment's root (hex) every phone was shown before the first card was dealt
    # (engine.proof; tables.pages.proofs serves the proof); "" for hands dealt without one.
    deck_root = models.CharField(max_length=64, blank=True)
    # The public reasons of the computer players' actions (tables.write.reasons), by action:
    # [] for hands played before reasons were kept or away from a learning table; never replayed.
    reasons = models.JSONField(default=list, blank=True)
    # P5: what would have come, once someone dealt in asked: {"cards": [...], "by": name}; a
    # note beside the hand that changes no result ({}: nobody asked).
    rest_of_board = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = unique_together("table", "number", name="one_row_per_hand_number")

    def __str__(self) -> str:
        return f"hand #{self.pk} ({self.table.code} no. {self.number})"

    @property
    def finished(self) -> bool:
        return self.ended_at is not None


class SeatMove(models.Model):
    """A single-use link that moves a person's seat to another phone (tables.write.seat_moves): only
    the token's SHA-256 is kept; the link works once, within five minutes, and only while the
    seat is still held by the claim it was made for."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_moves")
    position = models.PositiveSmallIntegerField()
    token_hash = digest(unique=True)
    claim_hash = digest()  # the seat's claim when the link was made
    by_host = models.BooleanField(default=False)  # made by the host for someone else's seat
    created_at = timestamp()
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"move of seat {self.position} ({'used' if self.used_at else 'unused'})"


class FailedJoin(models.Model):
    """A join attempt with a code that matches no table (see tables.ratelimit)."""

    client = digest(db_index=True)  # hash of IP or session key
    at = timestamp(db_index=True)

    def __str__(self) -> str:
        return f"failed join at {self.at:%H:%M:%S}"


class ModerationAction(models.Model):
    """Who did what to which table, when and why (the admin issue records every action here)."""

    # The actions, as ``action`` holds them (written by tables.write: moderation, host, talk,
    # groups, seat_moves, tournament_control; read by the admin's log).
    CLOSE = "close"
    PAUSE = "pause"  # its ``detail["remaining"]``: the seconds the deadline had left
    RESUME = "resume"
    REMOVE = "remove_person"
    RENAME = "rename"
    HOST_PAUSE = "host_pause"  # the host paused the game (tables.write.host); the same detail
    HOST_RESUME = "host_resume"
    RENAME_GROUP = "rename_group"  # tables.write.groups.moderate_rename
    REMOVE_GROUP_GAME = "remove_group_game"
    HOST_MOVE = "seat_moved_by_host"  # the host moved a gone phone's seat (write.seat_moves)
    CHAT_DELETE = "chat_delete"
    CHAT_MUTE = "chat_mute"
    LABELS = {
        CLOSE: _("Closed the table"),
        PAUSE: _("Paused the clock"),
        RESUME: _("Resumed the clock"),
        REMOVE: _("Removed a person from a seat"),
        RENAME: _("Renamed a player"),
        HOST_PAUSE: _("The host paused the game"),
        HOST_RESUME: _("The host resumed the game"),
        RENAME_GROUP: _("Renamed a group"),
        REMOVE_GROUP_GAME: _("Removed a game from a group's season"),
        HOST_MOVE: _("The host moved a seat to another phone"),
        CHAT_DELETE: _("Deleted a chat message"),
        CHAT_MUTE: _("Muted a person's chat at the table"),
    }

    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation"
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = timestamp()
    action = models.CharField(max_length=40)
    reason = models.TextField(blank=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.action} at {self.at:%Y-%m-%d %H:%M}"

    def described(self) -> str:
        """The admin log's words for this action: its label and what it was done to."""
        label = str(self.LABELS.get(self.action, self.action))
        detail = self.detail or {}
        if self.action == self.RENAME:
            return f"{label}: {detail.get('old')} → {detail.get('new')} (seat {detail.get('seat')})"
        if self.action == self.CHAT_DELETE:
            return f"{label}: {detail.get('name')}: “{detail.get('text')}”"
        if self.action in (self.REMOVE, self.HOST_MOVE, self.CHAT_MUTE):
            return f"{label}: {detail.get('name')} (seat {detail.get('seat')})"
        if self.action == self.CLOSE and detail.get("cancelled_hand"):
            return gettext("%(label)s (hand %(n)s cancelled)") % {
                "label": label, "n": detail["cancelled_hand"],
            }
        return label


# ---------------------------------------------------------------------------------- late arrivals
class SeatRequest(models.Model):
    """A friend who arrived after the start asks for a computer player's seat (write.late)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the host")
        APPROVED = "approved", _("Sits down at the next hand")
        REFUSED = "refused", _("Refused by the host")
        SEATED = "seated", _("Seated")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    name = models.CharField(max_length=NAME_MAX)
    claim_hash = digest(db_index=True)  # the seat's claim once seated
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    at = timestamp()
    position = models.PositiveSmallIntegerField(null=True, blank=True)  # the seat taken
    took_over = models.CharField(max_length=NAME_MAX, blank=True)  # the computer's name
    first_hand = models.PositiveIntegerField(null=True, blank=True)  # the first hand played

    class Meta:
        ordering = ["table", "at", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class LateSeats(models.Model):
    """The host's standing answer for a game: anyone may take a computer's seat."""

    table = one_per_table("late_seats")
    open = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"late seats {'open' if self.open else 'by request'} at {self.table_id}"
