"""Admin screens for floor staff: drafts edited inline through the services, approved versions read-only,
approve/retire/clone actions for floor staff only, and the analysis table on the detail page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent
from paytables.models import Paytable, PaytableAnalysis
from paytables.selectors import paytable_as_dict
from tests.paytables.conftest import JACKS_9_6, jacks

pytestmark = pytest.mark.django_db

ADMIN = "/admin/paytables/paytable/"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def inline_data(lines: list[dict[str, Any]], initial: int = 0, ids: list[int] | None = None) -> dict[str, str]:
    data = {
        "lines-TOTAL_FORMS": str(len(lines)),
        "lines-INITIAL_FORMS": str(initial),
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "1000",
    }
    for index, line in enumerate(lines):
        prefix = f"lines-{index}-"
        data[prefix + "position"] = str(index + 1)
        data[prefix + "hand"] = line["hand"]
        data[prefix + "min_rank"] = line.get("min_rank", "")
        data[prefix + "ranks"] = " ".join(line.get("ranks", []))
        data[prefix + "pays"] = str(line["pays"])
        if ids is not None and index < len(ids):
            data[prefix + "id"] = str(ids[index])
    return data


def test_the_list_shows_status_and_return(floor_user: User, approved: Paytable) -> None:
    PaytableAnalysis.objects.filter(paytable=approved).update(status="done", progress=100, return_ratio=0.995439)
    page = logged_in(floor_user).get(ADMIN)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Jacks or Better 9/6" in html
    assert "Approved" in html
    assert "99.5439%" in html


def test_floor_staff_create_a_draft_with_its_lines_through_the_service(floor_user: User) -> None:
    response = logged_in(floor_user).post(
        ADMIN + "add/", {"name": "House 9/6", "basis": "for_1", "wild_ranks": "", **inline_data(JACKS_9_6)}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    paytable = Paytable.objects.get(name="House 9/6")
    assert paytable_as_dict(paytable)["lines"] == JACKS_9_6
    assert AuditEvent.objects.filter(action="paytable_create_draft", object_id=str(paytable.pk)).exists()


def test_an_invalid_schedule_shows_the_engines_message_and_saves_nothing(floor_user: User) -> None:
    lines = [*JACKS_9_6[:2], {"hand": "two_pair", "min_rank": "J", "pays": 2}]
    response = logged_in(floor_user).post(
        ADMIN + "add/", {"name": "Bad", "basis": "for_1", "wild_ranks": "", **inline_data(lines)}
    )
    assert response.status_code == 200
    assert "min rank applies only to pair" in response.content.decode()  # the page's words, not the engine's codes
    assert "one_pair" not in response.content.decode().split('class="errorlist')[1].split("</ul>")[0]
    assert not Paytable.objects.exists()


def test_floor_staff_edit_a_drafts_lines_inline(floor_user: User, draft: Paytable) -> None:
    ids = list(draft.lines.order_by("position").values_list("id", flat=True))
    data = {"basis": "for_1", "wild_ranks": "", **inline_data(jacks(full_house=8, flush=5), initial=len(ids), ids=ids)}
    response = logged_in(floor_user).post(f"{ADMIN}{draft.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert paytable_as_dict(draft)["lines"] == jacks(full_house=8, flush=5)
    assert AuditEvent.objects.filter(action="paytable_line_set").count() == 1


def test_an_approved_version_is_read_only_in_the_admin(floor_user: User, approved: Paytable) -> None:
    client = logged_in(floor_user)
    page = client.get(f"{ADMIN}{approved.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="lines-0-pays"' not in html
    assert "Clone as new draft" in html
    ids = list(approved.lines.order_by("position").values_list("id", flat=True))
    data = {"basis": "for_1", "wild_ranks": "", **inline_data(jacks(full_house=8), initial=len(ids), ids=ids)}
    assert client.post(f"{ADMIN}{approved.pk}/change/", data).status_code == 403
    assert paytable_as_dict(approved)["lines"] == JACKS_9_6


def test_approving_in_the_admin_needs_a_reference(second_floor_user: User, draft: Paytable) -> None:
    client = logged_in(second_floor_user)
    assert client.get(f"{ADMIN}{draft.pk}/approve/").status_code == 200
    client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": ""})
    assert Paytable.objects.get(pk=draft.pk).status == "draft"
    response = client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "GC-11"}, follow=True)
    assert "approved" in response.content.decode()
    assert Paytable.objects.get(pk=draft.pk).approval_reference == "GC-11"


def test_retire_and_clone_from_the_admin(floor_user: User, approved: Paytable) -> None:
    client = logged_in(floor_user)
    response = client.post(f"{ADMIN}{approved.pk}/clone/")
    clone = Paytable.objects.get(name=approved.name, version=2)
    assert response.url == f"{ADMIN}{clone.pk}/change/"
    client.post(f"{ADMIN}{approved.pk}/retire/", {"reason": "superseded"})
    assert Paytable.objects.get(pk=approved.pk).status == "retired"
    assert AuditEvent.objects.get(action="paytable_retire").reason == "superseded"


def test_a_refused_action_comes_back_as_a_message_on_the_paytable_and_changes_nothing(
    floor_user: User, draft: Paytable
) -> None:
    client = logged_in(floor_user)  # signing in is itself audited, so count after it
    events = AuditEvent.objects.count()
    response = client.post(f"{ADMIN}{draft.pk}/retire/", {"reason": "old"}, follow=True)
    assert response.redirect_chain == [(f"{ADMIN}{draft.pk}/change/", 302)]
    assert [str(m) for m in response.context["messages"]] == [
        f"{draft} is draft: only an approved version can be retired."
    ]
    assert Paytable.objects.get(pk=draft.pk).status == "draft"
    assert AuditEvent.objects.count() == events


def test_a_get_on_a_button_without_a_confirmation_page_goes_back_to_the_paytable(
    floor_user: User, approved: Paytable
) -> None:
    response = logged_in(floor_user).get(f"{ADMIN}{approved.pk}/clone/")
    assert response.url == f"{ADMIN}{approved.pk}/change/"
    assert Paytable.objects.count() == 1


def test_compliance_looks_but_cannot_change_anything(compliance_user: User, draft: Paytable) -> None:
    client = logged_in(compliance_user)
    assert client.get(ADMIN).status_code == 200
    assert client.get(f"{ADMIN}{draft.pk}/change/").status_code == 200
    assert client.get(ADMIN + "add/").status_code == 403
    assert client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "X"}).status_code == 403
    assert client.post(f"{ADMIN}{draft.pk}/clone/").status_code == 403
    assert client.post(f"{ADMIN}{draft.pk}/analyze/").status_code == 403
    ids = list(draft.lines.order_by("position").values_list("id", flat=True))
    data = {"basis": "for_1", "wild_ranks": "", **inline_data(jacks(flush=5), initial=len(ids), ids=ids)}
    assert client.post(f"{ADMIN}{draft.pk}/change/", data).status_code == 403
    assert Paytable.objects.get().status == "draft"
    assert paytable_as_dict(draft)["lines"] == JACKS_9_6


def test_dealers_are_kept_out_of_the_admin(dealer_user: User, draft: Paytable) -> None:
    client = logged_in(dealer_user)
    for response in (client.get(ADMIN), client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "X"})):
        assert response.status_code == 302
        assert "/admin/login/" in response.url
    assert Paytable.objects.get().status == "draft"


def test_the_detail_page_shows_progress_then_the_analysis_table(floor_user: User, draft: Paytable) -> None:
    client = logged_in(floor_user)
    PaytableAnalysis.objects.filter(paytable=draft).update(status="running", progress=42)
    html = client.get(f"{ADMIN}{draft.pk}/change/").content.decode()
    assert "Running — 42%" in html
    assert 'http-equiv="refresh"' in html
    PaytableAnalysis.objects.filter(paytable=draft).update(
        status="done",
        progress=100,
        finished_at=timezone.now(),
        return_exact="1/2",
        return_ratio=0.5,
        house_edge=0.5,
        hit_frequency=0.25,
        variance=2.0,
        std_dev=2.0**0.5,
        results={
            "lines": [
                {
                    "hand": "one_pair",
                    "min_rank": "J",
                    "pays": 1,
                    "probability": 0.25,
                    "combinations": 123,
                    "contribution": 0.25,
                }
            ]
        },
    )
    html = client.get(f"{ADMIN}{draft.pk}/change/").content.decode()
    assert "50.0000%" in html
    assert "Pair, jacks or better" in html
    assert "1.4142" in html
    assert 'http-equiv="refresh"' not in html


def test_the_drafter_cannot_approve_their_own_draft_in_the_admin(floor_user: User, draft: Paytable) -> None:
    response = logged_in(floor_user).post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "GC-11"}, follow=True)
    assert "another floor supervisor must approve it" in response.content.decode()
    assert Paytable.objects.get(pk=draft.pk).status == "draft"
