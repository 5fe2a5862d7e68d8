"""The compliance screens: who may see them, the filters, keyset pages, detail diff, round timeline, CSV export."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import audit_chain_seal, audit_chain_verify, audit_record
from tests.audit.actions import CARD_CORRECT, RULING_OVERRIDE

SCREENS = ["/compliance/", "/compliance/exceptions/", "/compliance/rounds/7/", "/compliance/export.csv"]


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _event(**fields: Any) -> AuditEvent:
    fields.setdefault("action", "seat_join")
    fields.setdefault("object_type", "tables.seat")
    fields.setdefault("object_id", "1")
    return audit_record(**fields)


def verdict_ok(round_id: int) -> dict[str, Any]:
    return {"ok": True, "differences": []}


def verdict_differs(round_id: int) -> dict[str, Any]:
    return {"ok": False, "differences": [f"round {round_id}: seat 2 paid 500 but replay pays 300"]}


@pytest.mark.django_db
@pytest.mark.parametrize("url", SCREENS)
def test_compliance_sees_every_screen(compliance_user: User, url: str) -> None:
    assert _client(compliance_user).get(url).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("url", SCREENS)
@pytest.mark.parametrize("persona", ["floor_user", "dealer_user", "stranger"])
def test_floor_dealers_and_strangers_do_not_see_compliance_screens(
    request: pytest.FixtureRequest, persona: str, url: str
) -> None:
    user = request.getfixturevalue(persona)
    assert _client(user).get(url).status_code == 403


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_sign_in() -> None:
    response = Client().get("/compliance/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_a_floor_supervisor_granted_the_permission_sees_the_screens(floor_user: User) -> None:
    floor_user.user_permissions.add(Permission.objects.get(codename="use_compliance_screens"))
    floor_user = User.objects.get(pk=floor_user.pk)  # permission cache
    assert _client(floor_user).get("/compliance/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("url", SCREENS)
def test_compliance_screens_accept_no_writes(compliance_user: User, method: str, url: str) -> None:
    _event()
    client = _client(compliance_user)
    before = AuditEvent.objects.count()
    response = getattr(client, method)(url)
    assert response.status_code == 405
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
def test_the_list_filters_by_table_round_actor_action_and_object(compliance_user: User, dealer_user: User) -> None:
    wanted = _event(action="bet_place", table=3, round=11, actor=dealer_user, object_type="tables.bet", object_id=9)
    _event(action="bet_place", table=3, round=12, actor=dealer_user, object_type="tables.bet", object_id=9)
    _event(action="bet_clear", table=3, round=11, actor=dealer_user)
    _event(action="bet_place", table=4, round=11)
    client = _client(compliance_user)
    query = "?table=3&round=11&actor=dave&action=bet_place&object_type=tables.bet&object_id=9"
    response = client.get("/compliance/" + query)
    assert [e.id for e in response.context["page"].events] == [wanted.id]


@pytest.mark.django_db
def test_the_list_filters_by_date_range(compliance_user: User) -> None:
    today = timezone.localdate()
    _event()
    response = _client(compliance_user).get(f"/compliance/?action=seat_join&date_from={today}&date_to={today}")
    assert len(response.context["page"].events) == 1
    tomorrow = today + dt.timedelta(days=1)
    response = _client(compliance_user).get(f"/compliance/?date_from={tomorrow}")
    assert response.context["page"].events == []


@pytest.mark.django_db
def test_search_finds_text_in_the_object_and_the_reason(compliance_user: User) -> None:
    hit = _event(action="round_void", reason="Dealer exposed a card early")
    _event(action="round_void", reason="Misdeal")
    response = _client(compliance_user).get("/compliance/?q=exposed")
    assert [e.id for e in response.context["page"].events] == [hit.id]


@pytest.mark.django_db
def test_a_bad_filter_shows_its_error_and_no_events(compliance_user: User) -> None:
    _event()
    response = _client(compliance_user).get("/compliance/?date_from=yesterday")
    assert response.status_code == 200
    assert response.context["page"].events == []
    assert "date_from" in response.context["form"].errors


@pytest.mark.django_db
def test_pages_walk_every_event_newest_first_without_repeats(compliance_user: User) -> None:
    ids = [_event(object_id=i).id for i in range(120)]
    client, seen, url = _client(compliance_user), [], "/compliance/?action=seat_join"
    while url:
        response = client.get(url)
        seen += [e.id for e in response.context["page"].events]
        nxt = response.context["page"].next_before
        url = f"/compliance/?action=seat_join&before={nxt}" if nxt else ""
    assert seen == sorted(ids, reverse=True)


@pytest.mark.django_db
def test_the_detail_shows_what_changed(compliance_user: User) -> None:
    event = _event(before={"max_bet_cents": 10000, "name": "T1"}, after={"max_bet_cents": 20000, "name": "T1"})
    response = _client(compliance_user).get(f"/compliance/events/{event.id}/")
    rows = {row.field: row for row in response.context["diff"]}
    assert rows["max_bet_cents"].status == "changed"
    assert (rows["max_bet_cents"].before, rows["max_bet_cents"].after) == ("10000", "20000")
    assert rows["name"].status == "same"
    assert b"max_bet_cents" in response.content


@pytest.mark.django_db
@override_settings(AUDIT_ROUND_VERDICT="tests.audit.test_compliance_screens.verdict_differs")
def test_the_round_timeline_lists_the_rounds_events_in_order_with_the_replay_verdict(compliance_user: User) -> None:
    first = _event(action="round_start", round=5)
    _event(action="round_start", round=6)
    second = _event(action="bet_place", round=5)
    audit_chain_seal()
    response = _client(compliance_user).get("/compliance/rounds/5/")
    assert [e.id for e in response.context["events"]] == [first.id, second.id]
    assert b"seat 2 paid 500 but replay pays 300" in response.content


@pytest.mark.django_db
@override_settings(AUDIT_ROUND_VERDICT="")
def test_the_round_timeline_says_when_no_replay_is_available(compliance_user: User) -> None:
    response = _client(compliance_user).get("/compliance/rounds/5/")
    assert b"Replay not available" in response.content


@pytest.mark.django_db
def test_the_exception_report_lists_voids_corrections_overrides_approvals_and_large_payouts(
    compliance_user: User,
) -> None:
    listed = [
        _event(action="round_void", reason="misdeal"),
        _event(action=CARD_CORRECT),
        _event(action=RULING_OVERRIDE),
        _event(action="round_approve_payout"),
        _event(action="round_settlement", after={"total_return_cents": 5_000_000}),
    ]
    _event(action="round_settlement", after={"total_return_cents": 500})
    _event(action="seat_join")
    response = _client(compliance_user).get("/compliance/?exception=any")
    assert [e.id for e in response.context["page"].events] == [e.id for e in reversed(listed)]
    assert [e.exception_kind for e in listed] == ["void", "correction", "override", "approval", "large_payout"]


@pytest.mark.django_db
def test_the_screens_show_a_broken_chain(compliance_user: User) -> None:
    from tests.audit.tampering import tamper

    event = _event()
    audit_chain_seal()
    tamper("UPDATE audit_auditevent SET reason = 'x' WHERE id = %s", [event.id])
    audit_chain_verify()
    response = _client(compliance_user).get("/compliance/")
    assert b"BROKEN" in response.content
    assert f"#{event.id}".encode() in response.content


def _csv_ids(content: bytes) -> list[int]:
    rows = list(csv.DictReader(io.StringIO(content.decode())))
    return [int(r["id"]) for r in rows]


@pytest.mark.django_db
def test_the_csv_export_matches_the_filter_exactly(compliance_user: User, dealer_user: User) -> None:
    for i in range(30):
        _event(action="bet_place" if i % 3 else "bet_clear", table=1 + i % 2, actor=dealer_user if i % 5 else None)
    client = _client(compliance_user)
    query = "table=1&action=bet_place&actor=dave"
    listed, url = [], f"/compliance/?{query}"
    while url:
        response = client.get(url)
        listed += [e.id for e in response.context["page"].events]
        url = f"/compliance/?{query}&before={response.context['page'].next_before}" if response.context[
            "page"
        ].next_before else ""
    expected = list(
        AuditEvent.objects.filter(table_id=1, action="bet_place", actor_username="dave")
        .order_by("-occurred_at", "-id")
        .values_list("id", flat=True)
    )
    response = client.get(f"/compliance/export.csv?{query}")
    assert response.status_code == 200
    assert response.streaming
    exported = _csv_ids(b"".join(response.streaming_content))
    assert exported == expected == listed
    assert len(expected) > 0


@pytest.mark.django_db
def test_the_csv_export_is_itself_audited_but_not_included(compliance_user: User) -> None:
    _event()
    client = _client(compliance_user)
    before = set(AuditEvent.objects.values_list("id", flat=True))
    response = client.get("/compliance/export.csv")
    ids = _csv_ids(b"".join(response.streaming_content))
    export_event = AuditEvent.objects.get(action="audit_export")
    assert export_event.actor_username == "carl"
    assert set(ids) == before


@pytest.mark.django_db
def test_the_csv_export_neutralises_spreadsheet_formulas(compliance_user: User) -> None:
    _event(reason="=HYPERLINK(\"http://evil\")")
    response = _client(compliance_user).get("/compliance/export.csv?action=seat_join")
    row = next(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert row["reason"] == "'=HYPERLINK(\"http://evil\")"


@pytest.mark.django_db
def test_every_screen_shows_what_an_action_reads_as(compliance_user: User) -> None:
    event = _event(action="round_approve_payout", round=7, object_type="tables.round", object_id=7)
    client = _client(compliance_user)
    row = '<span title="round_approve_payout">Payout approved</span>'
    for url in ("/compliance/", "/compliance/?exception=any", "/compliance/rounds/7/"):
        assert row in client.get(url).content.decode(), url
    detail = client.get(f"/compliance/events/{event.id}/").content.decode()
    assert f"Event #{event.id}: Payout approved" in detail
    assert "Payout approved (<code>round_approve_payout</code>)" in detail


@pytest.mark.django_db
def test_the_action_filter_offers_the_declared_actions_by_label(compliance_user: User) -> None:
    _event(action="bet_place")
    _event(action="round_void")
    response = _client(compliance_user).get("/compliance/?action=round_void")
    html = response.content.decode()
    assert '<option value="bet_place">Bets placed</option>' in html
    assert '<option value="round_void" selected>Round voided</option>' in html
    assert [e.action for e in response.context["page"].events] == ["round_void"]
    # A code asked for in the address but no longer declared is still filtered on, and shown as asked.
    old = _client(compliance_user).get("/compliance/?action=round_cancel")
    assert '<option value="round_cancel" selected>round_cancel</option>' in old.content.decode()
    assert old.context["page"].events == []


@pytest.mark.django_db
def test_search_finds_events_by_the_label_compliance_reads(compliance_user: User) -> None:
    placed = _event(action="bet_place")
    _event(action="seat_join")
    response = _client(compliance_user).get("/compliance/?q=bets+placed")
    assert [e.id for e in response.context["page"].events] == [placed.id]


@pytest.mark.django_db
def test_the_csv_export_keeps_every_field_and_adds_the_action_label(compliance_user: User) -> None:
    _event(action="round_void", reason="misdeal")
    response = _client(compliance_user).get("/compliance/export.csv?action=round_void")
    reader = csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode()))
    row = next(reader)
    assert reader.fieldnames is not None
    assert reader.fieldnames[-4:] == ["action_label", "amount", "summary", "time_zone"]
    assert {"action", "exception_kind", "reason", "prev_hash", "hash"} <= set(reader.fieldnames)
    assert (row["action"], row["action_label"], row["exception_kind"]) == ("round_void", "Round voided", "void")


@pytest.mark.django_db
def test_a_bad_filter_on_the_export_is_refused_in_plain_words(compliance_user: User) -> None:
    response = _client(compliance_user).get("/compliance/export.csv?date_from=yesterday")
    assert response.status_code == 400
    assert response.content.decode() == "Invalid filter: date_from: Enter a valid date."
    assert not AuditEvent.objects.filter(action="audit_export").exists()
