"""The project's configuration: what Django and the servers are started with.

- ``settings``: the settings, from environment variables; ``database``: ``DATABASE_URL``
  read, several PostgreSQL hosts too (a primary and its standby); ``urls``: the site's URL
  patterns; ``asgi``: the entry point (HTTP, websockets, the table clock); ``serve``: Daphne
  started on uvloop's event loop;
- ``channel_layers``: the channel layer for a ``REDIS_URL`` or Redis Sentinels;
  ``compression``: compressed websocket frames; ``unindent``: pages sent without their
  templates' indentation;
- ``static``: static files with hashed names, gzip and Brotli, served as immutable;
- ``security``: the CSP and Permissions-Policy headers, and ``Cache-Control: private,
  no-store`` on private pages; ``errors``: the 503 page while the database is away, and the
  500 page; ``websocket_limits``: a close frame with a reason for an oversized message;
- ``health``: /healthz and /metrics; ``logs``: log lines as JSON objects;
- ``vapid``: the key pair that signs Web Push requests.
"""
