"""The moderation log in the admin: read-only and complete (who, when, what, why)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from tables.admin.bases import LogAdminBase
from tables.models import ModerationAction


@admin.register(ModerationAction)
class ModerationActionAdmin(LogAdminBase):
    list_display = ("at", "moderator", "table", "what", "reason")
    list_filter = ("action",)
    search_fields = ("table__code", "reason", "moderator__username")
    list_select_related = ("table", "moderator")
    fields = ("at", "moderator", "table", "what", "reason", "detail")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # written by the moderation actions only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log stays complete

    @admin.display(description=gettext_lazy("What"))
    def what(self, action: ModerationAction) -> str:
        return action.described()
