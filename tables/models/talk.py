"""Table talk's rows: the lines said at a table, whether talk is on there, and who is muted.

Chat lives beside the table, never in it: no lock, no version, no redraw (tables.write.talk).
"""

from __future__ import annotations

from django.db import models

from tables.models.fields import (
    TableSwitch,
    digest,
    indexed_together,
    one_per_table,
    timestamp,
)
from tables.models.table import NAME_MAX, Table

CHAT_MAX = 200


class ChatMessage(models.Model):
    """A line of table talk or a quick reaction, as the sender typed or picked it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX)  # the sender's name when they said it
    text = models.CharField(max_length=CHAT_MAX, blank=True)
    reaction = models.CharField(max_length=20, blank=True)  # tables.write.talk.REACTIONS
    # A line of the table's log instead (the host paused, a friend took a seat...): its kind
    # (tables.write.talk.EVENTS) and the names it mentions, said in each phone's language.
    event = models.CharField(max_length=20, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    at = timestamp()
    # Deleted by a moderator: kept for the log, never shown to a phone again.
    deleted = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "at", "id"]
        indexes = indexed_together("table", "at", name="chat_by_table_time")

    def __str__(self) -> str:
        return f"{self.name}: {self.text or self.reaction}"


class TableTalk(TableSwitch):
    """Whether table talk is on at a table (the host may turn it off), and who said so."""

    what = "talk"
    table = one_per_table("talk")
    by = models.CharField(max_length=NAME_MAX, blank=True)
    at = timestamp()


class ChatMute(models.Model):
    """A person a moderator muted at a table: what they send is refused there."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_mutes")
    position = models.PositiveSmallIntegerField()
    claim_hash = digest(blank=True)
    name = models.CharField(max_length=NAME_MAX)
    at = timestamp()

    def __str__(self) -> str:
        return f"{self.name} muted at {self.table_id}"
