"""Every code lookup counted (tables.lookups), and one client address (tables.ratelimit).

The URL walk: every pattern of the site that takes a code (a table's, a tournament's, a
group's) or a link's token is asked, by a client already limited, for something that exists and
for something that does not: the same answer (429) for both, so a guesser learns nothing once
limited. Asked by a client that is not limited, an unknown code is counted against it and a
known one is not. A pattern the walk does not know how to fill (a new kind of parameter) fails
the walk, so a view added later is asked the same questions.

The address: behind the proxy, the limiter counts the address nginx saw (``X-Real-IP``), for
pages and the websocket alike; ``X-Forwarded-For`` (whatever the client wrote in it) never
chooses the address, so it neither escapes the limit nor locks anyone else out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import LazySettings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter

from tables import claims, ratelimit
from tables.live.routing import websocket_urlpatterns
from tables.models import FailedJoin, Group, Table
from tables.write import identity, seat_moves
from tables.write import tournament_setup as setup
from tests.tables.helpers import ORIGIN, client_lobby

pytestmark = pytest.mark.django_db

LIMIT = 10  # TABLES_JOIN_FAILURES_PER_MINUTE's default
_addresses = (f"198.51.100.{n}" for n in itertools.count(1))


@dataclass
class Route:
    name: str  # "namespace:name"
    route: str  # the whole pattern, e.g. "t/<str:code>/hands/<int:number>/"
    texts: list[str]  # its str parameters
    numbers: list[str]  # its int parameters


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[Route]:
    found = []
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith(("admin/", "i18n/")):
                continue  # staff only (behind a login), and Django's own
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found += _walk(entry.url_patterns, route, inner)
        elif isinstance(entry, URLPattern):
            converters = entry.pattern.converters
            texts = [n for n, c in converters.items() if not isinstance(c, IntConverter)]
            numbers = [n for n, c in converters.items() if isinstance(c, IntConverter)]
            if texts:
                assert entry.name, f"{route}: a pattern with a parameter needs a name"
                found.append(Route(namespace + entry.name, route, texts, numbers))
    return found


ROUTES = _walk(get_resolver().url_patterns)


def _kind(route: Route) -> str:
    """What a pattern's text parameter names. A new kind fails here: add it to the walk."""
    assert route.texts in (["code"], ["token"]), f"{route.route}: which lookup does it use?"
    if route.texts == ["token"]:
        return {"move/": "move", "games/take/": "games"}[route.route.rsplit("<", 1)[0]]
    if route.route.startswith("g/"):
        return "group"
    if route.route.startswith("tournament/") and not route.route.startswith("tournament/of-"):
        return "tournament"
    return "table"


UNKNOWN = {"table": "ZZZZZZ", "tournament": "ZZZZZZ", "group": "zzzzzzzz",
           "move": "x" * 32, "games": "x" * 32}


@pytest.fixture
def known() -> dict[str, str]:
    """Something that exists, for each kind of parameter."""
    table, [host, *_] = client_lobby("Asha", "Bikash")
    hashes = claims.session_hashes(host.session)
    tournament = setup.create(entrants_wanted=8)
    group = Group.objects.create(code="k7q4mxab", name="Friday", creator_hash=hashes[0])
    session = host.session
    games = identity.make_link(session)
    session.save()
    move = seat_moves.make_link(table, hashes, 0).token
    return {"table": table.code, "tournament": tournament.code, "group": group.code,
            "move": move, "games": games}


def _ask(client: Client, route: Route, value: str) -> int:
    kwargs: dict[str, Any] = {route.texts[0]: value, **dict.fromkeys(route.numbers, 1)}
    url = reverse(route.name, kwargs=kwargs)
    status = client.get(url).status_code
    if status == 405:
        status = client.post(url).status_code
    return status


def _limited_client() -> Client:
    address = next(_addresses)
    for _ in range(LIMIT):
        ratelimit.record_failure(ratelimit.client_keys(address, None))
    return Client(REMOTE_ADDR=address)


def _misses(address: str) -> int:
    return FailedJoin.objects.filter(client__in=ratelimit.client_keys(address, None)).count()


def test_the_walk_finds_every_kind_of_code_taking_page() -> None:
    kinds = {_kind(r) for r in ROUTES}
    assert kinds == set(UNKNOWN)
    assert len(ROUTES) >= 40, [r.route for r in ROUTES]  # the site's, not a handful


@pytest.mark.parametrize("route", ROUTES, ids=[r.route for r in ROUTES])
def test_a_limited_client_learns_nothing_and_every_miss_is_counted(
    route: Route, known: dict[str, str]
) -> None:
    kind = _kind(route)
    guesser = _limited_client()
    assert _ask(guesser, route, known[kind]) == _ask(guesser, route, UNKNOWN[kind]) == 429
    # Not limited: a miss counts against the client, a hit does not.
    address = next(_addresses)
    _ask(Client(REMOTE_ADDR=address), route, known[kind])
    assert _misses(address) == 0, "a code that exists was counted as a wrong one"
    _ask(Client(REMOTE_ADDR=address), route, UNKNOWN[kind])
    assert _misses(address) == 1, "a wrong code was not counted"


