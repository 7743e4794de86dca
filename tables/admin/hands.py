"""Hands in the admin: a finished hand in full (every hole card) as PokerStars text; a hand in
progress only as a spectator sees it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.export import SPECTATOR, HandMeta, pokerstars_hand
from engine.history import replay
from engine.views import visible_events
from tables.admin.bases import HandAdminBase
from tables.draw.describe import describe
from tables.models import Hand


@admin.register(Hand)
class HandAdmin(HandAdminBase):
    list_display = ("hand_id", "table_code", "number", "started_at", "ended_at", "state")
    list_filter = ("cancelled", ("ended_at", admin.EmptyFieldListFilter))
    search_fields = ("table__code", "=id")
    list_select_related = ("table",)
    ordering = ("-started_at",)
    # ``record`` is never shown raw: it holds the deck.
    fields = ("table", "number", "started_at", "ended_at", "cancelled", "seated", "history")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        context = {
            **(extra_context or {}),
            "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False,
        }
        return super().change_view(request, object_id, form_url, context)

    @admin.display(description=gettext_lazy("Hand"), ordering="id")
    def hand_id(self, hand: Hand) -> str:
        return f"#{hand.pk}"

    @admin.display(description=gettext_lazy("Table"), ordering="table__code")
    def table_code(self, hand: Hand) -> str:
        return hand.table.code

    @admin.display(description=gettext_lazy("State"))
    def state(self, hand: Hand) -> str:
        if hand.cancelled:
            return _("cancelled")
        return _("finished") if hand.finished else _("in progress")

    @admin.display(description=gettext_lazy("Players at the start"))
    def seated(self, hand: Hand) -> str:
        return format_html_join(
            ", ", "{} ({})", ((p.get("name"), p.get("stack")) for p in hand.players)
        )

    @admin.display(description=gettext_lazy("History"))
    def history(self, hand: Hand) -> str:
        """Finished: the complete record. Otherwise only what a spectator saw (no hole card)."""
        names = {int(p["seat"]): str(p["name"]) for p in hand.players}
        played = replay(hand.record)
        if hand.finished and not hand.cancelled and played.finished:
            meta = HandMeta(hand.pk, hand.table.code, hand.started_at, hand.table.seat_count)
            text = pokerstars_hand(played, names, meta, viewer=None)
            return format_html('<pre class="hand-history">{}</pre>', text)

        def name(seat: int | None) -> str:
            return names.get(seat, "?") if seat is not None else ""

        lines = [describe(e, name) for e in visible_events(played, SPECTATOR)]
        note = (
            _("This hand was cancelled by a moderator; hole cards stay hidden.")
            if hand.cancelled
            else _("This hand is still being played: hole cards stay hidden until it ends.")
        )
        return format_html(
            "<p>{}</p><pre>{}</pre>", note, "\n".join(line for line in lines if line)
        )
