"""The tables in the admin: search, filters, and the moderation actions with their forms
(close, pause, resume, remove a person, rename, and table talk's delete and mute)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables.admin.bases import (
    ChatInlineBase,
    LogInlineBase,
    ReadOnlyInline,
    SeatInlineBase,
    TableAdminBase,
)
from tables.models import NAME_MAX, ChatMessage, Hand, ModerationAction, Seat, Table
from tables.write import moderation, talk
from tables.write.path import Refused


def close_table(table_id: int, moderator: Any, reason: str = "") -> ModerationAction:
    """Staff close a table; at a tournament's table its players then go on at the other
    tables, or the tournament ends when no table is left open (README T9)."""
    from tables.write.tournament_between_hands import after_close

    done = moderation.close_table(table_id, moderator, reason)
    tournament_id = (
        Table.objects.filter(pk=table_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is not None:
        after_close(tournament_id)
    return done


CLOSE_HELP = gettext_lazy(
    "Closing ends the game at once and every phone at the table shows that a moderator closed "
    "it. A hand in progress is cancelled: every chip goes back to where it was when the hand "
    "began, so a moderator's action never decides who wins a pot."
)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Why"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=1000,
        help_text=gettext_lazy("Kept in the moderation log with your name and the time."),
    )


class RenameForm(ReasonForm):
    name = forms.CharField(label=gettext_lazy("New name"), max_length=NAME_MAX)
    field_order = ["name", "reason"]


class SeatInline(ReadOnlyInline, SeatInlineBase):
    model = Seat
    fields = ("position", "name", "kind", "away", "last_seen", "moderate")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("Player"))
    def kind(self, seat: Seat) -> str:
        if seat.is_computer:
            return _("Computer (%(level)s)") % {"level": seat.get_level_display()}
        return _("Person")

    @admin.display(description=gettext_lazy("Moderate"))
    def moderate(self, seat: Seat) -> str:
        base = f"admin:{Table._meta.app_label}_table"
        links = [(reverse(f"{base}_rename", args=[seat.table_id, seat.position]), _("Rename"))]
        table_open = seat.table.status in (Table.Status.WAITING, Table.Status.PLAYING)
        if seat.is_person and table_open:
            links.append(
                (reverse(f"{base}_remove", args=[seat.table_id, seat.position]),
                 _("Remove from the seat"))
            )
        return format_html_join(" · ", '<a href="{}">{}</a>', links)


class ModerationInline(ReadOnlyInline, LogInlineBase):
    model = ModerationAction
    fields = ("at", "moderator", "what", "reason")
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("Moderation log")

    @admin.display(description=gettext_lazy("What"))
    def what(self, action: ModerationAction) -> str:
        return action.described()


class ChatInline(ReadOnlyInline, ChatInlineBase):
    """The table's talk, newest first, each line with what staff can do about it."""

    model = ChatMessage
    fields = ("at", "position", "name", "said", "deleted", "moderate")
    readonly_fields = fields
    ordering = ("-at", "-id")
    verbose_name_plural = gettext_lazy("Table talk")

    @admin.display(description=gettext_lazy("Said"))
    def said(self, message: ChatMessage) -> str:
        if message.reaction:
            emoji, label = talk.REACTIONS.get(message.reaction, ("", message.reaction))
            return f"{emoji} {label}"
        return message.text  # escaped by the admin's template

    @admin.display(description=gettext_lazy("Moderate"))
    def moderate(self, message: ChatMessage) -> str:
        base = f"admin:{Table._meta.app_label}_table"
        links = []
        if not message.deleted:
            links.append((reverse(f"{base}_chat_delete", args=[message.table_id, message.pk]),
                           _("Delete")))
        links.append((reverse(f"{base}_chat_mute", args=[message.table_id, message.position]),
                      _("Mute this person at the table")))
        return format_html_join(" · ", '<a href="{}">{}</a>', links)


