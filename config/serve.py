"""Starts Daphne on uvloop's event loop: ``python -m config.serve [Daphne's own arguments]``.

Daphne runs Twisted on an asyncio event loop, and every frame a phone is sent passes through
that loop several times (the connection's task woken, Twisted's writer added and removed, the
socket written). With hundreds of phones the loop itself was the largest share of the server's
CPU (benchmarks/README.md, "Where the CPU goes"). uvloop is the same event loop written in C
on libuv: Twisted, Channels and the tables app run on it unchanged.

Daphne makes its loop when ``daphne.server`` is first imported, before it loads the
application, so the loop is chosen here, before Daphne is imported at all.
``SERVER_LOOP=asyncio`` keeps Python's own loop (the benchmarks' reference, or a platform
uvloop does not support); the same happens when uvloop cannot be imported.
"""

from __future__ import annotations

import asyncio
import os


def choose_loop(wanted: str | None = None) -> str:
    """Make new event loops uvloop's when ``wanted`` (default ``SERVER_LOOP``, else uvloop)
    asks for it and uvloop imports; return the loop chosen: "uvloop" or "asyncio"."""
    wanted = (wanted or os.environ.get("SERVER_LOOP") or "uvloop").strip().lower()
    if wanted not in ("uvloop", "asyncio"):
        raise SystemExit(f"SERVER_LOOP must be uvloop or asyncio, not {wanted!r}")
    if wanted == "asyncio":
        return "asyncio"
    try:
        import uvloop
    except ImportError:  # a platform without uvloop's wheels: Python's loop does the same job
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def main() -> None:
    choose_loop()
    from daphne.cli import CommandLineInterface  # imported only now: it makes the loop

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
