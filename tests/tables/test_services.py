"""Table services: paytables in force, dealer assignment, seats, the round lifecycle guards."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from casino.errors import DomainError, NotAllowed, WrongPhase
from paytables.models import Paytable
from tables.models import Round, Table
from tables.services.bets import bet_place
from tables.services.rounds import round_close_bets, round_start, round_void
from tables.services.seats import seat_join, seat_leave
from tables.services.tables import table_assign_dealer, table_close, table_create, table_open, table_set_paytable
from tests.tables.conftest import HOUSE_TO_1, make_paytable

pytestmark = pytest.mark.django_db


def test_only_an_approved_paytable_can_be_put_on_a_table_and_it_becomes_active(
    manual_table: Table, floor_user: User, house_to_1: Paytable
) -> None:
    draft = Paytable.objects.create(name="Draft table", version=1, basis="to_1")
    with pytest.raises(DomainError, match="only an approved or active version"):
        table_set_paytable(table=manual_table, paytable=draft, actor=floor_user)
    previous = manual_table.paytable
    table_set_paytable(table=manual_table, paytable=house_to_1, actor=floor_user)
    house_to_1.refresh_from_db()
    previous.refresh_from_db()
    assert Table.objects.get(pk=manual_table.pk).paytable == house_to_1
    assert house_to_1.status == "active"
    assert previous.status == "approved"  # no table uses it any more
    assert AuditEvent.objects.filter(action="table_set_paytable", table_id=manual_table.pk).exists()


def test_a_round_keeps_the_paytable_locked_when_bets_closed(
    manual_table: Table, floor_user: User, house_to_1: Paytable
) -> None:
    rnd = round_start(table=manual_table, actor=floor_user)
    bet_place(round=rnd, seat_number=1, amount_cents=500, circles=1, actor=floor_user)
    round_close_bets(round=rnd, actor=floor_user)
    locked = Round.objects.get(pk=rnd.pk).paytable
    table_set_paytable(table=manual_table, paytable=house_to_1, actor=floor_user)
    rnd = Round.objects.get(pk=rnd.pk)
    assert rnd.paytable == locked != house_to_1
    assert rnd.paytable_snapshot["basis"] == "for_1"


def test_a_dealer_cannot_set_paytables_assign_dealers_or_open_tables(
    manual_table: Table, dealer_user: User, other_dealer: User, house_to_1: Paytable
) -> None:
    with pytest.raises(NotAllowed):
        table_set_paytable(table=manual_table, paytable=house_to_1, actor=dealer_user)
    with pytest.raises(NotAllowed):
        table_assign_dealer(table=manual_table, dealer=other_dealer, actor=dealer_user)
    with pytest.raises(NotAllowed):
        table_close(table=manual_table, actor=dealer_user)


def test_assigning_a_dealer_lets_them_run_the_table(manual_table: Table, floor_user: User, other_dealer: User) -> None:
    with pytest.raises(NotAllowed, match="not assigned"):
        round_start(table=manual_table, actor=other_dealer)
    table_assign_dealer(table=manual_table, dealer=other_dealer, actor=floor_user)
    rnd = round_start(table=manual_table, actor=other_dealer)
    assert rnd.dealer == other_dealer


def test_a_table_runs_one_round_at_a_time_and_closes_only_between_rounds(manual_table: Table, floor_user: User) -> None:
    rnd = round_start(table=manual_table, actor=floor_user)
    with pytest.raises(WrongPhase, match="still betting"):
        round_start(table=manual_table, actor=floor_user)
    with pytest.raises(WrongPhase, match="settle or void"):
        table_close(table=manual_table, actor=floor_user)
    round_void(round=rnd, reason="table closing early", actor=floor_user)
    table_close(table=manual_table, actor=floor_user)
    with pytest.raises(WrongPhase, match="closed"):
        round_start(table=manual_table, actor=floor_user)


def test_a_bet_needs_a_seated_player_and_the_only_betting_seat_cannot_leave_after_bets_close(
    floor_user: User, dealer_user: User, jacks_for_1: Paytable
) -> None:
    from tests.tables.conftest import open_table

    table = open_table("Two seats", "manual", jacks_for_1, floor_user, dealer_user, seats=2)
    rnd = round_start(table=table, actor=dealer_user)
    with pytest.raises(DomainError, match="seat 3 is empty"):
        bet_place(round=rnd, seat_number=3, amount_cents=500, circles=1, actor=dealer_user)
    bet_place(round=rnd, seat_number=1, amount_cents=500, circles=2, actor=dealer_user)
    round_close_bets(round=rnd, actor=dealer_user)
    # Issue 14's ruling returns the bets of a player leaving before the deal, but not the round's only bets.
    with pytest.raises(WrongPhase, match="only bets"):
        seat_leave(table=table, seat_number=1, actor=dealer_user)
    seat_leave(table=table, seat_number=2, actor=dealer_user)


def test_closing_bets_needs_a_bet_and_a_paytable(floor_user: User, dealer_user: User) -> None:
    paytable = make_paytable(HOUSE_TO_1, floor_user)
    table = table_create(name="No paytable", actor=floor_user)
    with pytest.raises(DomainError, match="no paytable") as refused:  # it would take bets it could not settle
        table_open(table=table, actor=floor_user)
    assert refused.value.field == "paytable"
    table_set_paytable(table=table, paytable=paytable, actor=floor_user)
    table_open(table=table, actor=floor_user)
    seat_join(table=table, seat_number=1, actor=floor_user)
    rnd = round_start(table=table, actor=floor_user)
    with pytest.raises(DomainError, match="nothing to close"):
        round_close_bets(round=rnd, actor=floor_user)
    bet_place(round=rnd, seat_number=1, amount_cents=500, circles=1, actor=floor_user)
    # A table left open without a paytable (opened before opening needed one) still cannot close its bets.
    Table.objects.filter(pk=table.pk).update(paytable=None)
    with pytest.raises(DomainError, match="no paytable"):
        round_close_bets(round=rnd, actor=floor_user)
    table_set_paytable(table=table, paytable=paytable, actor=floor_user)
    assert round_close_bets(round=rnd, actor=floor_user).phase == "dealing"
