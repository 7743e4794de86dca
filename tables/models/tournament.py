"""A tournament's rows: the tournament and its entrants. Its tables are ``Table`` rows with
``tournament`` set and a ``tournament_number`` (1, 2, ...).

Levels: ``level_minutes`` is the default (10 minutes a level): a tournament's tables play at
different speeds, and a level by time rises at the same moment at every table, so the blinds
stay shared (README T8). ``level_hands`` instead counts the hands dealt at the tournament's
busiest table.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine.timebank import DEFAULT_BANK
from tables.models.fields import digest, timestamp

NAME_MAX = 20


class Tournament(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    code = models.CharField(max_length=8, db_index=True)
    host_name = models.CharField(max_length=NAME_MAX, blank=True)
    host_claim = digest(blank=True)  # SHA-256 of the host's claim
    entrants_wanted = models.PositiveSmallIntegerField(default=12)  # 7..36, computers fill up
    computer_fill = models.BooleanField(default=True)
    level_minutes = models.PositiveSmallIntegerField(null=True, blank=True, default=10)
    level_hands = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    time_bank = models.PositiveSmallIntegerField(default=DEFAULT_BANK)  # P4: every entrant's
    computer_level = models.CharField(max_length=6, default="medium")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    paused = models.BooleanField(default=False)
    # A pause stops the minutes of a level (tables.write.tournament_control): since when, and the
    # seconds of the pauses before.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=0)  # index into engine.blinds.BLIND_LEVELS
    level_started_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    created_at = timestamp()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(entrants_wanted__gte=7, entrants_wanted__lte=36),
                name="tournament_7_to_36_entrants",
            ),
        ]

    def __str__(self) -> str:
        return f"tournament {self.code} ({self.status})"


class Entrant(models.Model):
    """One player of a tournament: a person (``claim_hash``) or a computer; ``place`` once
    out (or at the end), ``bust_hand`` the table and hand they went out in."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=NAME_MAX)
    is_computer = models.BooleanField(default=False)
    claim_hash = digest(blank=True, db_index=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_table = models.PositiveSmallIntegerField(null=True, blank=True)
    bust_hand = models.PositiveIntegerField(null=True, blank=True)
    started_last_hand_with = models.PositiveIntegerField(default=0)
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = timestamp()

    class Meta:
        ordering = ["tournament", "joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} (place {self.place})" if self.place else self.name
