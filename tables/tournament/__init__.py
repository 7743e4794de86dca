"""A tournament above the tables: its rows (``tables.tournament.models``), creating
and starting it (``tables.tournament.setup``), and what happens between two hands of one of
its tables: places, moves, breaking, the level, the end (``tables.tournament.between``).
"""
