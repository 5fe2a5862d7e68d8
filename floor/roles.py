"""The count team's group and what each staff group may do with the floor app's models, synced like tables/roles.py
(by a data migration and after every migrate); roles themselves are checked in floor/access.py."""

from __future__ import annotations

from typing import Any

from audit.roles import COMPLIANCE, COUNT, DEALER, FLOOR

APP_LABEL = "floor"
# Floor staff keep the books, compliance and the count team read them (the count team enters drops through its
# screen, which checks the role), dealers sign slips through the floor's screen and need no model permission.
FLOOR_APP_POLICY: dict[str, tuple[str, ...]] = {
    FLOOR: ("view", "add", "change"),
    COMPLIANCE: ("view",),
    COUNT: ("view",),
    DEALER: (),
}


def sync_floor_permissions(group_model: Any, permission_model: Any) -> None:
    """Create the groups and set each one's floor-app permissions to exactly the policy, leaving other apps' alone."""
    for role, actions in FLOOR_APP_POLICY.items():
        group, _ = group_model.objects.get_or_create(name=role)
        others = list(group.permissions.exclude(content_type__app_label=APP_LABEL))
        wanted = [
            permission
            for action in actions
            for permission in permission_model.objects.filter(
                content_type__app_label=APP_LABEL, codename__startswith=f"{action}_"
            )
        ]
        group.permissions.set(others + wanted)


def sync_after_migrate(sender: Any, **kwargs: Any) -> None:
    """post_migrate receiver (floor is installed after tables, whose sync resets the groups' other permissions)."""
    from django.contrib.auth.models import Group, Permission

    sync_floor_permissions(Group, Permission)
