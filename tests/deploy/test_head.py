"""Every page that answers GET answers HEAD too: the same status and headers, no body.

Link previews and uptime monitors ask with HEAD; a 405 there reads as "the site is down".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tables.models import Table
from tests.tables.helpers.pages import play_until, started

pytestmark = pytest.mark.django_db


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[str]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern)


def _fill(pattern: str, code: str) -> str:
    """A path for a route: parameters filled with a real table's code and small numbers."""
    path = pattern.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\", "")
    path = re.sub(r"<str:code>|<code>", code, path)
    path = re.sub(r"<(int|path|str|slug)?:?\w+>", "1", path)
    path = re.sub(r"\(\?P<\w+>[^)]*\)", "1", path)  # the admin's regular expressions
    return "/" + path


@pytest.fixture
def table() -> Table:
    table, _clients = started("alice", "bob", seats=2)
    return play_until(table, 1)


def test_every_route_that_answers_get_answers_head_the_same(table: Table) -> None:
    alice = User.objects.create_superuser("alice", "alice@example.org", "correct horse battery")
    staff = Client()
    staff.force_login(alice)
    checked = ok = 0
    for pattern in _patterns(get_resolver()):
        path = _fill(pattern, table.code)
        for client in (Client(), staff):
            got = client.get(path)
            if got.status_code == 405:
                continue  # POST-only (actions, forms that only post)
            head = client.head(path)
            assert head.status_code != 405, f"HEAD {path} refused"
            if not path.startswith("/admin/"):
                # (Django's admin login shows its form to HEAD where GET redirects a signed-in
                # user: its own choice, and still an answer.)
                assert head.status_code == got.status_code, f"HEAD {path}: {head.status_code}"
                assert head.get("Content-Type") == got.get("Content-Type"), path
            assert head.content == b"", path
            checked += 1
            ok += got.status_code == 200
    # Not only refusals: the home page, the table, its histories and the admin answer 200.
    assert checked > 40 and ok > 20, (checked, ok)


@pytest.mark.parametrize(
    "name", ["home", "how_to_play", "tables:create", "tables:join_code"]
)
def test_head_on_a_page_answers_200_without_a_body(name: str) -> None:
    response = Client().head(reverse(name))
    assert response.status_code == 200
    assert response.content == b""


def test_head_on_a_table_and_its_history_answers_200(table: Table) -> None:
    for name in ("tables:table", "tables:history", "tables:results_csv"):
        response = Client().head(reverse(name, args=[table.code]))
        assert response.status_code in {200, 403}, name
    assert Client().head(reverse("tables:table", args=[table.code])).status_code == 200


def test_head_on_an_action_is_still_refused() -> None:
    assert Client().head(reverse("tables:act", args=["ABCDEF"])).status_code == 405
