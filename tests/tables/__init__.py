"""Tests of the tables app, in one folder per room of ``tables/`` (the room of the code a test
is about, whatever the feature: a tournament's rules in ``write``, its pages in ``pages``):

- ``models``: the rows and what they are given when made (join codes);
- ``cache``: the caches;
- ``write``: every change (the write path, the clock, the host, late arrivals, seat moves,
  retention, a tournament's rules and moves), and the races only PostgreSQL shows;
- ``read``: queries and read models (your games, statistics, a tournament's history and recap,
  the hands each seat's phone may see);
- ``live``: the websocket consumer, its handlers, the frames each phone is drawn;
- ``pages``: the pages, their forms and exports;
- ``admin``: staff moderation;
- ``servers``: the tests that start real processes (Daphne, a Redis of their own, two servers
  sharing PostgreSQL and Redis), whatever room they test.

Helpers live in ``helpers`` (phones, frames, pages, tournaments, windows, the driver), never in
a test module; fixtures in ``conftest`` (``new_phone``). A test needing PostgreSQL and Redis is
marked ``services`` (tests/conftest.py skips it without them).
"""
