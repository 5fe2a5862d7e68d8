"""paytable_create_draft, paytable_line_set, paytable_approve, paytable_retire, paytable_clone and table status."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.errors import DomainError, NotAllowed, WrongPhase
from paytables.models import Paytable, PaytableLine, PaytableStatus
from paytables.selectors import paytable_as_dict, paytable_spec
from paytables.services import (
    paytable_approve,
    paytable_clone,
    paytable_create_draft,
    paytable_line_set,
    paytable_mark_in_use,
    paytable_retire,
)
from tables.models import Table
from tests.paytables.conftest import JACKS_9_6, jacks

pytestmark = pytest.mark.django_db


def events(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("id"))


def test_a_new_draft_is_version_one_with_its_lines_in_order(draft: Paytable, floor_user: User) -> None:
    assert (draft.version, draft.status, draft.created_by) == (1, "draft", floor_user)
    assert [line.hand for line in draft.lines.order_by("position")] == [line["hand"] for line in JACKS_9_6]
    assert paytable_as_dict(draft)["lines"] == JACKS_9_6


def test_pays_are_stored_as_exact_fractions(floor_user: User) -> None:
    paytable = paytable_create_draft(
        name="Table pays",
        basis="to_1",
        lines=[{"hand": "straight", "pays": "3/2"}, {"hand": "one_pair", "min_rank": "J", "pays": 0}],
        actor=floor_user,
    )
    straight = paytable.lines.get(hand="straight")
    assert (straight.pays_numerator, straight.pays_denominator, straight.pays) == (3, 2, "3/2")
    assert paytable_spec(paytable).lines[0].pays == Fraction(3, 2)


def test_creating_a_draft_records_who_and_the_whole_schedule(draft: Paytable, floor_user: User) -> None:
    (event,) = events("paytable_create_draft")
    assert event.actor == floor_user
    assert event.object_id == str(draft.pk)
    assert event.after["lines"] == JACKS_9_6
    assert event.after["status"] == "draft"


def test_a_name_in_use_must_be_cloned_not_created_again(draft: Paytable, floor_user: User) -> None:
    with pytest.raises(DomainError) as caught:
        paytable_create_draft(name=" Jacks or Better 9/6 ", basis="for_1", lines=JACKS_9_6, actor=floor_user)
    assert (caught.value.code, caught.value.field) == ("name_taken", "name")
    assert Paytable.objects.count() == 1


def test_setting_lines_replaces_a_drafts_schedule_and_records_before_and_after(
    draft: Paytable, floor_user: User
) -> None:
    paytable_line_set(paytable=draft, lines=jacks(full_house=8, flush=5), actor=floor_user)
    assert paytable_as_dict(draft)["lines"] == jacks(full_house=8, flush=5)
    (event,) = events("paytable_line_set")
    assert event.before["lines"] == JACKS_9_6
    assert event.after["lines"] == jacks(full_house=8, flush=5)


def test_setting_the_same_lines_again_records_nothing(draft: Paytable, floor_user: User) -> None:
    paytable_line_set(paytable=draft, lines=JACKS_9_6, actor=floor_user)
    assert events("paytable_line_set") == []


def test_a_draft_can_change_its_basis_and_wild_ranks(draft: Paytable, floor_user: User) -> None:
    lines = [{"hand": "natural_royal_flush", "pays": 800}, {"hand": "four_wild", "pays": 200}, *JACKS_9_6[1:]]
    paytable_line_set(paytable=draft, lines=lines, basis="for_1", wild_ranks=["2"], actor=floor_user)
    draft.refresh_from_db()
    assert draft.wild_ranks == ["2"]
    assert paytable_spec(draft).lines[1].hand == "four_wild"


def test_approving_needs_the_regulators_reference(draft: Paytable, floor_user: User) -> None:
    with pytest.raises(DomainError) as caught:
        paytable_approve(paytable=draft, approval_reference="   ", actor=floor_user)
    assert (caught.value.code, caught.value.field) == ("approval_reference_required", "approval_reference")
    draft.refresh_from_db()
    assert draft.status == "draft"


def test_approving_records_the_reference_the_approver_and_the_time(
    approved: Paytable, second_floor_user: User
) -> None:
    approved.refresh_from_db()
    assert approved.status == "approved"
    assert approved.approval_reference == "GC-2026-0042"
    assert approved.approved_by == second_floor_user
    assert approved.approved_at is not None
    (event,) = events("paytable_approve")
    assert (event.before["status"], event.after["status"]) == ("draft", "approved")
    assert event.approver_username == second_floor_user.username


def test_an_approved_version_refuses_new_lines(approved: Paytable, floor_user: User) -> None:
    """DESIGN 6: "An approved version never changes; editing makes a new draft." """
    with pytest.raises(WrongPhase) as caught:
        paytable_line_set(paytable=approved, lines=jacks(full_house=8), actor=floor_user)
    assert caught.value.code == "paytable_not_draft"
    assert "clone" in caught.value.message
    assert paytable_as_dict(approved)["lines"] == JACKS_9_6


def test_an_approved_version_cannot_be_approved_again(approved: Paytable, floor_user: User) -> None:
    with pytest.raises(WrongPhase):
        paytable_approve(paytable=approved, approval_reference="OTHER", actor=floor_user)
    approved.refresh_from_db()
    assert approved.approval_reference == "GC-2026-0042"


def test_cloning_makes_the_next_draft_version_with_the_same_schedule(approved: Paytable, floor_user: User) -> None:
    clone = paytable_clone(paytable=approved, actor=floor_user)
    assert (clone.name, clone.version, clone.status, clone.cloned_from) == (approved.name, 2, "draft", approved)
    assert paytable_as_dict(clone)["lines"] == JACKS_9_6
    (event,) = events("paytable_clone")
    assert event.before["cloned_from"] == approved.pk
    assert event.after["version"] == 2
    edited = paytable_line_set(paytable=clone, lines=jacks(full_house=8, flush=5), actor=floor_user)
    assert paytable_as_dict(edited)["lines"] != paytable_as_dict(approved)["lines"]


def test_cloning_under_a_new_name_starts_at_version_one(approved: Paytable, floor_user: User) -> None:
    clone = paytable_clone(paytable=approved, name="House 9/6", actor=floor_user)
    assert (clone.name, clone.version) == ("House 9/6", 1)
    with pytest.raises(DomainError) as caught:
        paytable_clone(paytable=approved, name="House 9/6", actor=floor_user)
    assert caught.value.code == "name_taken"


def test_retiring_an_approved_version(approved: Paytable, floor_user: User) -> None:
    paytable_retire(paytable=approved, reason="Replaced by 8/5", actor=floor_user)
    approved.refresh_from_db()
    assert approved.status == "retired"
    assert approved.retired_at is not None
    (event,) = events("paytable_retire")
    assert (event.before, event.after, event.reason) == (
        {"status": "approved"},
        {"status": "retired"},
        "Replaced by 8/5",
    )


def test_a_draft_or_a_retired_version_cannot_be_retired(
    draft: Paytable, floor_user: User, second_floor_user: User
) -> None:
    with pytest.raises(WrongPhase):
        paytable_retire(paytable=draft, actor=floor_user)
    paytable_approve(paytable=draft, approval_reference="R-1", actor=second_floor_user)
    paytable_retire(paytable=draft, actor=floor_user)
    with pytest.raises(WrongPhase):
        paytable_retire(paytable=draft, actor=floor_user)


def test_an_active_version_is_taken_off_its_tables_before_retiring(approved: Paytable, floor_user: User) -> None:
    first, second = Table.objects.create(name="Table 1"), Table.objects.create(name="Table 2")
    paytable_mark_in_use(approved, in_use=True, table=first, actor=floor_user)
    paytable_mark_in_use(approved, in_use=True, table=second, actor=floor_user)  # still active, no second event
    assert Paytable.objects.get(pk=approved.pk).status == PaytableStatus.ACTIVE
    [put_on] = events("paytable_mark_active")
    assert (put_on.before, put_on.after, put_on.actor) == (
        {"status": "approved"}, {"status": "active", "table": "Table 1"}, floor_user)
    assert (put_on.table_id, put_on.table_repr) == (first.pk, "Table 1")
    with pytest.raises(WrongPhase) as caught:
        paytable_retire(paytable=approved, actor=floor_user)
    assert caught.value.code == "paytable_active"
    paytable_mark_in_use(approved, in_use=False, table=second, actor=floor_user)
    paytable_mark_in_use(approved, in_use=False, table=second, actor=floor_user)  # off every table: nothing more
    [taken_off] = events("paytable_mark_inactive")
    assert (taken_off.before, taken_off.after) == ({"status": "active"}, {"status": "approved", "table": "Table 2"})
    assert taken_off.table_id == second.pk
    paytable_retire(paytable=approved, actor=floor_user)
    assert Paytable.objects.get(pk=approved.pk).status == PaytableStatus.RETIRED


def test_only_an_approved_version_goes_on_a_table(draft: Paytable) -> None:
    with pytest.raises(WrongPhase) as caught:
        paytable_mark_in_use(draft, in_use=True, table=Table.objects.create(name="Table 1"))
    assert (caught.value.code, caught.value.field) == ("paytable_not_approved", "paytable")
    assert Paytable.objects.get(pk=draft.pk).status == PaytableStatus.DRAFT


def test_taking_a_version_that_is_on_no_table_off_changes_nothing(draft: Paytable, approved: Paytable) -> None:
    table = Table.objects.create(name="Table 1")
    for paytable in (draft, approved):
        paytable_mark_in_use(paytable, in_use=False, table=table)
    assert not events("paytable_mark_inactive")
    assert Paytable.objects.get(pk=approved.pk).status == PaytableStatus.APPROVED


@pytest.mark.parametrize("persona", ["dealer_user", "compliance_user", "stranger"])
def test_only_floor_staff_write_paytables(persona: str, draft: Paytable, request: pytest.FixtureRequest) -> None:
    """DESIGN 9: "Compliance is read-only everywhere"; dealers run tables, not paytables."""
    user = request.getfixturevalue(persona)
    attempts = [
        lambda: paytable_create_draft(name="Mine", basis="for_1", lines=JACKS_9_6, actor=user),
        lambda: paytable_line_set(paytable=draft, lines=jacks(flush=5), actor=user),
        lambda: paytable_approve(paytable=draft, approval_reference="X", actor=user),
        lambda: paytable_retire(paytable=draft, actor=user),
        lambda: paytable_clone(paytable=draft, actor=user),
    ]
    for attempt in attempts:
        with pytest.raises(NotAllowed):
            attempt()
    assert Paytable.objects.count() == 1
    assert PaytableLine.objects.filter(paytable=draft, hand="flush").get().pays_numerator == 6


def test_a_superuser_administers_paytables(draft: Paytable) -> None:
    admin = User.objects.create_superuser("root", password="pw-root-x")
    paytable_approve(paytable=draft, approval_reference="R-9", actor=admin)
    assert Paytable.objects.get(pk=draft.pk).approved_by == admin
