"""Hostile input never gets a 500: pastes for /replay/, websocket frames, websocket paths."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from engine.foreign import foreign_hand
from engine.phh import PhhError
from tables.live.consumer import CLOSE_UNKNOWN_TABLE
from tables.models import Table
from tables.write import lobby
from tests.helpers.servers import Server, new_table, sqlite_server
from tests.tables.helpers import ORIGIN, NewPhone, Phone

HAND = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [{sb}, {bb}]
min_bet = 2
starting_stacks = [{stack}, 200]
actions = ["d dh p1 AsKd", "d dh p2 7h7c", "{act}", "p1 f"]
players = ["Asha", "Bikash"]
hand = {hand}
"""


def hand(**fields: object) -> str:
    values: dict[str, object] = {"sb": 1, "bb": 2, "stack": 200, "act": "p2 cc", "hand": 1}
    values.update(fields)
    return HAND.format(**values)


def nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return "a = " + opening * depth + closing * depth


LONG = "9" * 5000
# (what, the paste, words the reason must hold)
HOSTILE_PASTES = [
    ("lists nested 500 deep", nested(500), "too deeply"),
    ("inline tables nested 500 deep", nested(500, "{x = ", "}"), "too deeply"),
    ("an integer of 5,000 digits", "a = " + LONG, "too long"),
    ("a stack of 5,000 digits", hand(stack=LONG), "too long"),
    ("a stack of 4,000 digits", hand(stack="9" * 4000), "too large"),
    ("a stack written 1e999999", hand(stack="1e999999"), "too large"),
    ("a big blind written 1e999999", hand(bb="1e999999"), "too large"),
    ("a raise of 5,000 digits", hand(act="p2 cbr " + LONG), "too large"),
    ("a player numbered with 5,000 digits", hand(act=f"p{LONG} cc"), "not one of the players"),
    ("a hand number of 5,000 digits", hand(hand=LONG), "too long"),
]


# ------------------------------------------------------------------------------ /replay/
@pytest.mark.parametrize(("case", "text", "words"), HOSTILE_PASTES,
                         ids=[c[0] for c in HOSTILE_PASTES])
@pytest.mark.django_db
def test_a_hostile_paste_gets_400_with_a_reason(case: str, text: str, words: str) -> None:
    with pytest.raises(PhhError, match=words):
        foreign_hand(text)
    response = Client().post(reverse("tables:foreign_replay"), {"phh": text})
    assert response.status_code == 400, case
    page = response.content.decode()
    assert 'data-testid="foreign-error"' in page and words in page, case


def test_a_reason_quotes_at_most_a_short_piece_of_the_file() -> None:
    with pytest.raises(PhhError) as caught:
        foreign_hand(hand(act="p2 cbr " + "1" * 3000 + "x"))
    assert len(str(caught.value)) < 300


pastes = st.one_of(
    st.text(max_size=400),
    st.builds(nested, st.integers(1, 3000)),
    st.builds(lambda d: nested(d, "{x = ", "}"), st.integers(1, 1500)),
    st.builds(lambda n: "a = " + "7" * n, st.integers(1, 8000)),
    st.builds(
        lambda field, n: hand(**{field: "1" + "0" * n}),
        st.sampled_from(["sb", "bb", "stack", "hand"]), st.integers(0, 6000),
    ),
    st.builds(lambda act: hand(act=act), st.text(max_size=60)),
    st.builds(
        lambda text, cut: hand()[:cut] + text + hand()[cut:],
        st.text(max_size=40), st.integers(0, len(hand())),
    ),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pastes)
def test_any_paste_is_replayed_or_refused_with_a_reason(text: str) -> None:
    try:
        replayed = foreign_hand(text)
    except PhhError as exc:
        assert str(exc)
        return
    json.dumps(replayed.replay_data())  # what the page writes out can be written


@pytest.mark.django_db
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pastes)
def test_the_replay_page_answers_any_paste_without_an_error(text: str) -> None:
    response = Client().post(reverse("tables:foreign_replay"), {"phh": text})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert 'data-testid="foreign-error"' in response.content.decode()


# ------------------------------------------------------------------------------ websocket
async def _unknown_path(path: str) -> dict[str, Any]:
    from config.asgi import application

    comm = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), (b"origin", ORIGIN)]
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    closing: dict[str, Any] = await comm.receive_output(timeout=10)
    await comm.wait()
    return closing


