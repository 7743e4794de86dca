"""What several models share, each written once: a moment that defaults to now, a SHA-256
digest in hex (a seat claim's, a token's, a phone's), the key of a row a table has at most one
of, fields unique or indexed together, and a switch the host turns off at a table."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

DIGEST_LENGTH = 64  # a SHA-256 digest in hex


def timestamp(**options: Any) -> models.DateTimeField[Any, Any]:
    """When the row's moment happened: now, unless told."""
    return models.DateTimeField(default=timezone.now, **options)


def digest(**options: Any) -> models.CharField[Any, Any]:
    """A SHA-256 digest in hex: what is kept of a claim, a token or a phone's session."""
    return models.CharField(max_length=DIGEST_LENGTH, **options)


def one_per_table(related_name: str = "+") -> models.OneToOneField[Any, Any]:
    """The key of a row that a table has at most one of, deleted with the table."""
    return models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, primary_key=True, related_name=related_name
    )


def unique_together(*names: str, name: str) -> list[models.BaseConstraint]:
    """A model's constraints: the fields ``names`` are unique together (one row for each)."""
    return [models.UniqueConstraint(fields=list(names), name=name)]


def indexed_together(*names: str, name: str) -> list[models.Index]:
    """A model's indexes: one on the fields ``names``, in that order."""
    return [models.Index(fields=list(names), name=name)]


class TableSwitch(models.Model):
    """Something the host may turn off at a table: at most one row a table, and no row is on.
    ``what`` names it in the row's description."""

    what = ""
    off = models.BooleanField(default=False)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.what} {'off' if self.off else 'on'} at {self.pk}"
