"""Exceptions are a work queue: status new → under review → closed, notes, a compliance sign-off that is audited and
never by the person who caused the exception; the queue filters by status, kind and table."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from audit.exception_scan import exceptions_scan
from audit.models import ExceptionCase, ExceptionNote
from audit.services import audit_chain_seal, audit_record
from tests.audit.helpers import assert_audited, last_event_id
from tests.conftest import _persona


def _case(actor: User | None = None, **fields: object) -> ExceptionCase:
    fields.setdefault("action", "round_void")
    fields.setdefault("reason", "misdeal")
    audit_record(actor=actor, **fields)
    audit_chain_seal()
    exceptions_scan()
    return ExceptionCase.objects.order_by("-id").first()  # type: ignore[return-value]


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def second_compliance_user(db: None) -> User:
    """Cora is another compliance officer."""
    return _persona("cora", "compliance", is_staff=True)


@pytest.mark.django_db
def test_a_reviewer_takes_notes_and_signs_off_and_each_step_is_audited(
    compliance_user: User, floor_user: User
) -> None:
    case = _case(actor=floor_user, round=12)
    assert case.status == "new"
    client = _client(compliance_user)
    since = last_event_id()
    assert client.post(f"/compliance/exceptions/{case.id}/review/").status_code == 302
    case.refresh_from_db()
    assert (case.status, case.reviewer_username) == ("under_review", "carl")
    assert_audited("exception_review_start", since_id=since, actor=compliance_user, after={"status": "under_review"})

    client.post(f"/compliance/exceptions/{case.id}/notes/", {"text": "Asked Fiona for the misdeal slip."})
    assert_audited("exception_note_add", since_id=since, after={"note": "Asked Fiona for the misdeal slip."})

    response = client.post(f"/compliance/exceptions/{case.id}/sign-off/", {"text": "Slip matches; closed."})
    assert response.status_code == 302
    case.refresh_from_db()
    assert (case.status, case.signed_off_username) == ("closed", "carl")
    assert case.signed_off_at is not None
    assert_audited("exception_sign_off", since_id=since, actor=compliance_user, after={"status": "closed"})
    page = client.get(f"/compliance/exceptions/{case.id}/").content.decode()
    assert "Asked Fiona for the misdeal slip." in page
    assert "Slip matches; closed." in page
    assert "Sign off and close" not in page  # closed: nothing more to do


@pytest.mark.django_db
def test_nobody_signs_off_an_exception_they_caused(compliance_user: User, second_compliance_user: User) -> None:
    # Carl himself exported the trail with a void in it? Here: Carl recorded the void, so Cora must sign it off.
    case = _case(actor=compliance_user)
    refused = _client(compliance_user)
    page = refused.get(f"/compliance/exceptions/{case.id}/").content.decode()
    assert "another compliance user must sign it off" in page
    response = refused.post(f"/compliance/exceptions/{case.id}/sign-off/", {"text": "fine"}, follow=True)
    assert "You caused this exception" in response.content.decode()
    case.refresh_from_db()
    assert case.status == "new"
    _client(second_compliance_user).post(f"/compliance/exceptions/{case.id}/sign-off/", {"text": "checked"})
    case.refresh_from_db()
    assert (case.status, case.signed_off_username) == ("closed", "cora")


@pytest.mark.django_db
def test_the_approver_of_an_exception_cannot_sign_it_off_either(compliance_user: User, floor_user: User) -> None:
    case = _case(actor=floor_user, approver=compliance_user)
    _client(compliance_user).post(f"/compliance/exceptions/{case.id}/sign-off/", {"text": "fine"})
    case.refresh_from_db()
    assert case.status == "new"


@pytest.mark.django_db
def test_an_empty_note_changes_nothing(compliance_user: User) -> None:
    case = _case()
    client = _client(compliance_user)  # signing in is itself an event
    since = last_event_id()
    response = client.post(f"/compliance/exceptions/{case.id}/notes/", {"text": "  "}, follow=True)
    assert "Write a note." in response.content.decode()
    assert ExceptionNote.objects.count() == 0
    case.refresh_from_db()
    assert case.status == "new"
    assert last_event_id() == since


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user", "stranger"])
def test_only_compliance_reviews(request: pytest.FixtureRequest, persona: str) -> None:
    case = _case()
    client = _client(request.getfixturevalue(persona))
    for step in ("review", "notes", "sign-off"):
        assert client.post(f"/compliance/exceptions/{case.id}/{step}/", {"text": "x"}).status_code == 403
    case.refresh_from_db()
    assert case.status == "new"


@pytest.mark.django_db
def test_the_queue_shows_open_exceptions_first_and_filters_by_status_and_kind(
    compliance_user: User, second_compliance_user: User
) -> None:
    void = _case(round=1)
    locked = _case(action="user_locked_out", reason="", object_repr="mallory")
    _client(second_compliance_user).post(f"/compliance/exceptions/{void.id}/sign-off/", {"text": "ok"})
    client = _client(compliance_user)
    assert [c.id for c in client.get("/compliance/exceptions/").context["page"].cases] == [locked.id]
    closed = client.get("/compliance/exceptions/?status=closed").context["page"].cases
    assert [c.id for c in closed] == [void.id]
    every = client.get("/compliance/exceptions/?status=all&kind=failed_logins").context["page"].cases
    assert [c.id for c in every] == [locked.id]
    html = client.get("/compliance/exceptions/?status=all").content.decode()
    assert "Repeated failed sign-ins" in html
    assert "Closed</span> by cora" in html
