"""The websocket URL of a table: one connection per phone (``consumer.TableConsumer``).

Any other path is accepted and closed at once with code 4404 (``UnknownPath``): Channels'
router would otherwise fail the handshake with an error and a traceback in the log.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from tables.live.consumer import CLOSE_UNKNOWN_TABLE, TableConsumer


class UnknownPath(AsyncWebsocketConsumer):  # type: ignore[misc]  # untyped base
    """A websocket opened at a path that has none: closed with a code, nothing logged."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_UNKNOWN_TABLE, reason="no websocket at this path")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # anything sent before the close arrives is ignored


websocket_urlpatterns = [
    path("ws/t/<str:code>/", TableConsumer.as_asgi()),
    re_path(r"", UnknownPath.as_asgi()),
]
