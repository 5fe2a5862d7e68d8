"""rebuild_floor_summaries: recompute the floor's summary rows from the ledger (all of it, or some gaming days)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.context import acting_as
from casino.errors import DomainError
from floor.params import parse_day
from floor.services.maintenance import summaries_rebuild_record
from floor.summaries import ledger_day_range, summaries_rebuild


class Command(BaseCommand):
    help = (
        "Recompute the floor's summary rows (per table and hour) from the ledger and the home-game source: every "
        "gaming day with a posting, or --from/--to (gaming days, inclusive). Reports read only these rows."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="first", help="first gaming day, YYYY-MM-DD")
        parser.add_argument("--to", dest="last", help="last gaming day, YYYY-MM-DD")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["first"] or options["last"]:
                first, last = parse_day(options["first"], "--from"), parse_day(options["last"], "--to")
            else:
                found = ledger_day_range()
                if found is None:
                    self.stdout.write("The ledger is empty: 0 summary rows.")
                    return
                first, last = found
        except DomainError as exc:
            raise CommandError(exc.message) from None
        if first > last:
            raise CommandError(f"--from {first.isoformat()} is after to {last.isoformat()}")
        started = time.perf_counter()
        with acting_as(kind="system", name="rebuild_floor_summaries"):
            rows = summaries_rebuild(first_day=first, last_day=last)
            summaries_rebuild_record(first_day=first, last_day=last, rows=rows)
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"{rows} summary row{'s' if rows != 1 else ''} for gaming days {first} to {last} ({seconds:.1f} s)"
        )
