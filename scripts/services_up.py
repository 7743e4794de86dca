"""Exit 0 when the PostgreSQL and Redis URLs given on the command line both answer."""

from __future__ import annotations

import socket
import sys
from urllib.parse import urlparse


def reachable(url: str, default_port: int) -> bool:
    parts = urlparse(url)
    try:
        address = (parts.hostname or "127.0.0.1", parts.port or default_port)
        with socket.create_connection(address, 2):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    pg, redis = sys.argv[1], sys.argv[2]
    sys.exit(0 if reachable(pg, 5432) and reachable(redis, 6379) else 1)
