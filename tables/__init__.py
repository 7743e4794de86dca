"""The tables app, by room (README's layout table says the same):

- ``models``: the rows (tables, seats, hands, the moderation log);
- ``write/``: every change, through one write path (``write.path.apply_change``);
- ``live/``: each phone's websocket and what it is shown;
- ``cache/``: every cache, behind one interface;
- ``pages/``: views, forms, URLs, histories and exports;
- ``clock``: deadlines fired once (``computer``: the computer players' decisions);
- ``admin``: staff moderation (through ``write.moderation``);
- ``codes``, ``claims``, ``ratelimit``: join codes, seat claims without accounts, wrong-code limits;
- ``lookups``: which table, tournament or group a code names (every miss counted).
"""
