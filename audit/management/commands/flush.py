"""flush: Django's whole-database reset, allowed past the audit triggers (the trail's only bypass)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands.flush import Command as FlushCommand
from django.db import connections

from audit import db_guard


class Command(FlushCommand):
    help = FlushCommand.help + " The audit trail is emptied too: flush resets the whole database."

    def handle(self, **options: Any) -> None:
        with db_guard.flush_bypass(connections[options["database"]]):
            super().handle(**options)
