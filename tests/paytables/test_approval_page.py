"""Two-person approval with the figures in view: the approval page shows the analysis and the line-by-line change
from the previous version; a return above 100 % or below the floor needs an override reason; a reference must look
like one; hand names read as words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.models import AuditEvent
from casino.errors import BadInput
from paytables.models import Paytable, PaytableAnalysis
from paytables.services import paytable_approve, paytable_clone, paytable_line_set
from tests.paytables.conftest import jacks
from tests.tables.conftest import client_for

pytestmark = pytest.mark.django_db

ADMIN = "/admin/paytables/paytable/"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def analysed(paytable: Paytable, return_ratio: float, **figures: Any) -> Paytable:
    values = {"hit_frequency": 0.4545, "variance": 19.51, "std_dev": 4.417, **figures}
    PaytableAnalysis.objects.filter(paytable=paytable).update(
        status="done",
        progress=100,
        return_ratio=return_ratio,
        house_edge=1 - return_ratio,
        return_exact="1/1",
        results={"lines": [{"hand": "royal_flush", "pays": "800", "probability": 0.0000247, "combinations": 1}]},
        **values,
    )
    return paytable


def test_the_page_shows_the_analysis_and_the_change_from_the_version_cloned(
    approved: Paytable, floor_user: User, second_floor_user: User
) -> None:
    clone = paytable_clone(paytable=approved, actor=second_floor_user)
    paytable_line_set(paytable=clone, lines=jacks(full_house=8, flush=5), actor=second_floor_user)
    analysed(clone, 0.9730)
    page = logged_in(floor_user).get(f"{ADMIN}{clone.pk}/approve/").content.decode()
    for figure in ("Return", "97.3000%", "House edge", "2.7000%", "Hit frequency", "45.4500%", "Standard deviation"):
        assert figure in page, figure
    changes = page[page.index('id="line-changes"') :]
    assert "Full house</td><td>9</td><td>8</td>" in changes
    assert "Flush</td><td>6</td><td>5</td>" in changes
    assert "Pair, jacks or better</td><td>1</td><td>1</td>" in changes
    assert changes.count("<strong>changed</strong>") == 2
    assert "Royal flush" in page
    assert "royal_flush" not in page
    assert 'id="out-of-band"' not in page
    assert 'id="own-work"' not in page


def test_the_drafter_is_told_on_the_page_and_refused(draft: Paytable, floor_user: User) -> None:
    client = logged_in(floor_user)
    assert 'id="own-work"' in client.get(f"{ADMIN}{draft.pk}/approve/").content.decode()
    response = client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "GC-2026-1"}, follow=True)
    assert "another floor supervisor must approve it" in response.content.decode()
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_a_return_above_100_percent_needs_an_override_reason(draft: Paytable, second_floor_user: User) -> None:
    analysed(draft, 3.51)
    client = logged_in(second_floor_user)
    page = client.get(f"{ADMIN}{draft.pk}/approve/").content.decode()
    assert "the return is 351.0000 %, above 100 %" in page
    assert 'name="override_reason"' in page
    refused = client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "GC-2026-9"}, follow=True)
    assert "needs an override reason" in refused.content.decode()
    assert Paytable.objects.get(pk=draft.pk).status == "draft"
    client.post(
        f"{ADMIN}{draft.pk}/approve/",
        {"approval_reference": "GC-2026-9", "override_reason": "promotional table for one night, board letter 7"},
    )
    assert Paytable.objects.get(pk=draft.pk).status == "approved"
    approval = AuditEvent.objects.get(action="paytable_approve", object_id=str(draft.pk))
    assert approval.reason == "promotional table for one night, board letter 7"
    override = AuditEvent.objects.get(action="paytable_return_override", object_id=str(draft.pk))
    assert override.approver_username == "fred"


def test_a_return_below_the_configured_floor_needs_an_override_reason(
    draft: Paytable, second_floor_user: User, settings: Any
) -> None:
    analysed(draft, 0.85)
    settings.PAYTABLE_RETURN_FLOOR = 0.90
    with pytest.raises(BadInput) as caught:
        paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user, override_reason="")
    assert (caught.value.code, caught.value.field) == ("return_out_of_band", "override_reason")
    page = logged_in(second_floor_user).get(f"{ADMIN}{draft.pk}/approve/").content.decode()
    assert "the return is 85.0000 %, below the floor of 90.00 %" in page
    settings.PAYTABLE_RETURN_FLOOR = 0.80  # the default: 85 % is within the band
    assert paytable_approve(paytable=draft, approval_reference="GC-1", actor=second_floor_user).status == "approved"
    assert not AuditEvent.objects.filter(action="paytable_return_override").exists()


@pytest.mark.parametrize("reference", ["x", "ok", "GC", "GC 2026 <b>"])
def test_a_reference_must_look_like_one(draft: Paytable, second_floor_user: User, reference: str) -> None:
    with pytest.raises(BadInput) as caught:
        paytable_approve(paytable=draft, approval_reference=reference, actor=second_floor_user)
    assert caught.value.code == "approval_reference_invalid"
    assert Paytable.objects.get(pk=draft.pk).status == "draft"


def test_the_api_takes_the_override_reason(draft: Paytable, second_floor_user: User) -> None:
    analysed(draft, 1.0076)
    url = f"/api/v1/paytables/{draft.pk}/approve/"
    api = client_for(second_floor_user)
    refused = api.post(url, {"approval_reference": "GC-2026-3"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "return_out_of_band"
    done = api.post(
        url, {"approval_reference": "GC-2026-3", "override_reason": "full-pay deuces promotion"}, format="json"
    )
    assert done.status_code == 200
    assert done.json()["status"] == "approved"


def test_hand_names_read_as_words_on_the_paytable_pages(approved: Paytable, floor_user: User) -> None:
    page = logged_in(floor_user).get(f"{ADMIN}{approved.pk}/change/").content.decode()
    assert "Royal flush" in page
    assert "royal_flush" not in page
    add = logged_in(floor_user).get(f"{ADMIN}add/").content.decode()
    assert '<option value="royal_flush">Royal flush</option>' in add


def test_a_refused_approval_stays_on_the_page_with_what_was_typed(draft: Paytable, second_floor_user: User) -> None:
    """A reference that is not one is refused on the approval page itself, the override reason kept in its box, so
    the supervisor corrects the reference rather than opening the page again and retyping the reason."""
    analysed(draft, 3.51)
    client = logged_in(second_floor_user)
    reason = "promotional table for one night, board letter 7"
    refused = client.post(f"{ADMIN}{draft.pk}/approve/", {"approval_reference": "x", "override_reason": reason})
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "is not a regulator&#x27;s reference" in page
    assert 'value="x"' in page
    assert f">{reason}</textarea>" in page
    assert 'id="out-of-band"' in page  # still the approval page, with its figures
    assert Paytable.objects.get(pk=draft.pk).status == "draft"
