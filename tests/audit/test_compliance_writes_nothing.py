"""Compliance is read-only everywhere but its own work: every unsafe request it can make to any other screen or API
changes nothing. Its own work (issue 16) is reviewing exceptions and starting a chain verification, each audited;
tests/audit/test_exception_review.py and test_chain_status.py cover those.

Every write goes through a service that records an audit event, so an unchanged trail (and unchanged row counts
in every table) after all of them means nothing was written.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from audit.models import AuditEvent
from tests.url_routes import all_routes, fill

# Sign-in flows change only the caller's own session; the admin has its own test (test_admin.py).
SKIP = re.compile(
    r"^(admin/|accounts/|tablet/login/|tablet/logout/|\^api/"
    r"|compliance/exceptions/<int:case_id>/(review|notes|sign-off)/|compliance/chain/verify/$)"
)
UNSAFE = ("post", "put", "patch", "delete")


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_compliance_cannot_write_through_any_screen_or_api(compliance_user: User) -> None:
    call_command("seed_demo", "--force", verbosity=0)
    admin_client = Client()
    admin_client.force_login(User.objects.get(username="admin"))
    # Real ids of seeded rows: a reused test database does not restart its sequences at 1.
    table_id = apps.get_model("tables", "Table").objects.order_by("pk").values_list("pk", flat=True).first()
    paytable_id = apps.get_model("paytables", "Paytable").objects.order_by("pk").values_list("pk", flat=True).first()
    admin_client.post(f"/api/v1/tables/{table_id}/open/", content_type="application/json")
    # A round starts only with a player seated.
    admin_client.post(f"/api/v1/tables/{table_id}/seats/", {"seat": 1}, content_type="application/json")
    admin_client.post(f"/api/v1/tables/{table_id}/rounds/", content_type="application/json")
    assert AuditEvent.objects.exclude(round_id=None).exists(), "a real round for the round endpoints"
    last = AuditEvent.objects.order_by("-id").first()
    ids: dict[str, int | str] = {
        "table_id": table_id,
        "round_id": AuditEvent.objects.exclude(round_id=None).values_list("round_id", flat=True).first() or 1,
        "paytable_id": paytable_id,
        "event_id": last.id if last else 1,
        "seat": 1,
    }
    routes = [r for r in all_routes() if not SKIP.match(r)]
    assert any(r.startswith("api/v1/rounds/") for r in routes)
    client = Client()
    client.force_login(compliance_user)
    before_events, before_rows = AuditEvent.objects.count(), _row_counts()
    accepted = []
    for route in routes:
        url = fill(route, ids)
        for method in UNSAFE:
            response = getattr(client, method)(url, data="{}", content_type="application/json")
            # The landing page renders whatever the method; the row counts below prove it writes nothing.
            if response.status_code < 400 and url != "/":
                accepted.append(f"{method.upper()} {url} -> {response.status_code}")
    assert AuditEvent.objects.count() == before_events
    assert _row_counts() == before_rows
    assert accepted == [], "compliance requests that were not refused:\n" + "\n".join(accepted)