def test_the_table_socket_is_the_only_websocket_and_takes_the_same_lookup() -> None:
    from tables.live.consumer import TableConsumer
    from tables.live.routing import UnknownPath

    # The table's socket, and a catch-all that takes no code and closes at once.
    assert [str(p.pattern) for p in websocket_urlpatterns] == ["ws/t/<str:code>/", ""]
    table, rest = websocket_urlpatterns
    assert table.callback.consumer_class is TableConsumer
    assert rest.callback.consumer_class is UnknownPath


def test_only_the_lookup_asks_which_table_a_code_is() -> None:
    root = Path(__file__).resolve().parents[3] / "tables"
    asking = sorted(
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if "objects.by_code(" in path.read_text() and "admin" not in path.parts
    )
    assert asking == ["lookups.py"]


@pytest.mark.parametrize("kind", ["table", "tournament"])
def test_the_join_form_says_nothing_to_a_limited_client(
    kind: str, known: dict[str, str]
) -> None:
    guesser = _limited_client()
    for code in (known[kind], UNKNOWN[kind]):
        for response in (guesser.get(reverse("tables:join_code"), {"code": code}),
                         guesser.post(reverse("tables:join_code"), {"code": code, "name": "E"})):
            assert response.status_code == 429, code
    address = next(_addresses)
    assert Client(REMOTE_ADDR=address).get(
        reverse("tables:join_code"), {"code": known[kind]}
    ).status_code == 302
    assert _misses(address) == 0
    assert Client(REMOTE_ADDR=address).get(
        reverse("tables:join_code"), {"code": UNKNOWN[kind]}
    ).status_code == 404
    assert _misses(address) == 1


# ------------------------------------------------------------------------------ the address
def _table() -> Table:
    table, _clients = client_lobby("Asha")
    return table


def test_behind_the_proxy_the_limit_counts_the_address_the_proxy_saw(
    settings: LazySettings,
) -> None:
    settings.BEHIND_PROXY = True
    table = _table()
    # A different made-up X-Forwarded-For each time, from one real address: limited all the same.
    for n in range(LIMIT):
        guesser = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.5",
                         HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.5")
        assert guesser.get("/t/ZZZZZZ/").status_code == 404
    guesser = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.5",
                     HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert guesser.get(f"/t/{table.code}/").status_code == 429
    assert _misses("203.0.113.5") == LIMIT
    # Nobody whose address was written in X-Forwarded-For is locked out.
    for n in (0, 5, 99):
        assert _misses(f"192.0.2.{n}") == 0
        victim = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP=f"192.0.2.{n}")
        assert victim.get(f"/t/{table.code}/").status_code == 200


def test_without_the_proxy_a_header_does_not_choose_the_address(settings: LazySettings) -> None:
    settings.BEHIND_PROXY = False
    table = _table()
    for n in range(LIMIT):
        Client(REMOTE_ADDR="203.0.113.6", HTTP_X_REAL_IP=f"192.0.2.{n}").get("/t/ZZZZZZ/")
    assert _misses("203.0.113.6") == LIMIT
    assert Client(REMOTE_ADDR="203.0.113.6").get(f"/t/{table.code}/").status_code == 429
    assert Client(REMOTE_ADDR="203.0.113.7", HTTP_X_REAL_IP="203.0.113.6").get(
        f"/t/{table.code}/"
    ).status_code == 200


def test_the_address_of_a_page_and_of_a_websocket_is_the_same(settings: LazySettings) -> None:
    settings.BEHIND_PROXY = True
    meta = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.8",
            "HTTP_X_FORWARDED_FOR": "192.0.2.1"}
    scope = {"client": ["127.0.0.1", 5000], "headers": [
        (b"x-forwarded-for", b"192.0.2.1"), (b"x-real-ip", b"203.0.113.8")]}
    assert ratelimit.request_address(meta) == ratelimit.scope_address(scope) == "203.0.113.8"
    # No header (a request not through nginx): the connection's own address.
    assert ratelimit.request_address({"REMOTE_ADDR": "10.0.0.2"}) == "10.0.0.2"
    assert ratelimit.scope_address({"client": ["10.0.0.2", 1]}) == "10.0.0.2"
    settings.BEHIND_PROXY = False
    assert ratelimit.request_address(meta) == ratelimit.scope_address(scope) == "127.0.0.1"


async def _close_code(code: str, real_ip: str) -> int:
    from config.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/t/{code}/", headers=[
        (b"host", b"testserver"), (b"origin", ORIGIN), (b"x-real-ip", real_ip.encode()),
        (b"x-forwarded-for", b"192.0.2.50"),
    ])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    while True:
        message = await comm.receive_output(10)
        if message["type"] == "websocket.close":
            return int(message["code"])
        if "table-data" in message.get("text", ""):
            await comm.disconnect()
            return 1000  # a frame of the table: let in


@pytest.mark.django_db(transaction=True)
async def test_the_websocket_refuses_by_the_address_the_proxy_saw(
    settings: LazySettings,
) -> None:
    from channels.db import database_sync_to_async

    settings.BEHIND_PROXY = True
    table = await database_sync_to_async(_table)()
    for _ in range(LIMIT):
        await database_sync_to_async(ratelimit.record_failure)(
            ratelimit.client_keys("203.0.113.9", None)
        )
    assert await _close_code(table.code, "203.0.113.9") == 4429
    # The same made-up X-Forwarded-For from another address: let in.
    assert await _close_code(table.code, "203.0.113.10") == 1000