@admin.register(Table)
class TableAdmin(TableAdminBase):
    list_display = (
        "code", "status", "players", "hands_played", "created_at", "last_activity", "clock",
    )
    list_filter = ("status", "mode", "paused")
    search_fields = ("code", "seats__name")
    ordering = ("-updated_at",)
    list_per_page = 50
    # ``state`` is left out everywhere: it holds the running hand's deck.
    fields = (
        "code", "mode", "status", "closed_reason", "paused", "seat_count", "max_hands",
        "blind_every", "computer_level", "turn_seconds", "version", "deadline_kind",
        "next_deadline", "created_at", "started_at", "finished_at", "updated_at",
        "hands_link",
    )
    readonly_fields = fields
    inlines = (SeatInline, ChatInline, ModerationInline)
    actions = ("close_tables", "pause_clocks", "resume_clocks")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        played = Count(
            "hands", filter=Q(hands__ended_at__isnull=False, hands__cancelled=False),
            distinct=True,
        )
        tables: QuerySet[Table] = super().get_queryset(request)
        return tables.annotate(hands_count=played).prefetch_related("seats")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players create tables

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # deleting would bypass the write path and lose the hand histories

    @admin.display(description=gettext_lazy("Players"))
    def players(self, table: Table) -> str:
        names = [s.name for s in table.seats.all() if s.is_person]
        computers = sum(1 for s in table.seats.all() if s.is_computer)
        text = ", ".join(names) or "—"
        if computers:
            text += " " + _("+ %(n)d computer") % {"n": computers}
        return text

    @admin.display(description=gettext_lazy("Hands played"), ordering="hands_count")
    def hands_played(self, table: Table) -> int:
        return int(getattr(table, "hands_count", 0))

    @admin.display(description=gettext_lazy("Last activity"), ordering="updated_at")
    def last_activity(self, table: Table) -> Any:
        return table.updated_at

    @admin.display(description=gettext_lazy("Clock"), boolean=False)
    def clock(self, table: Table) -> str:
        return _("paused") if table.paused else ""

    @admin.display(description=gettext_lazy("Hands"))
    def hands_link(self, table: Table) -> str:
        url = reverse(f"admin:{Hand._meta.app_label}_hand_changelist")
        url += f"?table__id__exact={table.pk}"
        return format_html('<a href="{}">{}</a>', url, _("Every hand of this table"))

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        table = self.get_object(request, object_id)
        context = {
            **(extra_context or {}),
            "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False,
            "close_help": CLOSE_HELP,
            "moderation_links": self._table_links(table) if table is not None else [],
        }
        return super().change_view(request, object_id, form_url, context)

    def _table_links(self, table: Table) -> list[tuple[str, str]]:
        base = f"admin:{Table._meta.app_label}_table"
        links = []
        if table.status != Table.Status.CLOSED:
            links.append((reverse(f"{base}_close", args=[table.pk]), _("Close the table")))
        if table.status == Table.Status.PLAYING and not table.paused:
            links.append((reverse(f"{base}_pause", args=[table.pk]), _("Pause the clock")))
        if table.paused:
            links.append((reverse(f"{base}_resume", args=[table.pk]), _("Resume the clock")))
        return links

    # ------------------------------------------------------------------ moderation views
    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        base = f"{Table._meta.app_label}_table"
        own = [
            path("<int:table_id>/close/", wrap(self.close_view), name=f"{base}_close"),
            path("<int:table_id>/pause/", wrap(self.pause_view), name=f"{base}_pause"),
            path("<int:table_id>/resume/", wrap(self.resume_view), name=f"{base}_resume"),
            path("<int:table_id>/seats/<int:position>/remove/", wrap(self.remove_view),
                 name=f"{base}_remove"),
            path("<int:table_id>/seats/<int:position>/rename/", wrap(self.rename_view),
                 name=f"{base}_rename"),
            path("<int:table_id>/chat/<int:message_id>/delete/", wrap(self.chat_delete_view),
                 name=f"{base}_chat_delete"),
            path("<int:table_id>/chat/mute/<int:position>/", wrap(self.chat_mute_view),
                 name=f"{base}_chat_mute"),
        ]
        return own + super().get_urls()

    def _moderated(self, request: HttpRequest, table_id: int) -> Table:
        table = get_object_or_404(Table, pk=table_id)
        if not self.has_change_permission(request, table):
            raise PermissionDenied
        return table

    def _form_page(
        self, request: HttpRequest, table: Table, title: str, form: forms.Form,
        help_text: str = "", seat: Seat | None = None,
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            "table": table,
            "seat": seat,
            "form": form,
            "help_text": help_text,
            "change_url": reverse(f"admin:{Table._meta.app_label}_table_change", args=[table.pk]),
        }
        return TemplateResponse(request, "admin/tables/table/moderate.html", context)

    def _run(
        self, request: HttpRequest, table: Table, form: forms.Form, act: Any, done: str,
    ) -> HttpResponse | None:
        """Apply a submitted form's action; None when the form must be shown again."""
        if request.method != "POST" or not form.is_valid():
            return None
        try:
            act(form.cleaned_data)
        except Refused as exc:
            form.add_error(None, exc.message)
            return None
        self.message_user(request, done, messages.SUCCESS)
        return HttpResponseRedirect(
            reverse(f"admin:{Table._meta.app_label}_table_change", args=[table.pk])
        )

    def _reason_view(
        self, request: HttpRequest, table_id: int, title: str, done: str, help_text: str,
        do: Any,
    ) -> HttpResponse:
        table = self._moderated(request, table_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        answer = self._run(
            request, table, form, lambda data: do(table.pk, request.user, data["reason"]), done
        )
        return answer or self._form_page(request, table, title, form, help_text)

    def close_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        return self._reason_view(
            request, table_id, _("Close the table"), _("The table was closed."),
            str(CLOSE_HELP), close_table,
        )

    def pause_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        return self._reason_view(
            request, table_id, _("Pause the clock"), _("The clock is paused."),
            _("Nobody runs out of time, no computer player moves and no hand is dealt until "
              "the clock is resumed. Players may still act."),
            moderation.pause_clock,
        )

    def resume_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        return self._reason_view(
            request, table_id, _("Resume the clock"), _("The clock runs again."),
            _("The player to act gets back the time they had left (at least a few seconds)."),
            moderation.resume_clock,
        )

    def remove_view(self, request: HttpRequest, table_id: int, position: int) -> HttpResponse:
        return self._on_seat(
            request, table_id, position, ReasonForm,
            lambda table, data: moderation.remove_person(table.pk, position, request.user,
                                                         data["reason"]),
            _("%(name)s was removed from the seat."), _("Remove %(name)s from the seat"),
            _(
                "During a game a computer player of the table's level takes the seat and its "
                "chips; in the lobby the seat is freed. When nobody is left, the table closes."
            ),
        )

    def rename_view(self, request: HttpRequest, table_id: int, position: int) -> HttpResponse:
        return self._on_seat(
            request, table_id, position, RenameForm,
            lambda table, data: moderation.rename_player(
                table.pk, position, data["name"], request.user, data["reason"]
            ),
            _("The player was renamed."), _("Rename %(name)s"),
            _("The new name shows at the table at once and in the table's histories."),
        )

    def _on_seat(
        self, request: HttpRequest, table_id: int, position: int, form_class: type[forms.Form],
        act: Callable[[Table, dict[str, Any]], object], done: str, title: str, help_text: str,
    ) -> HttpResponse:
        """A moderation action on one seat: its form, and on a valid post the action (``done``
        and ``title`` name the seat's player as ``%(name)s``)."""
        table = self._moderated(request, table_id)
        seat = get_object_or_404(Seat, table=table, position=position)
        form = form_class(request.POST if request.method == "POST" else None)
        answer = self._run(
            request, table, form, lambda data: act(table, data), done % {"name": seat.name}
        )
        return answer or self._form_page(
            request, table, title % {"name": seat.name}, form, help_text, seat,
        )

    def chat_delete_view(
        self, request: HttpRequest, table_id: int, message_id: int
    ) -> HttpResponse:
        table = self._moderated(request, table_id)
        message = get_object_or_404(ChatMessage, table=table, pk=message_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        answer = self._run(
            request, table, form,
            lambda data: talk.delete_message(message.pk, request.user, data["reason"]),
            _("The message was deleted."),
        )
        help_text = _(
            "The message disappears from every phone at the table at once. It stays in the "
            "moderation log with your reason."
        )
        title = _("Delete %(name)s's message: “%(text)s”") % {
            "name": message.name, "text": message.text or message.reaction,
        }
        return answer or self._form_page(request, table, title, form, help_text)

    def chat_mute_view(self, request: HttpRequest, table_id: int, position: int) -> HttpResponse:
        return self._on_seat(
            request, table_id, position, ReasonForm,
            lambda table, data: talk.mute_person(table.pk, position, request.user, data["reason"]),
            _("%(name)s can no longer talk at this table."), _("Mute %(name)s at this table"),
            _(
                "Whatever this person sends to the table's talk is refused from now on; they "
                "can still play."
            ),
        )

    # ------------------------------------------------------------------ bulk actions
    def _bulk(
        self, request: HttpRequest, queryset: QuerySet[Table], title: str, help_text: str,
        do: Any, action: str,
    ) -> HttpResponse | None:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            done = refused = 0
            for table in queryset:
                try:
                    do(table.pk, request.user, form.cleaned_data["reason"])
                    done += 1
                except Refused as exc:
                    refused += 1
                    self.message_user(request, f"{table.code}: {exc.message}", messages.WARNING)
            self.message_user(
                request, _("%(done)d done, %(refused)d refused.") % {
                    "done": done, "refused": refused,
                },
                messages.SUCCESS if done else messages.WARNING,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            "tables": queryset,
            "form": form,
            "help_text": help_text,
            "action": action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tables/table/moderate_many.html", context)

    @admin.action(description=gettext_lazy("Close the selected tables"),
                  permissions=["change"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> Any:
        return self._bulk(request, queryset, _("Close tables"), str(CLOSE_HELP),
                          close_table, "close_tables")

    @admin.action(description=gettext_lazy("Pause the clock of the selected tables"),
                  permissions=["change"])
    def pause_clocks(self, request: HttpRequest, queryset: QuerySet[Table]) -> Any:
        return self._bulk(request, queryset, _("Pause clocks"), "", moderation.pause_clock,
                          "pause_clocks")

    @admin.action(description=gettext_lazy("Resume the clock of the selected tables"),
                  permissions=["change"])
    def resume_clocks(self, request: HttpRequest, queryset: QuerySet[Table]) -> Any:
        return self._bulk(request, queryset, _("Resume clocks"), "", moderation.resume_clock,
                          "resume_clocks")