@pytest.mark.parametrize("path", ["/ws/nothing/", "/", "/ws/t/", "/ws/t/ABC/extra/", "/%00"])
async def test_an_unknown_websocket_path_is_closed_with_a_code(path: str) -> None:
    closing = await _unknown_path(path)
    assert closing["type"] == "websocket.close"
    assert closing["code"] == CLOSE_UNKNOWN_TABLE


frames = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=100),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["type", "kind", "version", "seat", "amount",
                                           "action_id", "text", "do", "to"]) | st.text(max_size=5),
                          inner, max_size=5),
        max_leaves=20,
    ).map(json.dumps),
    st.builds(lambda d: "[" * d + "]" * d, st.integers(1, 5000)),
    st.builds(lambda n: "x" * n, st.integers(4000, 70_000)),
    st.fixed_dictionaries({
        "type": st.sampled_from(["action", "sync", "reveal", "chat", "host", "ping", "talk"]),
        "kind": st.text(max_size=8) | st.sampled_from(["call", "raise", "fold", "all_in"]),
        "version": st.integers() | st.text(max_size=5) | st.floats(),
        "amount": st.integers() | st.floats() | st.text(max_size=8),
        "action_id": st.text(max_size=70),
        "seat": st.integers(-3, 12) | st.text(max_size=3),
    }).map(json.dumps),
)


async def _send_one(code: str, session_key: str, frame: str | bytes) -> None:
    phone = Phone(code, session_key)
    await phone.connect()
    key = "bytes" if isinstance(frame, bytes) else "text"
    await phone.comm.send_input({"type": "websocket.receive", key: frame})  # "" included
    # The socket is still open and the server still answers: its reply to a ping comes after
    # whatever it said about the frame.
    await phone.send({"type": "ping"})
    while (await phone.next()).text != "pong":
        pass
    await phone.close()


@pytest.mark.django_db(transaction=True)
def test_any_frame_gets_an_answer_and_the_socket_stays_open(new_phone: NewPhone) -> None:
    host = new_phone()
    table = lobby.create_table(host, ["Asha"], lobby.TableSettings(seat_count=2),
                               Table.Mode.FRIENDS)
    host.save()
    key = host.session_key
    assert key is not None

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(frames)
    def one(frame: str | bytes) -> None:
        async_to_sync(_send_one)(table.code, key, frame)

    one()
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING


# ------------------------------------------------------------------------------ real Daphne
@pytest.fixture(scope="module")
def daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("hostile")) as server:
        yield server


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "deflate"])
def test_an_oversized_frame_gets_a_close_frame_with_a_reason(
    daphne: Server, compressed: bool
) -> None:
    code, headers, _page = new_table(daphne, mode="friends")
    with ws_connect(
        f"ws://127.0.0.1:{daphne.port}/ws/t/{code}/", additional_headers=headers,
        compression="deflate" if compressed else None, max_size=None, open_timeout=20,
    ) as ws:
        first = ws.recv(timeout=20)
        assert f'data-code="{code}"' in str(first)
        ws.send("x" * 300_000)
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=20)
        assert ws.close_code == 1009
        assert ws.close_reason and "payload limit" in ws.close_reason


def test_a_frame_under_the_limit_gets_the_tables_own_answer(daphne: Server) -> None:
    code, headers, _page = new_table(daphne, mode="friends")
    with ws_connect(
        f"ws://127.0.0.1:{daphne.port}/ws/t/{code}/", additional_headers=headers,
        open_timeout=20,
    ) as ws:
        ws.recv(timeout=20)
        ws.send("x" * 20_000)
        while 'data-code="too_big"' not in (reply := str(ws.recv(timeout=20))):
            assert "pong" not in reply
        ws.send(json.dumps({"type": "ping"}))
        while ws.recv(timeout=20) != "pong":
            pass


def test_an_unknown_path_on_daphne_is_closed_with_a_code(daphne: Server) -> None:
    with ws_connect(
        f"ws://127.0.0.1:{daphne.port}/ws/nowhere/", additional_headers={"Origin": daphne.base},
        open_timeout=20,
    ) as ws:
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=20)
        assert ws.close_code == CLOSE_UNKNOWN_TABLE
    log = daphne.log.read_text()
    assert "Traceback" not in log and "No route found" not in log
