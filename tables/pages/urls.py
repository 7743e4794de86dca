"""The site's pages: home, create, join, a table and its form posts, your games, groups and a
player's line, and (included) the hand histories, named ``tables:<name>``; and a tournament's
pages by code, included under ``tournament/`` from config.urls and named ``tournament:<name>``
(creating one is ``/new/?mode=tournament``, tables:create)."""

from __future__ import annotations

from django.urls import include, path

from tables.pages import (
    foreign,
    game_nights,
    hint,
    late,
    push,
    recap,
    season,
    seat_moves,
    tournament,
    why,
)
from tables.pages import table as views

app_name = "tables"

urlpatterns = [
    path("", include("tables.pages.history_urls")),  # hand histories and exports
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
    # your games, groups and their game nights, a player's line
    path("games/", season.games_page, name="games"),
    path("games/take/", season.take_along, name="games_take"),
    path("games/take/<str:token>/", season.games_here, name="games_here"),
    path("games/forget/", season.forget_games, name="games_forget"),
    path("g/<str:code>/", season.group_page, name="group"),
    path("g/<str:code>/season.csv", season.group_csv, name="group_csv"),
    path("g/<str:code>/nights/", game_nights.propose, name="night_new"),
    path("g/<str:code>/nights/<int:night_id>/", game_nights.reply, name="night"),
    path("g/<str:code>/nights/<int:night_id>.ics", game_nights.calendar, name="night_ics"),
    path("t/<str:code>/stats/<int:position>/", season.seat_line, name="seat_line"),
]

tournament_patterns = [
    path("of-table/<str:code>/", tournament.of_table, name="of_table"),
    path("of-table/<str:code>/line/", tournament.table_line, name="table_line"),
    path("<str:code>/", tournament.page, name="page"),
    path("<str:code>/live/", tournament.live, name="live"),
    path("<str:code>/join/", tournament.join, name="join"),
    path("<str:code>/start/", tournament.start, name="start"),
    path("<str:code>/pause/", tournament.pause, name="pause"),
    path("<str:code>/resume/", tournament.resume, name="resume"),
    path("<str:code>/hands/", tournament.hands, name="hands"),
    path("<str:code>/results.csv", tournament.results_csv, name="results_csv"),
]
