"""flush: Django's whole-database reset, allowed past the audit triggers (the trail's only bypass).

It empties the audit trail too, so it is refused unless DEBUG is on, `--i-know` is given, or Django's test
environment is set up (transactional tests end with a flush).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import mail
from django.core.management.base import CommandError, CommandParser
from django.core.management.commands.flush import Command as FlushCommand
from django.db import connections

from audit import db_guard

REFUSED = (
    "flush empties the whole database, the audit trail included, and DEBUG is off: refused. "
    "Pass --i-know if you really mean to erase this database."
)


def _test_environment() -> bool:
    # setup_test_environment() (Django's runner, pytest-django) installs mail.outbox; nothing else does.
    return hasattr(mail, "outbox")


class Command(FlushCommand):
    help = (
        FlushCommand.help + " The audit trail is emptied too: flush resets the whole database. "
        "Refused with DEBUG off unless --i-know is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--i-know", action="store_true", help="erase this database although DEBUG is off")

    def handle(self, **options: Any) -> None:
        if not (settings.DEBUG or options.get("i_know") or _test_environment()):
            raise CommandError(REFUSED)
        with db_guard.flush_bypass(connections[options["database"]]):
            super().handle(**options)
