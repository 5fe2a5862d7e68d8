"""seed_demo: idempotent demo data (staff logins, paytables, tables) for the embedded product."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse

from audit.context import acting_as
from casino.errors import DomainError
from paytables.seed import seed_standard_paytables
from tables.demo import seed_triple_draw_tables
from tables.home_demo import seed_home_tables
from tables.shoe_demo import DemoShoe, seed_shoe_credentials
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

# Where the banner's addresses point when no --host is given: `manage.py runserver`'s own default address.
DEFAULT_HOST = "http://127.0.0.1"
DEFAULT_PORT = 8000

# Every screen the banner prints (label, URL name); the README's first screen lists the same addresses.
BANNER_SCREENS: list[tuple[str, str]] = [
    ("Dealer tablet", "tablet:home"),
    ("Floor view", "floor:home"),
    ("Shift books", "floor:shift"),
    ("Reports", "floor:reports"),
    ("Admin (floor staff)", "admin:index"),
    ("Compliance (audit)", "audit:event-list"),
    ("API docs (Swagger)", "api-docs"),
    ("API docs (ReDoc)", "api-redoc"),
    ("OpenAPI schema", "api-schema"),
    ("Health", "healthz"),
]


def banner_base(host: str | None, port: int | None) -> str:
    """The base URL the banner prints: the server's port, not 8000 whatever it was asked for (the demo's addresses
    and each shoe's curl are pasted as printed)."""
    if port is None and host is None:
        env_port = os.environ.get("PORT", "").strip()
        if env_port and not env_port.isdigit():
            raise CommandError(f"PORT must be a port number, not {env_port[:20]!r}")
        port = int(env_port) if env_port else DEFAULT_PORT
    parts = urlsplit((host or DEFAULT_HOST).rstrip("/"))
    if port is not None:
        if not 0 < port < 65536:
            raise CommandError(f"--port must be 1 to 65535, not {port}")
        parts = parts._replace(netloc=f"{parts.hostname or '127.0.0.1'}:{port}")
    return urlunsplit(parts)


class Command(BaseCommand):
    help = "Create demo users, paytables and tables (idempotent). Refuses with DEBUG off unless --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="seed even though DEBUG is off")
        parser.add_argument("--host", help="base URL to print (default http://127.0.0.1 on --port)")
        parser.add_argument("--port", type=int, help="the port the server listens on, printed in every address "
                            "(default: the port in --host, else $PORT as `make run PORT=...` sets it, else 8000)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("DEBUG is off: demo logins in production are refused (use --force to override)")
        with acting_as(kind="system", name="seed_demo"), transaction.atomic():
            users = {spec["username"]: self._user(spec) for spec in DEMO_USERS}
            try:
                shoes = self._seed_rest(users)
            except DomainError as exc:
                # An existing login whose role was changed is left alone, so it may no longer do its part.
                raise CommandError(f"cannot seed the demo data with the existing logins: {exc.message}") from exc
        # Printed only once committed: a token shown for a credential rolled back would be refused.
        base = banner_base(options["host"], options["port"])
        self._banner(base)
        self._shoes_banner(base, shoes)

    def _shoes_banner(self, base: str, shoes: list[DemoShoe]) -> None:
        """Each demo shoe's token (issued this run; the last run's is revoked) and a curl that reports one card."""
        if not shoes:
            return
        self.stdout.write("  Card-reading shoes (a new token every run, the last one revoked): start a round or a hand")
        self.stdout.write("  on the tablet, then post the cards it asks for, in dealing order (README: Try the shoe):")
        for shoe in shoes:
            self.stdout.write(f"    {shoe.table_name} (table {shoe.table_id}, {shoe.device_name}): token {shoe.token}")
            self.stdout.write(f"      {shoe.curl(base)}")

    def _banner(self, base: str) -> None:
        """Every screen's address and every demo login: all a new user needs to start."""
        self.stdout.write(f"Demo data ready. Open {base}/")
        for label, name in BANNER_SCREENS:
            self.stdout.write(f"  {label + ':':<22} {base}{reverse(name)}")
        self.stdout.write(f"  Times are shown in {settings.TIME_ZONE} (set TIME_ZONE to change it).")
        self.stdout.write("  Demo logins (development passwords):")
        for spec in DEMO_USERS:
            self.stdout.write(f"    {spec['username']:<11} {spec['password']:<20} {spec['role'] or 'superuser'}")

    def _user(self, spec: dict[str, Any]) -> User:
        """A missing demo login is created; an existing user is left exactly as it is (password, flags, groups).

        Resetting an existing account to a password published in this file would hand it to anyone.
        """
        user, created = User.objects.get_or_create(username=spec["username"])
        if not created:
            self.stdout.write(f"  {spec['username']} exists already: left unchanged (password and role kept)")
            return user
        user.is_superuser = spec["is_superuser"]
        user.is_staff = spec["is_staff"]
        user.set_password(spec["password"])
        user.save()
        if spec["role"]:
            user.groups.add(Group.objects.get(name=spec["role"]))
        return user

    def _seed_rest(self, users: dict[str, User]) -> list[DemoShoe]:
        """Paytables and tables of every type, and a new token for each shoe; each app adds its part here as it
        lands."""
        # Drafted by the admin, approved by the floor supervisor: nobody approves their own paytable.
        seed_standard_paytables(users["floor"], drafter=users["admin"])
        tables = seed_triple_draw_tables(users) + seed_home_tables(users)
        shoes = seed_shoe_credentials(tables, users["floor"])
        demo_seeding.send(sender=self.__class__, users=users)
        return shoes
