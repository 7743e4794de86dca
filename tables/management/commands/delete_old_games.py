"""Delete the games that ended more than ``TABLES_KEEP_DAYS`` days ago (tables.write.retention).

Run daily by deploy/systemd/holdem-retention.timer; safe while the servers run and safe to run
twice. ``--dry-run`` says what would go and deletes nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.management.options import setting_option
from tables.write.retention import delete_old_games


class Command(BaseCommand):
    help = "Delete games that ended more than TABLES_KEEP_DAYS days ago, with their hands and talk."

    def add_arguments(self, parser: CommandParser) -> None:
        setting_option(parser, "--days", "TABLES_KEEP_DAYS",
                       "keep games that ended fewer days ago than this")
        parser.add_argument("--tables", type=int, default=100, help="games per batch")
        parser.add_argument("--rows", type=int, default=2000,
                            help="hands or chat lines per DELETE statement")
        parser.add_argument("--pause", type=float, default=0.05,
                            help="seconds to wait between batches (spares the database)")
        parser.add_argument("--dry-run", action="store_true", help="count, delete nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            done = delete_old_games(
                options["days"], tables=options["tables"], rows=options["rows"],
                pause=options["pause"], dry_run=options["dry_run"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        verb = "would delete" if options["dry_run"] else "deleted"
        self.stdout.write(f"{verb} {done.summary()} (ended over {options['days']} days ago)")
