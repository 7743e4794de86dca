"""Groups in the admin: staff see every group and its games, rename an offensive
name and remove a game from a season; each is kept in the moderation log with who and why
(tables.write.groups.moderate_rename, moderate_remove_game)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.admin.bases import GroupAdminBase
from tables.admin.tables import ReasonForm
from tables.models import Group, GroupGame
from tables.models.season import GROUP_NAME_MAX
from tables.write import groups
from tables.write.path import Refused


class GroupRenameForm(ReasonForm):
    name = forms.CharField(label=gettext_lazy("New name"), max_length=GROUP_NAME_MAX)
    field_order = ["name", "reason"]


@admin.register(Group)
class GroupAdmin(GroupAdminBase):
    list_display = ("name", "code", "points", "created_at", "game_count")
    search_fields = ("name", "code", "games__table__code")
    fields = ("name", "code", "points", "hide_computers", "created_at", "game_list")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("Games"))
    def game_count(self, group: Group) -> int:
        return group.games.count()

    @admin.display(description=gettext_lazy("Games"))
    def game_list(self, group: Group) -> str:
        base = f"admin:{Group._meta.app_label}_group"
        rows = [
            (link.table.code, link.table.get_status_display(),
             _("removed") if link.removed else "",
             reverse(f"{base}_remove", args=[group.pk, link.table.pk]),
             _("Remove from the season"))
            for link in group.games.select_related("table").order_by("added_at")
        ]
        items = format_html_join(
            "", "<li>{} ({}) {} <a href=\"{}\">{}</a></li>", rows
        )
        rename = reverse(f"{base}_rename", args=[group.pk])
        return format_html("<ul>{}</ul><p><a href=\"{}\">{}</a></p>", items, rename,
                           _("Rename the group"))

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        base = f"{Group._meta.app_label}_group"
        own = [
            path("<int:group_id>/rename/", wrap(self.rename_view), name=f"{base}_rename"),
            path("<int:group_id>/games/<int:table_id>/remove/", wrap(self.remove_view),
                 name=f"{base}_remove"),
        ]
        return own + super().get_urls()

    def _page(self, request: HttpRequest, group: Group, title: str,
              form: forms.Form) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": title, "group": group, "form": form,
            "change_url": reverse(f"admin:{Group._meta.app_label}_group_change",
                                  args=[group.pk]),
        }
        return TemplateResponse(request, "admin/tables/group/moderate.html", context)

    def _group(self, request: HttpRequest, group_id: int) -> Group:
        group = get_object_or_404(Group, pk=group_id)
        if not self.has_view_permission(request, group) or not request.user.is_staff:
            raise PermissionDenied
        return group

    def _done(self, request: HttpRequest, group: Group, text: str) -> HttpResponse:
        self.message_user(request, text, messages.SUCCESS)
        return HttpResponseRedirect(
            reverse(f"admin:{Group._meta.app_label}_group_change", args=[group.pk])
        )

    def rename_view(self, request: HttpRequest, group_id: int) -> HttpResponse:
        group = self._group(request, group_id)
        form = GroupRenameForm(request.POST if request.method == "POST" else None,
                               initial={"name": group.name})
        if request.method == "POST" and form.is_valid():
            try:
                groups.moderate_rename(group, request.user, form.cleaned_data["name"],
                                       form.cleaned_data["reason"])
            except Refused as exc:
                form.add_error(None, exc.message)
            else:
                return self._done(request, group, _("The group was renamed."))
        return self._page(request, group, _("Rename the group"), form)

    def remove_view(self, request: HttpRequest, group_id: int, table_id: int) -> HttpResponse:
        group = self._group(request, group_id)
        link = get_object_or_404(GroupGame, group=group, table_id=table_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            groups.moderate_remove_game(link, request.user, form.cleaned_data["reason"])
            return self._done(request, group, _("The game no longer counts in the season."))
        return self._page(request, group, _("Remove from the season"), form)
