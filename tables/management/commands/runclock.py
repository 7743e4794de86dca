"""Run the clock on its own (when the servers run with TABLES_CLOCK_IN_SERVER=false).

Safe beside any number of other clocks: each deadline fires once (see tables.clock). With
several processes, the channel layer must be Redis so the frames reach every server.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables import clock
from tables.management.options import setting_option


class Command(BaseCommand):
    help = "Fire table deadlines (computer players, time-outs, next hands) until stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        setting_option(parser, "--interval", "TABLES_CLOCK_INTERVAL",
                       "seconds between looks for due deadlines")
        parser.add_argument("--once", action="store_true", help="fire what is due now and exit")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            fired = clock.tick()
            self.stdout.write(f"fired {fired} deadline(s)")
            return
        with contextlib.suppress(KeyboardInterrupt):
            # A clock beside the servers holds few tables: it asks the database at every tick.
            asyncio.run(clock.run_forever(
                options["interval"], poll=options["interval"], most=options["interval"]
            ))
