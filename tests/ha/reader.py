"""A server process's kept connection across a failover, as a request finds it.

    python -m tests.ha.reader [--no-health-checks]

Run with DJANGO_SETTINGS_MODULE and DATABASE_URL naming both servers. Connects (the
connection a process keeps, CONN_MAX_AGE), prints ``ready <port>``, waits for a line on stdin
(the test kills the primary meanwhile), then does what a request does: Django's
``close_old_connections()`` at its start, then one query, and prints ``ok <port>`` or
``error <type>``. ``--no-health-checks`` turns Django's check of a kept connection off (to show
what it is for).
"""

from __future__ import annotations

import sys


def main() -> None:
    import django

    django.setup()
    from django.db import close_old_connections, connection

    from tables.models import Table
    from tables.write.reconnect import DATABASE_AWAY

    if "--no-health-checks" in sys.argv:
        connection.settings_dict["CONN_HEALTH_CHECKS"] = False
    Table.objects.count()
    print("ready", connection.connection.info.port, flush=True)
    sys.stdin.readline()
    close_old_connections()  # a request begins (Django's request_started signal)
    try:
        Table.objects.count()
    except DATABASE_AWAY as exc:
        print("error", type(exc).__name__, flush=True)
        return
    print("ok", connection.connection.info.port, flush=True)


if __name__ == "__main__":
    main()
