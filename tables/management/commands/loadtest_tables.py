"""Create started tables for the load benchmark and the two-process test (not for players).

Each table goes through the real flows (``create_table``, ``join_table``, ``start_game``): the
host's session creates it, every other person joins with a session of their own, the host
starts, and any seat left empty becomes a computer player. Prints JSON (or writes it to
``--output``) that a websocket client needs to sit down::

    {"tables": [{"id": 7, "code": "K7Q4MX", "version": 1,
                 "players": [{"position": 0, "session": "<session key>"}, ...]}]}

The session key goes in the ``sessionid`` cookie of the websocket handshake.
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.timebank import BANK_CHOICES
from tables import claims
from tables.models import Table
from tables.write import lobby

MAX_TABLES = 500


class Command(BaseCommand):
    help = "Create started tables with person seats held by new sessions (load tests only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=1)
        parser.add_argument("--persons", type=int, default=6, help="person seats per table")
        parser.add_argument("--seats", type=int, default=6, help="seats per table (2-6)")
        parser.add_argument("--turn-seconds", type=int, default=90)
        # P4: none by default, so that an absent person's turn lasts the time to act alone,
        # as the load tests and the chaos soak were measured.
        parser.add_argument("--time-bank", type=int, default=0, choices=BANK_CHOICES)
        parser.add_argument("--level", default="easy", choices=["easy", "medium", "hard"])
        parser.add_argument("--output", default="", help="write the JSON here, not to stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        count, persons, seats = options["tables"], options["persons"], options["seats"]
        if not 1 <= count <= MAX_TABLES:
            raise CommandError(f"--tables must be 1 to {MAX_TABLES}")
        if not 2 <= seats <= 6 or not 1 <= persons <= seats:
            raise CommandError("--seats must be 2 to 6 and --persons 1 to --seats")
        if not 1 <= options["turn_seconds"] <= 600:
            raise CommandError("--turn-seconds must be 1 to 600")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        table_settings = lobby.TableSettings(
            seat_count=seats, max_hands=None, blind_every=10,
            computer_level=options["level"], turn_seconds=options["turn_seconds"],
            time_bank=options["time_bank"],
        )
        made = []
        for number in range(count):
            host = store()
            table = lobby.create_table(host, ["P1"], table_settings)
            host.save()
            sessions = [host]
            for extra in range(1, persons):
                guest = store()
                lobby.join_table(table.id, f"P{extra + 1}", guest)
                guest.save()
                sessions.append(guest)
            lobby.start_game(table.id, claims.session_hashes(host))
            table = Table.objects.get(pk=table.id)
            players = []
            for session in sessions:
                hashes = set(claims.session_hashes(session))
                position = next(
                    s.position for s in table.seats.all() if s.claim_hash in hashes
                )
                players.append({"position": position, "session": session.session_key})
            made.append(
                {"id": table.id, "code": table.code, "version": table.version, "players": players}
            )
            if (number + 1) % 20 == 0:
                self.stderr.write(f"{number + 1} tables")
        text = json.dumps({"tables": made})
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
        else:
            self.stdout.write(text)
