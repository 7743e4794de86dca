"""ASGI entry point: HTTP through Django, websockets through Channels, and the table clock.

Websockets pass the Origin check (AllowedHostsOriginValidator) and the session middleware: the
session cookie is how a phone proves which seats are its own (there are no accounts).
The clock loop (tables.clock) starts inside this process when the server starts (Daphne) or
on the first connection (any other ASGI server), unless TABLES_CLOCK_IN_SERVER is off.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()  # sets Django up before the imports below

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from tables import clock  # noqa: E402
from tables.live.routing import websocket_urlpatterns  # noqa: E402


class ClockStarter:
    """Starts the clock in the server's event loop: at lifespan start-up, else on first use."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    clock.start_in_process()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        clock.start_in_process()
        await self.app(scope, receive, send)


# The database thread gets its turn soon after each query instead of waiting out a frame being
# drawn (see SERVER_SWITCH_INTERVAL).
sys.setswitchinterval(settings.SERVER_SWITCH_INTERVAL)
# Drawing frames makes and drops many small objects: the objects loaded at start-up are left
# out of garbage collections from now on (gc.freeze) and the young generation is collected
# less often. A little memory for about 5% more actions per second (benchmarks/load).
gc.freeze()
gc.set_threshold(50_000, 20, 50)

application = ClockStarter(
    ProtocolTypeRouter(
        {
            # Static files are served by WhiteNoise's middleware (config/static.py).
            "http": django_application,
            "websocket": AllowedHostsOriginValidator(
                SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)

if "daphne.server" in sys.modules:
    # Daphne has no lifespan events: start the clock as soon as its reactor runs, so deadlines
    # that passed while the server was down fire without waiting for a first visitor.
    from twisted.internet import reactor as _reactor

    # Startup triggers run just before the asyncio loop does: defer one turn into the loop.
    reactor: Any = _reactor
    reactor.callWhenRunning(lambda: reactor.callLater(0, clock.start_in_process))
    if settings.WEBSOCKET_COMPRESSION:
        # Daphne makes its websocket factory when it starts running, after importing this.
        from config import compression

        compression.install()
    from config import websocket_limits

    websocket_limits.install(settings.WEBSOCKET_MAX_MESSAGE)
