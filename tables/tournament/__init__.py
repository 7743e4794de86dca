"""A tournament above the tables: one game played at several tables, with places at the end.

- ``models``: the tournament and its entrants (its tables are ``Table`` rows);
- ``setup``: creating a tournament, people joining it, starting it;
- ``between``: between two hands of one of its tables (busts, places, balancing, breaking, the
  level, the end); ``control``: the host's pause and resume of the whole tournament;
- ``views``, ``urls`` and ``forms``: its pages (creating, joining, the lobby, the CSV);
  ``summary``: what those pages show; ``line``: the line at the top of its table pages;
- ``recap``: the recap once it is over; ``history``: a player's hands across its tables.
"""
