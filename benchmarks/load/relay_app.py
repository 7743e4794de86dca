"""The reference for the load benchmark: a bare Channels app that only relays.

Same shape of traffic as the tables app, none of its work (no database, no engine, no
templates): a socket joins group ``relay.<table>`` at ``/ws/relay/<table>/<seat>/<size>/``;
when the seat sends ``{"type": "action", "version": N}`` the consumer sends the group a small
"changed, version N+1" message (like ``tables.write.announce.notify``), and every consumer in the
group answers it with one frame of ``?bytes=`` characters (the size of the app's frames)
carrying the same ``#table-data`` JSON the app's frames carry (version, whose turn it is, this
seat), so one load generator drives both. The turn simply passes to the next seat.

    DJANGO_SETTINGS_MODULE=benchmarks.load.relay_settings \\
        python -m config.serve -b 127.0.0.1 -p 8100 benchmarks.load.relay_app:application
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.load.relay_settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

MAX_BYTES = 200_000
LEGAL = {"fold": True, "check": True, "call": 0, "bet_or_raise": None}


@lru_cache(maxsize=64)
def _padding(size: int) -> str:
    return "x" * size


class RelayConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.group = f"relay.{kwargs['table']}"
        self.seat = int(kwargs["seat"])
        self.size = max(1, int(kwargs["size"]))
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        self.bytes = min(MAX_BYTES, max(0, int(query.get("bytes", ["2000"])[0])))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=self._frame(0, 0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
            version = int(message["version"])
        except (ValueError, KeyError, TypeError):
            return
        if message.get("type") == "action":
            following = (self.seat + 1) % self.size
            await self.channel_layer.group_send(
                self.group, {"type": "relay.changed", "version": version + 1, "to_act": following}
            )

    async def relay_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=self._frame(int(event["version"]), int(event["to_act"])))

    def _frame(self, version: int, to_act: int) -> str:
        data = {
            "version": version, "screen": "play", "you": self.seat, "to_act": to_act,
            "legal": LEGAL if to_act == self.seat else None, "hand_number": 1,
        }
        head = f'<section id="table-frame" data-version="{version}" data-screen="play">'
        tail = (
            '</section><script id="table-data" type="application/json">'
            f"{json.dumps(data)}</script>"
        )
        return head + _padding(max(0, self.bytes - len(head) - len(tail))) + tail


if "daphne.server" in sys.modules:
    # The same server as the app's: it accepts compressed frames from players who offer them.
    from config import compression

    compression.install()

application = ProtocolTypeRouter(
    {
        "websocket": URLRouter(
            [path("ws/relay/<int:table>/<int:seat>/<int:size>/", RelayConsumer.as_asgi())]
        ),
    }
)
