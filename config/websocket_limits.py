"""Daphne's websocket factory with this site's limits: an oversized message is answered.

Daphne accepts messages of up to 1 MB and its websocket library (autobahn) *drops* the TCP
connection when a frame breaks a limit or the protocol (its ``failByDrop`` default): the phone
sees a socket that died without a reason. ``install()`` (called from ``config.asgi`` under
Daphne) makes the factory

- refuse a message or frame larger than ``WEBSOCKET_MAX_MESSAGE`` bytes (default 64 KB; the
  tables app answers anything over ``TABLES_MAX_MESSAGE`` and under this with a readable
  "too long" error and keeps the socket open);
- close with a close frame that carries the code and a reason (1009 and "message exceeds
  payload limit of ... octets" for an oversized message, 1002 for a protocol error) instead
  of dropping the connection.
"""

from __future__ import annotations

from typing import Any


def _capped(value: Any, limit: int) -> int:
    """``value`` (autobahn's option: 0 means no limit) no larger than ``limit``."""
    return limit if not value else min(int(value), limit)


def install(max_message: int) -> None:
    """Wrap Daphne's websocket factory (idempotent; after ``compression.install``)."""
    from daphne import server as daphne_server

    current = daphne_server.WebSocketFactory
    if getattr(current, "limits_messages", False):
        return

    class LimitedWebSocketFactory(current):  # type: ignore[misc,valid-type]  # untyped base
        limits_messages = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(
                failByDrop=False, maxMessagePayloadSize=max_message,
                maxFramePayloadSize=max_message,
            )

        def setProtocolOptions(self, **options: Any) -> None:
            # Daphne sets its own sizes after making the factory: they never loosen ours.
            for key in ("maxMessagePayloadSize", "maxFramePayloadSize"):
                if key in options:
                    options[key] = _capped(options[key], max_message)
            options["failByDrop"] = False
            super().setProtocolOptions(**options)

    daphne_server.WebSocketFactory = LimitedWebSocketFactory
