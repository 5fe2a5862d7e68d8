"""verify_audit: seal pending events, recompute the hash chain and report the first broken link (exit 1)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from audit.context import acting_as
from audit.services import audit_chain_seal, audit_chain_verify


class Command(BaseCommand):
    help = "Verify the audit hash chain; prints the first broken event and exits 1 when the chain is broken."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-seal", action="store_true", help="do not seal pending events first")

    def handle(self, *args: Any, **options: Any) -> None:
        with acting_as(kind="system", name="verify_audit", user=None):
            if not options["no_seal"]:
                sealed = audit_chain_seal()
                if sealed:
                    self.stdout.write(f"sealed {sealed} pending events")
            report = audit_chain_verify()
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"audit chain OK: {report.message}"))
            return
        self.stderr.write(
            f"audit chain BROKEN at event id {report.first_broken_id} (sequence {report.first_broken_sequence}): "
            f"{report.message}"
        )
        sys.exit(1)
