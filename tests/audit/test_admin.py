"""Admin: audit events are read-only for everyone (superusers too); AuditedModelAdmin records admin writes;
compliance can change nothing in any admin screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.admin.sites import AdminSite
from django.contrib.auth.models import Group, User
from django.forms import modelform_factory
from django.test import Client, RequestFactory

from audit.admin_mixins import AuditedModelAdmin
from audit.models import AuditEvent
from audit.services import audit_record


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser("root", password="pw-root-12345")


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_superusers_can_read_but_not_change_add_or_delete_events(superuser: User) -> None:
    event = audit_record(action="seat_join", reason="original")
    client = _client(superuser)
    assert client.get("/admin/audit/auditevent/").status_code == 200
    assert client.get(f"/admin/audit/auditevent/{event.id}/change/").status_code == 200
    assert client.post(f"/admin/audit/auditevent/{event.id}/change/", {"reason": "edited"}).status_code == 403
    assert client.get("/admin/audit/auditevent/add/").status_code == 403
    assert client.post(f"/admin/audit/auditevent/{event.id}/delete/", {"post": "yes"}).status_code == 403
    response = client.post(
        "/admin/audit/auditevent/", {"action": "delete_selected", "_selected_action": [event.id], "post": "yes"}
    )
    assert response.status_code in {200, 302}
    assert AuditEvent.objects.filter(id=event.id, reason="original").exists()


class GroupAdmin(AuditedModelAdmin):
    fields = ["name", "permissions"]


@pytest.mark.django_db
def test_audited_model_admin_records_add_change_and_delete_with_before_and_after(
    superuser: User, assert_audited: Any
) -> None:
    model_admin = GroupAdmin(Group, AdminSite())
    request = RequestFactory().post("/admin/")
    request.user = superuser
    form_class = modelform_factory(Group, fields=["name", "permissions"])

    form = form_class({"name": "pit-bosses"})
    assert form.is_valid()
    group = form.save(commit=False)
    model_admin.save_model(request, group, form, change=False)
    model_admin.save_related(request, form, [], change=False)
    added = assert_audited("admin_add", obj=group, actor=superuser)
    assert added.after["name"] == "pit-bosses"

    form = form_class({"name": "pit-supervisors"}, instance=Group.objects.get(pk=group.pk))
    assert form.is_valid()
    obj = form.save(commit=False)
    model_admin.save_model(request, obj, form, change=True)
    model_admin.save_related(request, form, [], change=True)
    assert_audited("admin_change", obj=group, before={"name": "pit-bosses"}, after={"name": "pit-supervisors"})

    model_admin.delete_model(request, Group.objects.get(pk=group.pk))
    assert_audited("admin_delete", object_id=str(group.pk), before={"name": "pit-supervisors"})
    assert not Group.objects.filter(pk=group.pk).exists()


@pytest.mark.django_db
def test_compliance_can_change_add_or_delete_nothing_in_any_admin(compliance_user: User) -> None:
    request = RequestFactory().get("/admin/")
    request.user = compliance_user
    registered = list(admin.site._registry.items())
    assert registered
    for model, model_admin in registered:
        label = model._meta.label
        assert not model_admin.has_add_permission(request), f"compliance may add {label}"
        assert not model_admin.has_change_permission(request), f"compliance may change {label}"
        assert not model_admin.has_delete_permission(request), f"compliance may delete {label}"


@pytest.mark.django_db
def test_compliance_posts_to_admin_add_pages_are_refused(compliance_user: User) -> None:
    client = _client(compliance_user)
    before = AuditEvent.objects.count()
    for model in admin.site._registry:
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/add/"
        assert client.post(url, {}).status_code == 403, url
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user"])
def test_floor_and_dealers_do_not_see_audit_events_in_the_admin_unless_granted(
    request: pytest.FixtureRequest, persona: str
) -> None:
    from django.contrib.auth.models import Permission

    user = request.getfixturevalue(persona)
    user.is_staff = True
    user.save()
    assert _client(user).get("/admin/audit/auditevent/").status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="use_compliance_screens"))
    user = User.objects.get(pk=user.pk)
    assert _client(user).get("/admin/audit/auditevent/").status_code == 200


@pytest.mark.django_db
def test_compliance_reads_audit_events_in_the_admin(compliance_user: User) -> None:
    assert _client(compliance_user).get("/admin/audit/auditevent/").status_code == 200


@pytest.mark.django_db
def test_staff_account_changes_in_the_admin_are_audited_without_secrets(
    superuser: User, dealer_user: User, assert_audited: Any
) -> None:
    client = _client(superuser)
    floor = Group.objects.get(name="floor")
    response = client.post(
        f"/admin/auth/user/{dealer_user.pk}/change/",
        {
            "username": "dave",
            "first_name": "Dave",
            "last_name": "",
            "email": "",
            "is_active": "on",
            "groups": [floor.pk],
            "last_login_0": "",
            "last_login_1": "",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    event = assert_audited("admin_change", obj=dealer_user, actor=superuser, after={"first_name": "Dave"})
    assert event.after["groups"] == [floor.pk]
    assert "password" not in event.after

    response = client.post(
        f"/admin/auth/user/{dealer_user.pk}/password/",
        {"password1": "a-new-long-password-1", "password2": "a-new-long-password-1", "usable_password": "true"},
    )
    assert response.status_code == 302
    changed = assert_audited("admin_change", obj=dealer_user, after={"password": "changed"})
    assert "a-new-long-password-1" not in str(changed.after)


@pytest.mark.django_db
def test_a_group_added_in_the_admin_is_audited(superuser: User, assert_audited: Any) -> None:
    response = _client(superuser).post("/admin/auth/group/add/", {"name": "night-shift", "permissions": []})
    assert response.status_code == 302
    assert_audited("admin_add", object_type="auth.group", after={"name": "night-shift"}, actor=superuser)
