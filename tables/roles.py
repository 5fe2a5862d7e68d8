"""Which Django permissions each staff group holds; synced by a data migration and after every migrate."""

from __future__ import annotations

from typing import Any

# Apps whose models staff work with. Floor runs the casino, dealers run tables through services
# (their API and tablet access is checked by role and table assignment, not by model permissions),
# compliance reads everything and writes nothing.
STAFF_APPS = ("tables", "paytables", "audit")
ROLE_POLICY: dict[str, dict[str, tuple[str, ...]]] = {
    "floor": {"tables": ("view", "add", "change"), "paytables": ("view", "add", "change"), "audit": ("view",)},
    "dealer": {"tables": ("view",), "paytables": ("view",)},
    "compliance": {"tables": ("view",), "paytables": ("view",), "audit": ("view",)},
}


def sync_role_permissions(group_model: Any, permission_model: Any) -> None:
    """Create the groups and set each one's permissions to exactly the policy (idempotent)."""
    for role, grants in ROLE_POLICY.items():
        group, _ = group_model.objects.get_or_create(name=role)
        wanted = []
        for app_label, actions in grants.items():
            for action in actions:
                wanted.extend(
                    permission_model.objects.filter(
                        content_type__app_label=app_label, codename__startswith=f"{action}_"
                    )
                )
        group.permissions.set(wanted)


def sync_after_migrate(sender: Any, **kwargs: Any) -> None:
    """post_migrate receiver: new models get their permissions into the groups without a new migration."""
    from django.contrib.auth.models import Group, Permission

    sync_role_permissions(Group, Permission)
