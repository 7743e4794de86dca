"""Bytes a phone downloads for a table's page: first visit (empty cache) and a repeat visit.

Counted by Chromium itself (DevTools' Network domain: every response's encodedDataLength, i.e.
the bytes on the wire, headers included) with its HTTP cache on, as a phone keeps it. Static
files have hashed names and are cached as immutable, so the repeat visit downloads the page
alone. Websocket frames are counted apart: they are the live game, not the page.
The figures are printed (run with -s) and reported in benchmarks/README.md "Page weight".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.browser.helpers import (
    JS_ERRORS,
    LiveServer,
    create_friends_table,
    start_computer_game,
)

# Measured 55,056 bytes on 5 Dec 2026 (benchmarks/README.md); the join link 56,296 since the
# page keeps its frames' parts (static/js/live.js, 230 bytes more once, cached for a year; each
# frame then carries half the HTML it did): 56 KB.
FIRST_VISIT_LIMIT = 56 * 1024
REPEAT_VISIT_LIMIT = 6 * 1024


@dataclass
class Transfer:
    urls: dict[str, str] = field(default_factory=dict)
    bytes_by_url: dict[str, int] = field(default_factory=dict)
    cached: list[str] = field(default_factory=list)
    websocket_payload: int = 0
    console_errors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.bytes_by_url.values())

    def table(self) -> str:
        rows = sorted(self.bytes_by_url.items(), key=lambda item: -item[1])
        return "\n".join(f"{size:>7} {url}" for url, size in rows)


def _visit(page: Any, url: str) -> Transfer:
    """Load ``url`` in ``page`` and count what came over the network until it settled."""
    seen = Transfer()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")

    def response(event: dict[str, Any]) -> None:
        seen.urls[event["requestId"]] = event["response"]["url"]
        if event["response"].get("fromDiskCache") or event["response"].get("fromPrefetchCache"):
            seen.cached.append(event["response"]["url"])

    def finished(event: dict[str, Any]) -> None:
        url = seen.urls.get(event["requestId"], event["requestId"])
        seen.bytes_by_url[url] = seen.bytes_by_url.get(url, 0) + int(event["encodedDataLength"])

    def frame(event: dict[str, Any]) -> None:
        seen.websocket_payload += len(event["response"]["payloadData"].encode())

    page.on("console", lambda m: seen.console_errors.append(m.text) if m.type == "error" else None)
    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketFrameReceived", frame)
    page.goto(url, wait_until="load")
    page.get_by_test_id("table-frame").wait_for()
    # Nothing more asked for 500 ms (Playwright's network idle): a late icon or manifest
    # request counts too.
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return seen


def _check(first: Transfer, repeat: Transfer, what: str) -> None:
    print(f"\n{what}: first visit {first.total} bytes, repeat visit {repeat.total} bytes; "
          f"websocket payload {first.websocket_payload} / {repeat.websocket_payload} bytes")
    print("first visit:\n" + first.table() + "\nrepeat visit:\n" + repeat.table())
    # Nothing for a browser to complain about (Lighthouse counts console errors).
    assert not first.console_errors and not repeat.console_errors, first.console_errors
    assert first.total <= FIRST_VISIT_LIMIT, first.table()
    assert repeat.total <= REPEAT_VISIT_LIMIT, repeat.table()
    # Not a test of an empty page: the first visit fetched the styles and scripts, by hashed
    # names, and the repeat visit fetched none of them again.
    statics = [url for url in first.bytes_by_url if "/static/" in url]
    assert any(url.endswith(".css") for url in statics) and len(statics) >= 8, statics
    for url in statics:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
    again = [url for url, size in repeat.bytes_by_url.items() if "/static/" in url and size]
    assert not again, repeat.table()  # served from the cache: 0 bytes


def test_a_phone_opening_a_join_link_downloads_little_and_less_the_second_time(
    app_server: LiveServer, new_phone: Any
) -> None:
    host = new_phone()
    link = create_friends_table(host, app_server)

    friend = new_phone()
    first = _visit(friend, link)
    repeat = _visit(friend.context.new_page(), link)
    _check(first, repeat, "join link (lobby)")
    assert not JS_ERRORS, JS_ERRORS


def test_a_player_reopening_the_table_mid_hand_downloads_little(
    app_server: LiveServer, new_phone: Any
) -> None:
    phone = new_phone()
    start_computer_game(phone, app_server, "Bikash", until="action-bar")
    table = phone.url
    # The phone holds its seat (cookie) but nothing of the page in its cache: a first visit.
    cdp = phone.context.new_cdp_session(phone)
    cdp.send("Network.clearBrowserCache")
    cdp.detach()
    first = _visit(phone.context.new_page(), table)
    repeat = _visit(phone.context.new_page(), table)
    _check(first, repeat, "table mid-hand")
    assert not JS_ERRORS, JS_ERRORS
