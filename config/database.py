"""``DATABASE_URL`` read into Django's ``DATABASES["default"]``, several PostgreSQL hosts too.

A primary and its standby (Patroni, deploy/patroni/) are named together, as libpq takes them::

    postgres://holdem:...@10.0.0.1:5432,10.0.0.2:5432/holdem?target_session_attrs=read-write

libpq tries the hosts in turn and keeps the first that accepts writes, so after a failover
every new connection finds the new primary by itself (no proxy in between). Django hands
``HOST`` and ``PORT`` to libpq as they are, and libpq takes comma-separated lists there; the
query's parameters (``target_session_attrs``, ``connect_timeout``) go to libpq as
``OPTIONS``. dj-database-url reads one host only, so the list is taken out before it parses
the rest and put back after.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import dj_database_url

DEFAULT_PORT = "5432"


def split_hosts(url: str) -> tuple[str, list[tuple[str, str]]]:
    """The URL with its first host only, and every host with its port ("" when none is given).
    A URL of one host comes back as it is, with an empty list."""
    parts = urlsplit(url)
    userinfo, at, hostlist = parts.netloc.rpartition("@")
    if "," not in hostlist:
        return url, []
    hosts = [_host_port(entry) for entry in hostlist.split(",")]
    if any(not host for host, _port in hosts):
        raise ValueError(f"an empty host in {hostlist!r}")
    first = hostlist.split(",")[0]
    return urlunsplit(parts._replace(netloc=f"{userinfo}{at}{first}")), hosts


def _host_port(entry: str) -> tuple[str, str]:
    entry = entry.strip()
    if entry.startswith("["):  # [::1]:5432
        host, _, rest = entry[1:].partition("]")
        return host, rest.removeprefix(":")
    host, _, port = entry.partition(":")
    if port and not port.isdigit():
        raise ValueError(f"the port of {entry!r} is not a number")
    return host, port


def parse(url: str, conn_max_age: int) -> dict[str, Any]:
    """Django's settings for the database at ``url`` (raises on a URL that is not one)."""
    single, hosts = split_hosts(url)
    settings = dict(dj_database_url.parse(single, conn_max_age=conn_max_age))
    if hosts:
        if not str(settings["ENGINE"]).endswith("postgresql"):
            raise ValueError("several hosts are for PostgreSQL only")
        settings["HOST"] = ",".join(host for host, _port in hosts)
        ports = [port for _host, port in hosts]
        # libpq wants one port for all, or one per host
        settings["PORT"] = ",".join(port or DEFAULT_PORT for port in ports) if any(ports) else ""
        # A kept connection (CONN_MAX_AGE) may point at a primary that died since it was last
        # used: Django asks it for a "SELECT 1" before a request's (a websocket message's)
        # first query and opens a new one, on the new primary, if it does not answer. One
        # round trip a request, paid only by the deployments that can fail over.
        settings["CONN_HEALTH_CHECKS"] = True
    return settings
