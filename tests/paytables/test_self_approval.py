"""Two people per paytable approval: the drafter and the last editor may not approve (services and database)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, InternalError, transaction
from django.utils import timezone

from casino.errors import NotAllowed
from paytables.models import Paytable
from paytables.services import paytable_approve, paytable_clone, paytable_create_draft, paytable_line_set
from tests.paytables.conftest import JACKS_9_6, jacks

pytestmark = pytest.mark.django_db

# PostgreSQL raises IntegrityError (integrity_constraint_violation); SQLite's RAISE(ABORT) an IntegrityError too.
REFUSED = (IntegrityError, InternalError)


def test_the_drafter_cannot_approve_their_own_draft(draft: Paytable, floor_user: User) -> None:
    with pytest.raises(NotAllowed) as caught:
        paytable_approve(paytable=draft, approval_reference="GC-1", actor=floor_user)
    assert caught.value.code == "self_approval"
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_the_last_editor_cannot_approve_what_they_changed(draft: Paytable, second_floor_user: User) -> None:
    paytable_line_set(paytable=draft, lines=jacks(flush=5), actor=second_floor_user)
    assert Paytable.objects.get(pk=draft.pk).last_edited_by == second_floor_user
    with pytest.raises(NotAllowed):
        paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user)
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_a_third_supervisor_approves_what_two_others_drafted_and_edited(
    draft: Paytable, floor_user: User, second_floor_user: User
) -> None:
    paytable_line_set(paytable=draft, lines=jacks(flush=5), actor=second_floor_user)
    third = User.objects.create_superuser("tina", password="pw-tina-x")
    approved = paytable_approve(paytable=draft, approval_reference="GC-1", actor=third)
    assert (approved.status, approved.created_by, approved.last_edited_by) == (
        "approved",
        floor_user,
        second_floor_user,
    )


def test_an_edit_that_changes_nothing_does_not_make_an_editor(draft: Paytable, second_floor_user: User) -> None:
    paytable_line_set(paytable=draft, lines=JACKS_9_6, actor=second_floor_user)
    assert paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user).status == "approved"


def test_whoever_clones_a_version_drafted_the_clone(
    approved: Paytable, floor_user: User, second_floor_user: User
) -> None:
    clone = paytable_clone(paytable=approved, actor=second_floor_user)
    with pytest.raises(NotAllowed):
        paytable_approve(paytable=clone, approval_reference="GC-2", actor=second_floor_user)
    assert paytable_approve(paytable=clone, approval_reference="GC-2", actor=floor_user).status == "approved"


def test_the_database_refuses_a_self_approval_written_past_the_services(draft: Paytable, floor_user: User) -> None:
    with pytest.raises(REFUSED, match="paytable_self_approval"), transaction.atomic():
        Paytable.objects.filter(pk=draft.pk).update(
            status="approved", approval_reference="GC-1", approved_by=floor_user, approved_at=timezone.now()
        )
    with pytest.raises(REFUSED, match="paytable_self_approval"), transaction.atomic():
        Paytable.objects.create(
            name="Inserted approved",
            basis="for_1",
            status="approved",
            approval_reference="GC-1",
            created_by=floor_user,
            approved_by=floor_user,
        )
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_the_database_refuses_approval_by_the_last_editor(
    draft: Paytable, floor_user: User, second_floor_user: User
) -> None:
    Paytable.objects.filter(pk=draft.pk).update(last_edited_by=second_floor_user)
    with pytest.raises(REFUSED, match="paytable_self_approval"), transaction.atomic():
        Paytable.objects.filter(pk=draft.pk).update(
            status="approved", approval_reference="GC-1", approved_by=second_floor_user, approved_at=timezone.now()
        )


def test_the_database_keeps_an_approved_versions_last_editor(approved: Paytable, floor_user: User) -> None:
    with pytest.raises(REFUSED, match="paytable_immutable"), transaction.atomic():
        Paytable.objects.filter(pk=approved.pk).update(last_edited_by=None)
    assert Paytable.objects.get(pk=approved.pk).last_edited_by == floor_user


def test_a_draft_made_by_nobody_recorded_can_still_be_approved(floor_user: User) -> None:
    # Rows from before the drafter was recorded (or written by fixtures) have no drafter to compare with.
    draft = paytable_create_draft(name="Old", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    Paytable.objects.filter(pk=draft.pk).update(created_by=None, last_edited_by=None)
    assert paytable_approve(paytable=draft, approval_reference="GC-1", actor=floor_user).status == "approved"
