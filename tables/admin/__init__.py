"""The moderation admin (staff only): tables, their hands, and the log of moderation actions.

Nothing here edits a table directly. Every moderation action goes through
``tables.write.moderation`` and so through the one write path (locked row, version bump,
every phone told on commit), and is recorded with who, when, what and why. Raw engine state
is never shown: a table's state and a hand's record hold the deck, and a hand in progress is
shown only as a spectator sees it. Finished hands are shown in full (every hole card) as
PokerStars text.

- ``tables``: the tables, with search, filters and the moderation actions' forms;
- ``hands``: a table's hands (finished ones in full, one in progress as a spectator sees it);
- ``log``: the moderation log, read-only;
- ``groups``: the groups of your games, their names and the games of their seasons;
- ``login``: the admin's login page, with wrong passwords counted and throttled;
- ``bases``: the admin's base classes, typed by model.
"""

from __future__ import annotations

# Importing the modules registers their admins with the site.
from tables.admin import groups, hands, log, tables

__all__ = ["groups", "hands", "log", "tables"]
