"""The rows of your games, groups and statistics; imported by tables.models so Django finds them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models.fields import (
    TableSwitch,
    digest,
    indexed_together,
    one_per_table,
    timestamp,
)

GROUP_NAME_MAX = 40
# Points per place for the standings, chosen when a group starts (or "chips": chips won).
POINTS_CHOICES = (
    ("10-7-5-3-2-1", _("10, 7, 5, 3, 2, 1 points")),
    ("3-2-1", _("3, 2, 1 points (top three)")),
    ("1", _("1 point a win")),
    ("chips", _("Chips won")),
)


class Group(models.Model):
    """The same people's games under one link (``/g/<code>/``), and the rules of its season.
    Whoever holds ``creator_hash`` (a seat claim, tables.claims) runs it."""

    code = models.CharField(max_length=12, unique=True)
    name = models.CharField(max_length=GROUP_NAME_MAX)
    points = models.CharField(max_length=20, choices=POINTS_CHOICES, default="10-7-5-3-2-1")
    creator_hash = digest(db_index=True)
    hide_computers = models.BooleanField(default=False)
    created_at = timestamp()

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def place_points(self) -> list[int] | None:
        """Points for 1st, 2nd...; None when the standings count chips won."""
        if self.points == "chips":
            return None
        return [int(p) for p in self.points.split("-")]


class GroupGame(models.Model):
    """A game (a table) of a group's season; removed games stay listed but do not count."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="group_game"
    )
    removed = models.BooleanField(default=False)
    added_at = timestamp()

    class Meta:
        indexes = indexed_together("group", "added_at", name="group_games_by_time")

    def __str__(self) -> str:
        return f"{self.table_id} in {self.group_id}{' (removed)' if self.removed else ''}"


class GameStats(models.Model):
    """A game's statistics counted from its finished hands (tables.read.statistics), up to and
    including hand ``through``; the next count adds only the hands after it."""

    table = one_per_table("game_stats")
    through = models.PositiveIntegerField(default=0)
    # {"tallies": {seat: Tally}, "pots": [...], "shown": [...], "hands": n}
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"stats of {self.table_id} through hand {self.through}"


class StatsAtTable(TableSwitch):
    """Whether a tap on a seat shows that player's line at a table (the host may turn it off)."""

    what = "stats"
    table = one_per_table("stats_setting")


class IdentityMove(models.Model):
    """A single-use link that copies a phone's games (its seat claims) to another phone. Only
    the token's SHA-256 is kept, and the claims themselves only enciphered with the token,
    which is in the link alone; the row is emptied once used or expired."""

    token_hash = digest(unique=True)
    sealed = models.TextField(blank=True)
    created_at = timestamp()
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"identity move ({'used' if self.used_at else 'unused'})"
