"""Every cache of the tables app, behind this one interface: import from ``tables.cache``, never
from its modules. Each is kept in the memory of one server process; none holds anything a
phone may not see except the versions (engine state, deck included), which never leave the
process. Each stays because a benchmark showed it pays (benchmarks/README.md).

What is kept, keyed by what, and when it goes:

- **Versions of tables** (``versions``: ``Snapshot``): a table at one version, keyed by table
  id, code, creation time and version (SQLite may reuse a deleted table's id). Put there by the
  write path once its change commits (``remember``), worked out from the version before and
  another process's step (``derive``), or loaded (``load_snapshot``). A version never changes,
  so nothing is invalidated: a table keeps its two newest, the process 1,024 in all (oldest
  first). With them, the seats as the last change here left them (``kept_seats``, by table
  id; used only when the version matches). Pays: a change of play without reading the table,
  and every connection drawing a version without a query or a replay. The clock finds the
  deadlines due among them (``due_held``) and fires them from the row held (``table_at``):
  no query a tick.
- **Kept drawings** (``fragments``: ``render_component``): the HTML of a component, keyed by
  its template, the language and every parameter's value, so a kept drawing is only given to
  a frame that passed exactly those values; values new at every frame are written into the
  kept drawing (``slot``). 8,192 at most, oldest first; all dropped when a template file is
  edited (development). Pays: 0.41 vs 0.83 ms per frame (benchmarks/bench_frames.py).
- **Compiled queries** (``queries``: ``Prepared``, ``update_fields``): the SQL of the few
  queries run at every change, keyed by the query and the database connection, built by the
  ORM once per connection. Pays: building the SQL cost more than running it
  (benchmarks/profile_action.py); against the plain ORM doing the same
  (benchmarks/bench_queries.py, SQLite, same run) the locked read is 3.3 times, the seats
  4.2 times, the row's update 2.0 times and the load of a table with its seats 8.5 times
  faster, so they stay.
- **Computer players' memory** (``hands``: ``past_views``): the views of a game's finished
  hands, keyed by table, code and seat, grown by each hand finished since; 512, oldest first.
- **Action logs** (``logs``: ``read_log``): a hand's log in words, keyed by table and
  language and kept for one hand (its number, deal and names: the next hand's replaces it),
  grown by the events since the last version; 1,024, oldest first.
"""

from __future__ import annotations

from tables.cache.fragments import clear as clear_fragments
from tables.cache.fragments import printed, render_component, slot
from tables.cache.hands import past_views
from tables.cache.logs import read_log
from tables.cache.queries import Prepared, update_fields
from tables.cache.versions import (
    ROW_FIELDS,
    SEAT_FIELDS,
    SeatInfo,
    Snapshot,
    cached_snapshot,
    derive,
    due_held,
    forget_all,
    holds_paused,
    keep_seats,
    kept_seats,
    latest_game,
    load_snapshot,
    newest,
    remember,
    seat_rows_of,
    table_at,
    table_by_id,
)

__all__ = [
    "ROW_FIELDS",
    "SEAT_FIELDS",
    "Prepared",
    "SeatInfo",
    "Snapshot",
    "cached_snapshot",
    "clear_fragments",
    "derive",
    "due_held",
    "forget_all",
    "holds_paused",
    "keep_seats",
    "kept_seats",
    "latest_game",
    "load_snapshot",
    "newest",
    "past_views",
    "printed",
    "read_log",
    "remember",
    "render_component",
    "seat_rows_of",
    "slot",
    "table_at",
    "table_by_id",
    "update_fields",
]
