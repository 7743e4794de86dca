"""The tables app, by room (README's layout table says the same):

- ``models``: the rows (tables, seats, hands, seat moves, the moderation log);
- ``write/``: every change, through one write path (``write.path.apply_change``);
- ``live/``: each phone's websocket and what it is shown;
- ``cache/``: every cache, behind one interface;
- ``pages/``: views, forms, URLs, histories and exports;
- ``season/``: your games, groups and their seasons, the statistics the table saw;
- ``tournament/``: a tournament above the tables, its pages and what happens between hands;
- ``clock``: deadlines fired once (``computer``: the computer players' decisions; ``bot_names``:
  the names they sit under);
- ``admin/``: staff moderation (through ``write.moderation``);
- ``codes``, ``claims``, ``ratelimit``: join codes, seat claims without accounts, wrong-code limits;
- ``lookups``: which table, tournament or group a code names (every miss counted);
- ``commitments``: the deck commitment's root shown at the table while a hand is on it;
- ``metrics`` and ``action_log``: the Prometheus counts and one log line per refused action;
- ``templatetags/``: the template tags of the table screens, talk, late arrivals, your games and
  tournaments; ``management/``: the commands (``create_admin``, ``runclock``...);
- ``apps``: the app's config; ``migrations/``: the schema's history.
"""
