"""A readable trail (issue 16 item 1): labels, dollars, card symbols, field names in words, tables and rounds by name,
filters from lists and date-times in the casino's time zone; and the round record (item 2)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zoneinfo
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client
from django.test.utils import override_settings

from audit.presentation import amount_cents, field_label, show_value, summary
from audit.services import audit_record
from tables.models import Round, Table
from tables.services.approvals import round_approve_payout
from tests.tables.conftest import client_for
from tests.tables.helpers import play_manual

ROWS = ["2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d", "2h 3h 4h 5h 6h"]


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_values_read_as_a_person_reads_them() -> None:
    assert field_label("supervisor_approval_threshold_cents") == "Approval threshold"
    assert field_label("paytable_id") == "Paytable"
    assert field_label("player_name") == "Player name"
    assert show_value(2500, name="supervisor_approval_threshold_cents") == "$25.00"
    assert show_value(["Ts", "2c", "Ah"], name="held") == "10♠ 2♣ A♥"
    assert show_value({"1": 500, "2": 500}, name="bets") == "circle 1: $5.00; circle 2: $5.00"
    assert show_value("full_house") == "full house"
    assert show_value(True) == "yes"
    assert summary({"rows": [["Ts", "2c", "5c", "5s", "Ks"]], "phase": "settling"}) == "Draw rows: 1: 10♠ 2♣ 5♣ 5♠ K♠"
    assert amount_cents({"bets": {"1": 500, "2": 500}}) == 1000
    assert amount_cents({"phase": "settled"}) is None
    # A house charge names its amount: the rake taken, not the pot it was taken from.
    assert amount_cents({"charge": "rake", "pot_cents": 1_400, "amount_cents": 70}) == 70
    # An action that says it put in nothing (a home-game check or draw) has no amount: not its pot, not $0.00.
    assert amount_cents({"action": "2 check", "amount_cents": 0, "pot_cents": 1_000}) is None
    # A buy-in range or a cap is a limit someone set, not money that moved.
    assert amount_cents({"buy_in_min_cents": 1_000, "buy_in_max_cents": 50_000, "rake_cap_cents": 300}) is None


def test_the_amount_is_what_the_event_moved() -> None:
    """The compliance tester's list: each event's Amount is the money it moved, not the largest figure it holds."""
    # A Triple Draw settlement that took $30.00 of bets and paid $5.00 back: $5.00 paid, not the stakes.
    assert amount_cents({"phase": "settled", "table_net_cents": 2_500, "stakes_cents": 3_000,
                         "returns_cents": 500}) == 500
    # A game opened: its prices and limits moved nothing.
    assert amount_cents({"number": 1, "buy_in_min_cents": 2_000, "buy_in_max_cents": 50_000, "charge": "time",
                         "rake_cap_cents": 0, "time_charge_cents": 500}) is None
    # A hand started: the antes it took, not the carried pot in the middle.
    assert amount_cents({"number": 2, "ante_cents": 100, "antes_cents": 300, "carried_pot_cents": 400}) == 300
    # A game closed: what its players were cashed out, not the carried pot.
    assert amount_cents({"status": "closed", "cashed_out": {"1": 9_000, "2": 11_400}, "carried_pot_cents": 400,
                         "paid": {"2": 400}}) == 20_400
    # A void gives chips back; an award by ruling pays the pot out; a carried pot returned.
    assert amount_cents({"status": "voided", "returned": {"1": 300, "2": 500}}) == 800
    assert amount_cents({"pot_cents": 800, "awarded": {"2": 800}, "line": "floor award 2 800"}) == 800
    assert amount_cents({"carried_pot_cents": 700, "to": {"1": 300, "2": 400}}) == 700
    # A hand settled at the showdown: the pots it gave to someone (a pot left in the middle moved nothing).
    result = {"pots": [{"amount_cents": 600, "winners": [2]}, {"amount_cents": 200, "winners": [1, 2]}]}
    assert amount_cents({"hand": 1, "summary": "...", "result": result}) == 800
    assert amount_cents({"hand": 1, "result": {"pots": [{"amount_cents": 600, "winners": []}]}}) is None


def test_home_game_money_in_nested_values_reads_as_dollars_not_bare_cents() -> None:
    # A void's chips returned, a ruling's award, a close's cash-outs and payments, per seat: cents, read as dollars
    # (the list showed "Awarded: seat 1: 600" beside an amount of $6.00).
    assert summary({"status": "voided", "returned": {"3": 300, "1": 100}}) == (
        "Status: voided; Returned: seat 3: $3.00; seat 1: $1.00")
    assert summary({"pot_cents": 600, "awarded": {"1": 350, "2": 250}}) == (
        "Pot: $6.00; Awarded: seat 1: $3.50; seat 2: $2.50")
    assert show_value({"1": 19_000}, name="cashed_out") == "seat 1: $190.00"
    assert show_value({"2": 1_000}, name="paid") == "seat 2: $10.00"
    assert show_value({"3": 1_000}, name="to") == "seat 3: $10.00"
    # A named entry has its own unit: a game's announced rules read "Ante: $1.00", not "Ante: 100".
    assert show_value({"ante_cents": 100, "betting": "pot_limit", "min_bet_cents": 200, "max_discard": 3},
                      name="rules") == "Ante: $1.00; Betting: pot limit; Minimum bet: $2.00; Max discard: 3"
    assert show_value({"carried_pot_cents": 0, "dead": []}, name="result") == "Carried pot: $0.00; Dead: none"
    # Cards dealt one at a time ([seat, card] in order) read per seat, not as numbered pairs ("1: 2, 10♣; 2: 3, 3♣").
    assert show_value([[2, "Tc"], [3, "3c"], [2, "7h"]], name="cards") == "seat 2: 10♣ 7♥; seat 3: 3♣"
    # A correction says which action (counted from 0, as the API takes it) and what it replaced, on one line.
    assert summary({"index": 11, "action": "1 check", "replaced": "1 call", "phase": "betting"}) == (
        "Action index (from 0): 11; Action: Seat 1 checks; Replacing: Seat 1 calls")
    # A field recorded blank is left out of the line rather than shown as "Player card: ;".
    assert summary({"name": "Ann", "player_card": "", "buy_in_cents": 20_000}) == "Name: Ann; Buy in: $200.00"
    # Seat-keyed entries still keep the field's unit, and circles stay circles.
    assert show_value({"1": 500, "2": 500}, name="bets") == "circle 1: $5.00; circle 2: $5.00"


@pytest.mark.django_db
def test_the_list_shows_amounts_names_and_cards_not_codes_and_cents(compliance_user: User) -> None:
    audit_record(action="table_update_limits", table=None, after={"supervisor_approval_threshold_cents": 2500})
    audit_record(action="cards_deal", after={"dealt": {"3": ["Ah", "Kd", "Qs", "Jc", "Td"]}, "phase": "holding"})
    html = _client(compliance_user).get("/compliance/").content.decode()
    assert "Approval threshold: $25.00" in html
    assert "Cards dealt: seat 3: A♥ K♦ Q♠ J♣ 10♦" in html
    assert "supervisor_approval_threshold_cents" not in html
    assert ">$25.00</td>" in html  # the amount column


@pytest.mark.django_db
def test_filters_offer_tables_actors_and_actions_by_name(manual_table: Table, compliance_user: User) -> None:
    client = _client(compliance_user)
    html = client.get("/compliance/").content.decode()
    assert f'<option value="{manual_table.pk}">Manual 1</option>' in html
    assert '<option value="fiona">fiona</option>' in html
    assert '<option value="table_open">Table opened</option>' in html
    assert html.count("data-searchable=") == 3
    chosen = client.get(f"/compliance/?table={manual_table.pk}&actor=fiona&action=table_open")
    assert [e.action for e in chosen.context["page"].events] == ["table_open"]


@pytest.mark.django_db
def test_a_round_is_found_by_its_name(manual_table: Table, dealer_user: User, compliance_user: User) -> None:
    state = play_manual(client_for(dealer_user), manual_table.pk, {1: _seat("As Ks Qs Js Ts")}, ROWS)
    events = _client(compliance_user).get("/compliance/?round=Manual+1+round+1").context["page"].events
    assert events
    assert {e.round_id for e in events} == {state["id"]}


@pytest.mark.django_db
@override_settings(TIME_ZONE="America/Los_Angeles")
def test_date_time_filters_are_in_the_casinos_time_zone_and_every_screen_says_so(compliance_user: User) -> None:
    event = audit_record(action="seat_join")
    local = event.occurred_at.astimezone(zoneinfo.ZoneInfo("America/Los_Angeles"))
    client = _client(compliance_user)
    since = (local - dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
    until = (local + dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
    found = client.get(f"/compliance/?since={since}&until={until}&action=seat_join")
    assert [e.id for e in found.context["page"].events] == [event.id]
    later = (local + dt.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
    assert client.get(f"/compliance/?since={later}&action=seat_join").context["page"].events == []
    for url in ("/compliance/", "/compliance/exceptions/", f"/compliance/events/{event.id}/", "/compliance/reports/"):
        assert "Times are in America/Los_Angeles" in client.get(url).content.decode(), url
    assert "From (America/Los_Angeles)" in found.content.decode()
    response = client.get("/compliance/export.csv?action=seat_join")
    row = next(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert row["time_zone"] == "America/Los_Angeles"
    assert row["occurred_at"] == local.isoformat()


def _seat(dealt: str, held: str | None = None) -> dict[str, object]:
    return {"bet": 500, "circles": 2, "dealt": dealt, "held": dealt if held is None else held}


@pytest.mark.django_db
def test_the_round_record_opens_with_what_happened(
    manual_table: Table, dealer_user: User, floor_user: User, compliance_user: User
) -> None:
    manual_table.supervisor_approval_threshold_cents = 100_000
    manual_table.save(update_fields=["supervisor_approval_threshold_cents"])
    state = play_manual(
        client_for(dealer_user),
        manual_table.pk,
        {1: _seat("As Ks Qs Js Ts"), 2: _seat("7s 8h 9d Jc Kd", "Jc")},
        ROWS,
    )
    assert state["phase"] == "awaiting_approval"


    round_approve_payout(round=Round.objects.get(pk=state["id"]), actor=floor_user)
    html = _client(compliance_user).get(f"/compliance/rounds/{state['id']}/").content.decode()
    what = html[html.index("What happened") : html.index("Replay verdict")]
    assert "Manual 1, round 1" in what
    assert "circle 1: $5.00, circle 2: $5.00" in what
    assert "A♠ K♠ Q♠ J♠ 10♠" in what  # dealt and held
    assert "2♣ 3♣ 4♣ 5♣ 6♣" in what  # row 1
    assert "Royal flush" in what
    assert "$4,000.00" in what  # each royal's payout
    assert "$8,000.00" in what  # seat 1 paid in all
    assert "Payout approved by fiona" in what
    assert "Consistent" in html  # the replay verdict
    stylesheet = finders.find("audit/compliance.css")
    assert "@media print" in Path(str(stylesheet)).read_text()  # printable as the round's record


def test_a_stored_date_and_time_reads_in_the_casinos_zone_to_the_second() -> None:
    """A time charge's "Paid until" read 2026-12-02T22:18:53.298235+00:00: the raw ISO text, in UTC whatever the
    casino's zone, to the microsecond."""
    stored = "2026-12-02T22:18:53.298235+00:00"
    with override_settings(TIME_ZONE="America/New_York"):
        assert show_value(stored, name="paid_until") == "2026-12-02 17:18:53"
        assert summary({"charge": "time", "amount_cents": 500, "paid_until": stored}) == (
            "Charge: time; Amount: $5.00; Paid until: 2026-12-02 17:18:53")
    assert show_value("2026-12-02", name="day") == "2026-12-02"  # a date alone is not a moment: left as it is
    assert show_value("not 2026-12-02T22:18:53", name="note") == "not 2026-12-02T22:18:53"
    assert show_value("2026-13-45T22:18:53+00:00", name="note") == "2026-13-45T22:18:53+00:00"  # shown, not a crash


def test_a_home_hands_pots_read_as_amounts_and_winners_not_a_count() -> None:
    """A settled hand's summary read "Pots: 1 entries": how much, and to whom, was on the event's page only."""
    assert show_value([{"amount_cents": 300, "winners": [2]}], name="pots") == "$3.00 to seat 2"
    assert show_value([{"amount_cents": 900, "winners": [1, 3]}, {"amount_cents": 250, "winners": [3]}],
                      name="pots") == "$9.00 to seats 1, 3; $2.50 to seat 3"
    assert show_value([{"amount_cents": 700, "winners": []}], name="pots") == "$7.00 stays in the middle"
    assert show_value([{"code": "a"}], name="lines") == "1 entry"
    assert show_value([{"code": "a"}, {"code": "b"}], name="lines") == "2 entries"
