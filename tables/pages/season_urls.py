"""Pages of your games, groups (and their game nights) and a player's line; included by
tables.pages.urls."""

from __future__ import annotations

from django.urls import path

from tables.pages import game_nights, season

urlpatterns = [
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
