from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from config import health
from tables.admin.login import throttled_login
from tables.pages import table as table_views
from tables.pages.how_to_play import how_to_play
from tables.pages.urls import tournament_patterns

urlpatterns = [
    path("", table_views.home, name="home"),
    path("", include("tables.pages.urls")),
    path("tournament/", include((tournament_patterns, "tournament"))),
    path("how-to-play/", how_to_play, name="how_to_play"),
    # The language switcher (every page) posts to set_language here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/login/", throttled_login),  # before the admin's own: wrong passwords counted
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", health.metrics, name="metrics"),
]
