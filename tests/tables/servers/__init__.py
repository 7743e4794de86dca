"""Tests on real server processes (tests/helpers/servers.py): Daphne, a Redis of the test's own,
two processes sharing PostgreSQL and Redis, a restart, compressed frames off the wire."""
