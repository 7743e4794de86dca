"""Pages asked while the database is away (a restart, a failover) answer 503 with the app's own
page (templates/503.html) and a Retry-After, instead of a server error; any other failure gets
templates/500.html. Both need nothing but the template files to render: no database, no session.

``DATABASE_AWAY`` (``tables.write.reconnect``) is what Django raises when PostgreSQL does not
answer (refused, shut down, a connection cut): the websocket consumer refuses an action with it
too (``tables.live.consumer``). Other database errors (an integrity error...) are bugs, not
outages, and stay server errors."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_noop

from tables.write.reconnect import DATABASE_AWAY

log = logging.getLogger(__name__)

RETRY_AFTER = 10  # seconds: the database is usually back within that

# When no Daphne process answers (a restart, a crash), nginx answers itself with
# static/errors/restarting.html (deploy/nginx/holdem.conf's error_page: 503, Retry-After).
# nginx cannot choose a language, so that page says each of these in English and in Nepali;
# they are listed here to stay in the catalogue (tests/deploy/test_nginx_processes.py checks
# the file holds each one and its translation).
RESTARTING_PAGE = (
    gettext_noop("Back in a moment"),
    gettext_noop("The table is restarting; try again in a moment."),
    gettext_noop("Your chips and your seat are kept: nothing that was saved is lost."),
    gettext_noop("Try again"),
)


def database_away(request: HttpRequest) -> HttpResponse:
    """The 503 page. A page that was asked for (GET) reloads itself after ``RETRY_AFTER``
    seconds; a form sent (POST) is not sent again by itself."""
    reload = request.method in ("GET", "HEAD")
    html = render_to_string("503.html", {"retry_after": RETRY_AFTER if reload else None})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseAwayMiddleware(MiddlewareMixin):
    """Last in MIDDLEWARE: the first to see what a view (or its template) raised."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_AWAY):
            return None
        log.warning("%s %s: database away (%s)", request.method, request.path,
                    type(exception).__name__)
        return database_away(request)
