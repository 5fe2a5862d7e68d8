"""seed_demo: idempotent demo data (staff logins, paytables, tables) for the embedded product."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from audit.context import acting_as
from paytables.seed import seed_standard_paytables
from tables.demo import seed_triple_draw_tables
from tables.signals import demo_seeding

# Development passwords only: the command refuses to run with DEBUG off unless forced.
DEMO_USERS: list[dict[str, Any]] = [
    {"username": "admin", "password": "admin-demo-pw", "role": None, "is_superuser": True, "is_staff": True},
    {"username": "floor", "password": "floor-demo-pw", "role": "floor", "is_superuser": False, "is_staff": True},
    {"username": "dealer", "password": "dealer-demo-pw", "role": "dealer", "is_superuser": False, "is_staff": False},
    {
        "username": "compliance",
        "password": "compliance-demo-pw",
        "role": "compliance",
        "is_superuser": False,
        "is_staff": True,
    },
    {"username": "count", "password": "count-demo-pw", "role": "count", "is_superuser": False, "is_staff": False},
]


class Command(BaseCommand):
    help = "Create demo users, paytables and tables (idempotent). Refuses with DEBUG off unless --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="seed even though DEBUG is off")
        parser.add_argument("--host", default="http://127.0.0.1:8000", help="base URL to print")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("DEBUG is off: demo logins in production are refused (use --force to override)")
        with acting_as(kind="system", name="seed_demo"), transaction.atomic():
            users = {spec["username"]: self._user(spec) for spec in DEMO_USERS}
            self._seed_rest(users)
        base = options["host"].rstrip("/")
        self.stdout.write(f"Demo data ready. Open {base}/")
        self.stdout.write(f"  Admin (floor staff): {base}/admin/")
        self.stdout.write(f"  Dealer tablet:       {base}/tablet/")
        self.stdout.write(f"  Floor view:          {base}/floor/")
        self.stdout.write(f"  Shift books:         {base}/floor/shifts/")
        self.stdout.write(f"  Reports:             {base}/floor/reports/")
        self.stdout.write(f"  API docs:            {base}/api/docs/")
        self.stdout.write(f"  Health:              {base}/healthz")
        self.stdout.write("  Demo logins (development passwords):")
        for spec in DEMO_USERS:
            self.stdout.write(f"    {spec['username']:<11} {spec['password']:<20} {spec['role'] or 'superuser'}")

    def _user(self, spec: dict[str, Any]) -> User:
        user, created = User.objects.get_or_create(username=spec["username"])
        user.is_superuser = spec["is_superuser"]
        user.is_staff = spec["is_staff"]
        if created or not user.check_password(spec["password"]):
            user.set_password(spec["password"])
        user.save()
        if spec["role"]:
            user.groups.add(Group.objects.get(name=spec["role"]))
        return user

    def _seed_rest(self, users: dict[str, User]) -> None:
        """Paytables and tables of every type; each app adds its part here as it lands."""
        seed_standard_paytables(users["floor"])
        seed_triple_draw_tables(users)
        demo_seeding.send(sender=self.__class__, users=users)
