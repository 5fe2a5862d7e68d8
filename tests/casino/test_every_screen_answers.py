"""Every screen answers without a server error on the demo data: each page route (for every table, each kind) and
every admin list, search, add and change page, read by the superuser. On PostgreSQL this also runs each screen's
queries with parameters sent apart from the statement (DATABASE_PREPARED_STATEMENTS), which PostgreSQL types and
groups differently from quoted values."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from floor.gaming_day import gaming_day
from tests.url_routes import all_routes, fill

# Not here: sign-in and sign-out flows (their own tests), the admin (swept model by model below), the health check
# and the API's catch-all 404. The API's own routes are read too (tests/casino/test_api_contract.py fuzzes them).
SKIP = re.compile(r"^(admin/|accounts/|tablet/login/|tablet/logout/|\^api/|\^healthz)")


def _first(label: str) -> int:
    return apps.get_model(label).objects.order_by("pk").values_list("pk", flat=True).first() or 1


def _server_errors(client: Client, paths: list[str]) -> list[str]:
    failed = []
    for path in paths:
        response = client.get(path)
        if response.status_code >= 500:
            failed.append(f"GET {path} -> {response.status_code}")
    return failed


@pytest.fixture
def demo_admin(db: None) -> Client:
    """The demo data seeded, and a client signed in as its superuser."""
    call_command("seed_demo", "--force", verbosity=0)
    client = Client()
    client.force_login(User.objects.get(username="admin"))
    return client


def test_every_page_answers_the_superuser_without_a_server_error(demo_admin: Client) -> None:
    client = demo_admin
    # A home-game hand in play, for the hand's screens (the demo opens games but deals no hand).
    game = apps.get_model("tables.HomeGame").objects.filter(table__card_source="rng").order_by("pk").first()
    assert game is not None
    started = client.post(f"/api/v1/games/{game.pk}/hands/", {}, content_type="application/json")
    assert started.status_code == 201, started.content
    ids: dict[str, int | str] = {
        "round_id": _first("tables.Round"),
        "paytable_id": _first("paytables.Paytable"),
        "event_id": _first("audit.AuditEvent"),
        "case_id": _first("audit.ExceptionCase"),
        "game_id": game.pk,
        "hand_id": started.json()["id"],
        "slip_id": _first("floor.ChipSlip"),
        "seat": 1,
        "day": gaming_day(timezone.now()).isoformat(),
        "code": "day",
    }
    paths = []
    tables = list(apps.get_model("tables.Table").objects.values_list("pk", flat=True))
    for route in all_routes():
        if SKIP.match(route):
            continue
        # Each table: the dealer's screen differs by table type (Triple Draw, each home game, manual or rng).
        for table_id in tables if "<int:table_id>" in route else [0]:
            paths.append(fill(route, {**ids, "table_id": table_id}))
    assert len(paths) > 40
    assert _server_errors(client, paths) == []


def test_every_admin_list_search_add_and_change_page_answers_without_a_server_error(demo_admin: Client) -> None:
    paths = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        changelist = reverse("admin:{}_{}_changelist".format(*info))
        paths.append(changelist)
        if model_admin.search_fields:
            paths.append(changelist + "?q=a")
        paths.append(reverse("admin:{}_{}_add".format(*info)))
        first = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
        if first is not None:
            paths.append(reverse("admin:{}_{}_change".format(*info), args=[first]))
    assert len(paths) > 20
    assert _server_errors(demo_admin, paths) == []

