"""The rows of Web Push: a phone's subscriptions, the seat claims each one speaks for, which
table pages of a phone are in sight, and the last turn a table sent a notification for."""

from __future__ import annotations

from django.db import models

from tables.models.fields import digest, one_per_table, timestamp, unique_together


class PushSubscription(models.Model):
    """One browser's push subscription (its push service's address and the keys that encrypt
    for it, RFC 8291), turned on from a phone's page. ``phone`` is ``tables.claims.phone_id``
    of the session that turned it on; "stop" on that phone deletes the row."""

    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    phone = digest(db_index=True)
    language = models.CharField(max_length=10, default="en")
    created_at = timestamp()

    def __str__(self) -> str:
        return f"push subscription {self.pk}"


class PushClaim(models.Model):
    """A seat claim (its hash) whose notifications go to a subscription: the claims the phone
    held when it turned notifications on, and each it took since at a table it opened."""

    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="claims"
    )
    claim_hash = digest(db_index=True)

    class Meta:
        constraints = unique_together("subscription", "claim_hash", name="one_push_claim")

    def __str__(self) -> str:
        return f"claim of push subscription {self.subscription_id}"


class PageInSight(models.Model):
    """How many of a phone's pages of a table are visible right now (each page says so over
    its websocket as it is shown or hidden): "your turn" is pushed only when none is."""

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    phone = digest()
    visible = models.PositiveSmallIntegerField(default=0)
    seen_at = timestamp()

    class Meta:
        constraints = unique_together("table", "phone", name="one_sight_per_phone")

    def __str__(self) -> str:
        return f"{self.visible} pages in sight at {self.table_id}"


class PushedTurn(models.Model):
    """The last turn of a table that a "your turn" notification went out for: never two for
    one turn, however many changes (and server processes) see the same turn."""

    table = one_per_table()
    turn = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"turn {self.turn} at {self.table_id}"
