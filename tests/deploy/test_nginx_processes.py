"""The production stack of deploy/ (tests/deploy/nginx_stack.py) with processes away: one
killed, its tables' pages and sockets come from the other (200, not 502); a rolling restart
always finds the process that is back (nginx remembers no failure: it once answered 502 "no live
upstreams" with one back and idle); every process down, nginx answers the app's own bilingual
page with 503 and Retry-After. Runs after tests/deploy/test_nginx.py on the same stack.
"""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.deploy.nginx_stack import YEAR, Daphne, Stack, phone_at, until

pytestmark = pytest.mark.services

# ------------------------------------------------------------------------------ processes away
def _all_up(stack: Stack) -> None:
    """Every Daphne running again (the test before may have stopped one)."""
    for daphne in stack.daphnes:
        if not daphne.alive:
            daphne.start()


def _pages(stack: Stack) -> list[str]:
    return ["/", "/healthz", *(f"/t/{t['code']}/" for t in stack.tables)]


def _refused(stack: Stack, daphne: Daphne) -> int:
    """How many times nginx found ``daphne``'s port closed (and went on to the next one)."""
    text = (stack.cafile.parent / "error.log").read_text(errors="replace")
    return len(re.findall(rf"Connection refused\) while connecting to upstream.*"
                          rf"127\.0\.0\.1:{daphne.port}/", text))


async def _socket_served_by(stack: Stack, table: dict[str, Any]) -> Daphne:
    """The process a table's websocket reaches through nginx (a watcher's first frame)."""
    before = [d.served(table["code"]) for d in stack.daphnes]
    stop = asyncio.Event()
    watcher = phone_at(stack, table, f"watch-{table['code']}", None)
    task = asyncio.create_task(watcher.run(stop))
    await until(lambda: bool(watcher.versions), f"a first frame of {table['code']}")
    stop.set()
    await watcher.ws.close()
    await asyncio.wait_for(task, 10)
    [served] = [d for d, n in zip(stack.daphnes, before, strict=True)
                if d.served(table["code"]) > n]
    return served


async def test_a_process_killed_its_tables_come_from_the_other_with_200_not_502(
    stack: Stack,
) -> None:
    _all_up(stack)
    routed = {t["code"]: await _socket_served_by(stack, t) for t in stack.tables[1:]}
    # The victim: a process with tables of its own (the hash may, now and then, give every
    # table to one process: the routing test says so).
    victim = max(stack.daphnes, key=lambda d: sum(served is d for served in routed.values()))
    [other] = [d for d in stack.daphnes if d is not victim]
    theirs = [t for t in stack.tables[1:] if routed[t["code"]] is victim]
    assert theirs, routed
    refused = _refused(stack, victim)
    victim.kill()
    # Pages (any process) and the victim's tables' pages: every one from the other process,
    # however many times nginx tries the dead one first.
    for _round in range(3):
        for path in _pages(stack):
            status, _headers, body = stack.get(stack.base + path)
            assert status == 200, (path, status, body[:300])
    assert _refused(stack, victim) > refused  # the dead port was tried, and passed over
    # The victim's tables' websockets go on to the next process on the hash's ring.
    for table in theirs:
        assert await _socket_served_by(stack, table) is other, table["code"]
    victim.start()
    assert stack.get(stack.base + "/")[0] == 200


def test_a_rolling_restart_always_finds_the_process_that_is_back(stack: Stack) -> None:
    """One process after the other stopped and started again (a deploy, the soak's clock
    fault): a process nginx found closed a moment ago answers again as soon as it is back,
    while the other one is away (nginx's failure memory must not leave it no process)."""
    _all_up(stack)
    first, second = stack.daphnes
    for away, back in ((first, second), (second, first)):
        away.kill()
        for path in _pages(stack):  # nginx finds it closed, and notes a failure
            assert stack.get(stack.base + path)[0] == 200, path
        away.start()
        # at once the other goes: every page from the one just back
        back.kill()
        for path in _pages(stack):
            status, _headers, body = stack.get(stack.base + path)
            assert status == 200, (path, status, body[:300])
        back.start()


def test_every_process_down_answers_the_apps_own_bilingual_503_with_retry_after(
    stack: Stack,
) -> None:
    from django.utils import translation

    from config.errors import RESTARTING_PAGE

    for daphne in stack.daphnes:
        if daphne.alive:
            daphne.kill()
    code = stack.tables[0]["code"]
    for path in ("/", f"/t/{code}/", "/healthz", f"/ws/t/{code}/"):
        status, headers, body = stack.get(stack.base + path)
        assert status == 503, (path, status, body[:300])
        assert headers["retry-after"] == "10"
        assert headers["cache-control"] == "no-store"
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["strict-transport-security"] == f"max-age={YEAR}"
        html = body.decode()
        assert 'data-error-page="503"' in html and "<center>nginx</center>" not in html
        assert '<html lang="en">' in html and '<section lang="ne">' in html
        for sentence in RESTARTING_PAGE:  # each in English and in Nepali
            with translation.override("ne"):
                nepali = translation.gettext(sentence)
            assert nepali != sentence, sentence  # translated
            assert sentence in html and nepali in html, sentence
    # A form sent: the same page (nginx never sent it anywhere: nothing to send again).
    request = urllib.request.Request(stack.base + f"/t/{code}/join/", data=b"name=Chandra",
                                     method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, context=stack.context, timeout=10)
    assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "10"
    assert 'data-error-page="503"' in refused.value.read().decode()
    # The page is nginx's own only while no process answers.
    stack.daphnes[1].start()
    status, headers, body = stack.get(stack.base + f"/t/{code}/")
    assert status == 200 and "retry-after" not in headers and b"data-error-page" not in body
    stack.daphnes[0].start()
