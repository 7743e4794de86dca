"""A tournament's pages by code, included under ``tournament/`` from config.urls;
names are ``tournament:<name>``. Creating one is ``/new/?mode=tournament`` (tables:create)."""

from __future__ import annotations

from django.urls import path

from tables.pages import tournament as views

app_name = "tournament"

urlpatterns = [
    path("of-table/<str:code>/", views.of_table, name="of_table"),
    path("of-table/<str:code>/line/", views.table_line, name="table_line"),
    path("<str:code>/", views.page, name="page"),
    path("<str:code>/live/", views.live, name="live"),
    path("<str:code>/join/", views.join, name="join"),
    path("<str:code>/start/", views.start, name="start"),
    path("<str:code>/pause/", views.pause, name="pause"),
    path("<str:code>/resume/", views.resume, name="resume"),
    path("<str:code>/hands/", views.hands, name="hands"),
    path("<str:code>/results.csv", views.results_csv, name="results_csv"),
]
