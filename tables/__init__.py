"""The tables app, by layer (README's layout table says the same); each layer imports only the
layers below it, and each holds one module per feature (table, talk, season, tournament):

- ``models/``: the rows, one module per feature (``models.table``, ``models.talk``,
  ``models.season``, ``models.tournament``);
- ``cache/``: every cache, behind one interface;
- ``read/``: queries and what pages show (your games, statistics, a tournament's lobby, recap and
  hands);
- ``draw/``: what pages and the live side both draw (the log in words, hand names, QR codes);
- ``write/``: every change, through one write path (``write.path.apply_change``): tables,
  tournaments, groups, identity, staff actions;
- ``live/``: each phone's websocket and what it is shown;
- ``pages/``: views, forms and URLs, one module per feature;
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
