"""The rows of a group's game nights: the next game proposed (day, time, a note), who answered
in, maybe or out, and the table opened for it."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models.fields import digest, indexed_together, timestamp, unique_together

NOTE_MAX = 140


class GameNight(models.Model):
    """A game a member proposed for a group; ``table`` once someone opened it."""

    group = models.ForeignKey("tables.Group", on_delete=models.CASCADE, related_name="nights")
    starts_at = models.DateTimeField()
    zone = models.CharField(max_length=64, default="UTC")  # the proposer's: how it is shown
    note = models.CharField(max_length=NOTE_MAX, blank=True)
    proposer_hash = digest()
    proposer_name = models.CharField(max_length=20)
    table = models.ForeignKey(
        "tables.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    opened_at = models.DateTimeField(null=True, blank=True)
    created_at = timestamp()

    class Meta:
        indexes = indexed_together("group", "starts_at", name="nights_by_time")

    def __str__(self) -> str:
        return f"game night of {self.group_id} at {self.starts_at:%Y-%m-%d %H:%M}"


class Answer(models.TextChoices):
    IN = "in", _("In")
    MAYBE = "maybe", _("Maybe")
    OUT = "out", _("Out")


class GameNightAnswer(models.Model):
    """A member's answer (by their seat claim in the group's games, named as they play)."""

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="answers")
    claim_hash = digest()
    name = models.CharField(max_length=20)
    answer = models.CharField(max_length=5, choices=Answer.choices)
    answered_at = timestamp()

    class Meta:
        constraints = unique_together("night", "claim_hash", name="one_answer_a_member")

    def __str__(self) -> str:
        return f"{self.name}: {self.answer}"
