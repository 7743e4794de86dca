"""The admin's base classes, typed by model for mypy (django-stubs makes them generic) and the
plain Django classes at run time: one place instead of a ``TYPE_CHECKING`` block per module;
and ``ReadOnlyInline``, what every inline of a table's page shares (rows shown, none added or
deleted there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

if TYPE_CHECKING:
    from tables.models import ChatMessage, Group, Hand, ModerationAction, Seat, Table

    GroupAdminBase = admin.ModelAdmin[Group]
    HandAdminBase = admin.ModelAdmin[Hand]
    LogAdminBase = admin.ModelAdmin[ModerationAction]
    TableAdminBase = admin.ModelAdmin[Table]
    SeatInlineBase = admin.TabularInline[Seat, Table]
    LogInlineBase = admin.TabularInline[ModerationAction, Table]
    ChatInlineBase = admin.TabularInline[ChatMessage, Table]
else:
    GroupAdminBase = HandAdminBase = LogAdminBase = TableAdminBase = admin.ModelAdmin
    SeatInlineBase = LogInlineBase = ChatInlineBase = admin.TabularInline


class ReadOnlyInline:
    """Mixed in before an inline's base: its rows are shown, none is added or deleted there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
