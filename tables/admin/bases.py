"""The admin's base classes, typed by model for mypy (django-stubs makes them generic) and the
plain Django classes at run time: one place instead of a ``TYPE_CHECKING`` block per module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

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
