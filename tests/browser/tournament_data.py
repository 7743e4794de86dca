"""Seeds the browser tests' server database with a tournament of 13 (five people, computers
filling up) played to its end through the real clock (three tables; moves, breaks, places),
again until a person played at two of its tables, and a second one just started
(seven entrants, one of them the same person); prints JSON: the session key of a person who
played at two tables of the first, its code, and the second's code and that person's table
there. Run with the server's DATABASE_URL: ``python -m tests.browser.tournament_data``."""

from __future__ import annotations

import json
import os
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.utils import timezone  # noqa: E402

from tables import claims, clock  # noqa: E402
from tables.models import Hand  # noqa: E402
from tables.models.tournament import Entrant, Tournament  # noqa: E402
from tables.read import tournament_history as history  # noqa: E402
from tables.write import tournament_setup as setup  # noqa: E402

LATER = timedelta(minutes=5)


PEOPLE, ENTRANTS = 5, 13  # three tables; computers fill up (they play fast)


def _played() -> tuple[Tournament, tuple[str, str, SessionStore]] | None:
    """A tournament played to its end, and a person who played at two of its tables (None
    when no person moved before going out)."""
    sessions = [SessionStore() for _ in range(PEOPLE)]
    people = [(f"Friend {i + 1}", claims.new_claim(s)) for i, s in enumerate(sessions)]
    for session in sessions:
        session.save()
    over = setup.create(people, entrants_wanted=ENTRANTS, level_hands=1, computer_level="easy")
    setup.start(over.id)
    for _tick in range(100_000):
        over.refresh_from_db()
        if over.status == Tournament.Status.FINISHED:
            break
        clock.tick(timezone.now() + LATER)
    else:
        raise SystemExit("the tournament did not end")
    for (name, claim), session in zip(people, sessions, strict=True):
        if len({p.code for p in history.player_hands(over, [claim])}) >= 2:
            return over, (name, claim, session)
    return None


def main() -> None:
    for _attempt in range(10):
        found = _played()
        if found is not None:
            break
    else:
        raise SystemExit("no person played at two tables in ten tournaments")
    over, mover = found
    name, claim, session = mover
    # The second tournament: the same person and six computers, just started.
    running = setup.create([(name, claim)], entrants_wanted=7, level_hands=5)
    setup.start(running.id)
    entrant = Entrant.objects.get(tournament=running, claim_hash=claim)
    assert entrant.table is not None
    print(json.dumps({
        "session": session.session_key, "name": name, "over": over.code,
        "running": running.code, "table": entrant.table.code,
        "over_table": over.tables.order_by("tournament_number").values_list(
            "code", flat=True
        ).first(),
        "hands": Hand.objects.filter(table__tournament=over, ended_at__isnull=False).count(),
    }))


if __name__ == "__main__":
    main()
