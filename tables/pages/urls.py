"""The site's pages: home, create, join, a table and its form posts, and (included) the
hand histories. Names are ``tables:<name>``."""

from __future__ import annotations

from django.urls import include, path

from tables.pages import foreign, hint, late, push, recap, seat_moves, why
from tables.pages import table as views

app_name = "tables"

urlpatterns = [
    path("new/", views.create, name="create"),
    path("join/", views.join_by_code, name="join_code"),
    path("t/<str:code>/", views.table_page, name="table"),
    path("t/<str:code>/frame/", views.frame, name="frame"),
    path("t/<str:code>/join/", views.join, name="join"),
    path("t/<str:code>/start/", views.start, name="start"),
    path("t/<str:code>/computers/add/", views.add_computer, name="add_computer"),
    path("t/<str:code>/computers/remove/", views.remove_computer, name="remove_computer"),
    path("t/<str:code>/seats/<int:position>/remove/", views.remove_seat, name="remove_seat"),
    path("t/<str:code>/leave/", views.leave, name="leave"),
    path("t/<str:code>/act/", views.act, name="act"),
    path("t/<str:code>/hint/", hint.hint, name="hint"),
    path("t/<str:code>/why/<int:seat>/", why.why, name="why"),
    path("t/<str:code>/reveal/", views.reveal_seat, name="reveal"),
    path("t/<str:code>/hide/", views.hide_cards, name="hide"),
    path("t/<str:code>/back/", views.back, name="back"),
    path("t/<str:code>/again/", views.again, name="again"),
    path("t/<str:code>/recap/", recap.recap_page, name="recap"),
    path("t/<str:code>/late/", late.ask, name="late"),
    path("t/<str:code>/late/<int:request_id>/", late.reply, name="late_answer"),
    path("t/<str:code>/move/", seat_moves.move_menu, name="seat_moves"),
    path("move/<str:token>/", seat_moves.move_here, name="move_here"),
    path("t/<str:code>/notify/", push.notify_page, name="notify"),
    path("push/on/", push.turn_on, name="push_on"),
    path("push/off/", push.turn_off, name="push_off"),
    path("sw.js", push.service_worker, name="service_worker"),
    path("replay/", foreign.foreign_replay, name="foreign_replay"),  # a hand from elsewhere
    path("", include("tables.pages.history_urls")),  # hand histories and exports
    path("", include("tables.pages.season_urls")),  # your games, groups, statistics
]
