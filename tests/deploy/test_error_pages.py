"""The app's own error pages (config/errors.py): while the database is away every page answers
503 with a page of the app's (translated, a Retry-After, a page asked for reloads itself) and
/healthz says 503; any other failure gets the app's 500 page. The outage is PostgreSQL's own
(tests/helpers/outage.py): sessions ended, new ones turned away."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views import defaults

from tests.helpers.outage import DatabaseOutage
from tests.tables.helpers import client_lobby

NEPALI_AWAY = "सर्भर केही क्षणका लागि सुरक्षित खेलहरूसम्म पुग्न सकेन।"
NEPALI_KEPT = "तपाईंका चिप र सिट सुरक्षित छन्: सुरक्षित भइसकेको केही पनि हराएको छैन।"


@pytest.mark.services
def test_healthz_says_503_while_the_database_is_away_and_200_once_it_is_back(
    outage: DatabaseOutage,
) -> None:
    assert Client().get("/healthz").status_code == 200
    outage.away()
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.content == b"unavailable\n"
    outage.back()
    assert Client().get("/healthz").status_code == 200


@pytest.mark.services
def test_a_table_page_gets_the_apps_own_503_page_while_the_database_is_away(
    outage: DatabaseOutage,
) -> None:
    table, (asha, _bikash) = client_lobby("Asha", "Bikash")
    page = reverse("tables:table", args=[table.code])
    assert asha.get(page).status_code == 200
    outage.away()

    response = asha.get(page, headers={"accept-language": "en"})
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    # Never kept by a cache: the 503 page itself says no-store, and a table's URL is private
    # (config.security.PrivatePagesMiddleware).
    assert set(response["Cache-Control"].replace(" ", "").split(",")) == {"no-store", "private"}
    html = response.content.decode()
    assert 'data-error-page="503"' in html
    assert "The server cannot reach the saved games for a moment." in html
    assert '<meta http-equiv="refresh" content="10">' in html  # a page asked for reloads itself

    nepali = Client(headers={"accept-language": "ne"}).get(page)
    assert nepali.status_code == 503
    text = nepali.content.decode()
    assert '<html lang="ne">' in text and NEPALI_AWAY in text and NEPALI_KEPT in text

    # A form sent while the database is away: the same page, not sent again by itself.
    joined = Client().post(reverse("tables:join", args=[table.code]), {"name": "Chandra"})
    assert joined.status_code == 503 and 'data-error-page="503"' in joined.content.decode()
    assert "http-equiv" not in joined.content.decode()

    outage.back()
    assert asha.get(page).status_code == 200


def test_any_other_failure_gets_the_apps_own_500_page_in_the_players_language() -> None:
    request: HttpRequest = RequestFactory().get("/")
    with translation.override("ne"):
        response: Any = defaults.server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert 'data-error-page="500"' in html and '<html lang="ne">' in html
    assert "सर्भरले यो पाना देखाउन सकेन।" in html and NEPALI_KEPT in html
    english = defaults.server_error(request).content.decode()
    assert "The server could not show this page. Try again in a moment." in english
