"""Minimal Django settings for the reference relay (benchmarks/load/relay_app.py).

The same channel layer as the real app: Redis pub/sub when REDIS_URL (or REDIS_SENTINELS) is set,
else in memory.
"""

from __future__ import annotations

import os

from config.channel_layers import from_environment

SECRET_KEY = "relay-benchmark-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["channels"]
USE_TZ = True
DATABASES: dict[str, dict[str, str]] = {}

CHANNEL_LAYERS = from_environment(os.environ)
