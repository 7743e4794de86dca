"""The admin's login page, throttled: wrong passwords are counted per client address and per
client address with the username typed, and past ``TABLES_ADMIN_LOGIN_FAILURES_PER_MINUTE``
in a minute the page answers 429 without checking the password at all.

The counts go through ``tables.ratelimit`` (the database), so every server process sees the
same attempts. A correct password is not counted; a page shown again after a wrong one is.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tables import ratelimit

KIND = "admin-login"


def _address(request: HttpRequest) -> str:
    ip = str(request.META.get("REMOTE_ADDR") or "")
    if settings.BEHIND_PROXY:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        ip = forwarded.split(",")[0].strip() or ip
    return ip


def _keys(request: HttpRequest) -> list[str]:
    ip = _address(request)
    username = str(request.POST.get("username", "")).strip().casefold()[:150]
    return [f"ip:{ip}", f"ip-user:{ip}\n{username}"]


def throttled_login(request: HttpRequest) -> HttpResponse:
    """``admin.site.login`` behind the count of wrong passwords."""
    if request.method != "POST":
        return admin.site.login(request)
    keys = _keys(request)
    if ratelimit.too_many(KIND, keys, settings.TABLES_ADMIN_LOGIN_FAILURES_PER_MINUTE):
        return render(request, "pages/message.html", {
            "title": _("Too many wrong passwords"), "text": _("Wait a minute, then try again."),
        }, status=429)
    response = admin.site.login(request)
    if response.status_code != 302:  # the form again: the password was wrong (or missing)
        ratelimit.record(KIND, keys)
    return response
