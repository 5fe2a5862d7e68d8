"""verify_audit: seal pending events, recompute the hash chain and report the first broken link (exit 1).

With `--anchors FILE` it also compares the chain with the signed heads in FILE (AUDIT_ANCHOR_FILE, or a log
holding `audit-anchor` lines), which the database's owner cannot forge without AUDIT_ANCHOR_KEY.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from audit.anchors import AnchorError, anchor_key, read_anchors
from audit.context import acting_as
from audit.services import audit_chain_anchors_unusable, audit_chain_seal, audit_chain_verify


class Command(BaseCommand):
    help = "Verify the audit hash chain; prints the first broken event and exits 1 when the chain is broken."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-seal", action="store_true", help="do not seal pending events first")
        parser.add_argument(
            "--anchors",
            metavar="FILE",
            type=Path,
            help="also compare with the signed chain heads in FILE (needs AUDIT_ANCHOR_KEY)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with acting_as(kind="system", name="verify_audit", user=None):
            if not options["no_seal"]:
                sealed = audit_chain_seal()
                if sealed:
                    self.stdout.write(f"sealed {sealed} pending events")
            try:
                signed = read_anchors(options["anchors"], anchor_key()) if options["anchors"] else []
            except AnchorError as exc:
                audit_chain_anchors_unusable(str(exc), checked_by="verify_audit command")
                self.stderr.write(f"audit chain anchors unusable: {exc}")
                sys.exit(1)
            report = audit_chain_verify(signed=signed, checked_by="verify_audit command")
        if report.ok:
            self.stdout.write(self.style.SUCCESS(f"audit chain OK: {report.message}"))
            return
        self.stderr.write(
            f"audit chain BROKEN at event id {report.first_broken_id} (sequence {report.first_broken_sequence}): "
            f"{report.message}"
        )
        sys.exit(1)
