"""Shift books: count win = drop + credits - fills + (closing - opening) beside the ledger's win, flagged beyond
the tolerance; two signatures on every fill and credit; a closed shift is only corrected, with a reason."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from casino.errors import DomainError, NotAllowed, WrongPhase
from floor.demo import chips_for, played_at
from floor.gaming_day import shift_span
from floor.models import ChipCount, ChipSlip, Correction, Drop, Shift, ShiftTableResult
from floor.selectors.books import system_wins
from floor.services.books import drop_record, inventory_record, slip_record, slip_void
from floor.services.corrections import shift_correct
from floor.services.shifts import shift_close
from tables.models import LedgerAccount, LedgerEntry, Table
from tests.floor.conftest import local

pytestmark = pytest.mark.django_db

DAY = date(2025, 3, 17)
OPENING, FILL, CREDIT, CASH, MARKERS = 2_000_000, 200_000, 50_000, 300_000, 50_000


def ledger_win(table: Table) -> int:
    span = shift_span(DAY, "day")
    legs = LedgerEntry.objects.filter(
        table=table, account=LedgerAccount.TABLE_BANKROLL, posted_at__gte=span.starts_at, posted_at__lt=span.ends_at
    )
    return sum(legs.values_list("amount_cents", flat=True))


@pytest.fixture
def played(play: Any, rng_tables: list[Table]) -> Table:
    """Table A played six rounds in the day shift of DAY (and three more in the swing shift, which do not count)."""
    table = rng_tables[0]
    play(table, local(DAY, 10), rounds=6)
    play(table, local(DAY, 15), rounds=3)
    return table


def keep_books(table: Table, floor: User, dealer: User, closing_off_by: int = 0) -> None:
    """Books in which the players took home their buy-in less the table's win (plus an error, if asked)."""
    books = {"day": DAY, "shift_code": "day", "table": table}
    closing = OPENING + FILL - CREDIT - (CASH + MARKERS - ledger_win(table)) + closing_off_by
    with played_at(local(DAY, 6, 5)):
        inventory_record(**books, kind="opening", chips=chips_for(OPENING), actor=floor)
        slip_record(**books, kind="fill", chips=chips_for(FILL), actor=floor, dealer_signer=dealer)
        slip_record(**books, kind="credit", chips=chips_for(CREDIT), actor=floor, dealer_signer=dealer)
        inventory_record(**books, kind="closing", chips=chips_for(closing), actor=floor)
        drop_record(**books, cash_cents=CASH, markers_cents=MARKERS, actor=floor)


def test_closing_stores_the_count_win_beside_the_ledgers_win(
    played: Table, floor_user: User, dealer_user: User, assert_audited: Any
) -> None:
    keep_books(played, floor_user, dealer_user)
    shift = shift_close(shift=Shift.objects.get(gaming_day=DAY, code="day"), actor=floor_user)
    result = ShiftTableResult.objects.get(shift=shift, table=played)
    win = ledger_win(played)
    system = system_wins([played], shift.starts_at, shift.ends_at)[played.pk]
    assert (system.cents, system.postings) == (win, 6 * 3 * 2)  # the day shift's six rounds, 3 seats x 2 circles
    assert result.system_win_cents == win
    closing = OPENING + FILL - CREDIT - (CASH + MARKERS - win)
    assert result.count_win_cents == (CASH + MARKERS) + CREDIT - FILL + (closing - OPENING) == win
    assert (result.difference_cents, result.flagged) == (0, False)
    assert shift.status == Shift.Status.CLOSED
    assert_audited("shift_close", obj=shift, actor=floor_user, after={"tables": 1, "flagged": []})
    assert_audited("chip_fill_record", table=played, approver=dealer_user, actor=floor_user)
    assert_audited("chip_credit_record", table=played, approver=dealer_user)
    assert_audited("chip_inventory_record", table=played, after={"kind": "closing"})
    assert_audited("drop_record", table=played, after={"cash_cents": CASH, "markers_cents": MARKERS})


@override_settings(FLOOR_WIN_TOLERANCE_CENTS=10_000)
def test_a_difference_beyond_the_tolerance_is_flagged(played: Table, floor_user: User, dealer_user: User) -> None:
    keep_books(played, floor_user, dealer_user, closing_off_by=-15_000)  # $150 of chips missing from the tray
    shift = shift_close(shift=Shift.objects.get(gaming_day=DAY, code="day"), actor=floor_user)
    result = ShiftTableResult.objects.get(shift=shift, table=played)
    assert (result.difference_cents, result.flagged) == (-15_000, True)


@override_settings(FLOOR_WIN_TOLERANCE_CENTS=20_000)
def test_a_difference_within_the_tolerance_is_not_flagged(played: Table, floor_user: User, dealer_user: User) -> None:
    keep_books(played, floor_user, dealer_user, closing_off_by=-15_000)
    shift = shift_close(shift=Shift.objects.get(gaming_day=DAY, code="day"), actor=floor_user)
    assert ShiftTableResult.objects.get(shift=shift, table=played).flagged is False


def test_a_negative_inventory_is_refused_and_changes_nothing(rng_tables: list[Table], floor_user: User) -> None:
    with pytest.raises(DomainError, match="cannot be negative") as refused:
        inventory_record(
            day=DAY, shift_code="day", table=rng_tables[0], kind="opening", chips={"500": -3}, actor=floor_user
        )
    assert (refused.value.code, refused.value.field) == ("negative_count", "chips")
    assert not ChipCount.objects.exists()
    assert not Shift.objects.exists()


def test_a_blank_inventory_is_refused_but_an_empty_tray_counted_as_zeros_is_recorded(
    rng_tables: list[Table], floor_user: User
) -> None:
    books = {"day": DAY, "shift_code": "day", "table": rng_tables[0], "kind": "opening", "actor": floor_user}
    with pytest.raises(DomainError, match="at least one denomination") as blank:
        inventory_record(**books, chips={})
    assert (blank.value.code, blank.value.field) == ("no_chips_entered", "chips")
    assert not ChipCount.objects.exists()
    assert not Shift.objects.exists()
    assert inventory_record(**books, chips={"500": 0}).total_cents == 0


@pytest.mark.parametrize(
    ("chips", "code"),
    [({"700": 1}, "bad_denomination"), ({"500": 1.5}, "bad_count"), ({"500": "2"}, "bad_count"), ([500], "bad_chips")],
)
def test_chips_must_be_whole_counts_of_known_denominations(
    rng_tables: list[Table], floor_user: User, chips: Any, code: str
) -> None:
    with pytest.raises(DomainError) as refused:
        inventory_record(day=DAY, shift_code="day", table=rng_tables[0], kind="closing", chips=chips, actor=floor_user)
    assert refused.value.code == code
    assert not ChipCount.objects.exists()


def test_a_fill_needs_a_second_signature_from_a_different_dealer(
    rng_tables: list[Table], floor_user: User, dealer_user: User, compliance_user: User
) -> None:
    table = rng_tables[0]
    fill = {"day": DAY, "shift_code": "day", "table": table, "kind": "fill", "chips": {"10000": 5}, "actor": floor_user}
    with pytest.raises(DomainError, match="second signature") as missing:
        slip_record(**fill, dealer_signer=None)
    assert missing.value.code == "second_signature_required"
    with pytest.raises(DomainError) as same:
        slip_record(**fill, dealer_signer=floor_user)
    assert same.value.code == "same_signer"
    with pytest.raises(DomainError) as not_dealer:
        slip_record(**fill, dealer_signer=compliance_user)
    assert not_dealer.value.code == "signer_not_dealer"
    with pytest.raises(DomainError) as empty:
        slip_record(**{**fill, "chips": {}}, dealer_signer=dealer_user)
    assert empty.value.code == "empty_slip"
    assert not ChipSlip.objects.exists()
    slip = slip_record(**fill, dealer_signer=dealer_user)
    assert (slip.total_cents, slip.dealer_signer, slip.floor_signer) == (50_000, dealer_user, floor_user)


def test_only_the_floor_signs_slips_and_keeps_inventories(
    rng_tables: list[Table], dealer_user: User, compliance_user: User, count_user: User, floor_user: User
) -> None:
    table = rng_tables[0]
    for actor in (dealer_user, compliance_user, count_user):
        with pytest.raises(NotAllowed):
            inventory_record(day=DAY, shift_code="day", table=table, kind="opening", chips={}, actor=actor)
        with pytest.raises(NotAllowed):
            slip_record(
                day=DAY,
                shift_code="day",
                table=table,
                kind="fill",
                chips={"500": 1},
                actor=actor,
                dealer_signer=dealer_user,
            )
    with pytest.raises(NotAllowed, match="compliance is read-only"):
        drop_record(day=DAY, shift_code="day", table=table, cash_cents=1, markers_cents=0, actor=compliance_user)
    with pytest.raises(NotAllowed):
        drop_record(day=DAY, shift_code="day", table=table, cash_cents=1, markers_cents=0, actor=dealer_user)
    assert not Shift.objects.exists()
    drop = drop_record(day=DAY, shift_code="day", table=table, cash_cents=12_345, markers_cents=0, actor=count_user)
    assert (drop.total_cents, drop.counted_by) == (12_345, count_user)


def test_a_negative_drop_is_refused(rng_tables: list[Table], count_user: User) -> None:
    with pytest.raises(DomainError, match="cannot be negative"):
        drop_record(day=DAY, shift_code="day", table=rng_tables[0], cash_cents=-100, markers_cents=0, actor=count_user)
    assert not Drop.objects.exists()


def test_an_unknown_shift_is_refused(rng_tables: list[Table], floor_user: User) -> None:
    with pytest.raises(DomainError, match="there is no shift 'brunch'") as refused:
        inventory_record(
            day=DAY, shift_code="brunch", table=rng_tables[0], kind="opening", chips={"500": 0}, actor=floor_user
        )
    assert refused.value.code == "unknown_shift"


def test_a_shift_closes_only_once_it_has_ended_and_every_active_table_is_counted(
    played: Table, floor_user: User, dealer_user: User
) -> None:
    books = {"day": DAY, "shift_code": "day", "table": played}
    with played_at(local(DAY, 6, 5)):
        inventory_record(**books, kind="opening", chips=chips_for(OPENING), actor=floor_user)
    shift = Shift.objects.get(gaming_day=DAY, code="day")
    with played_at(local(DAY, 13)), pytest.raises(WrongPhase, match="close it after it ends"):
        shift_close(shift=shift, actor=floor_user)
    with pytest.raises(WrongPhase, match="Floor A lacks its closing inventory, drop") as incomplete:
        shift_close(shift=shift, actor=floor_user)
    assert incomplete.value.code == "shift_incomplete"
    assert Shift.objects.get(pk=shift.pk).status == Shift.Status.OPEN
    assert not ShiftTableResult.objects.exists()


def test_a_closed_shift_cannot_be_edited_only_corrected_with_a_reason(
    played: Table, floor_user: User, dealer_user: User, assert_audited: Any
) -> None:
    keep_books(played, floor_user, dealer_user)
    shift = shift_close(shift=Shift.objects.get(gaming_day=DAY, code="day"), actor=floor_user)
    books = {"day": DAY, "shift_code": "day", "table": played}
    with pytest.raises(WrongPhase, match="is closed") as closed:
        inventory_record(**books, kind="closing", chips={"100": 1}, actor=floor_user)
    assert closed.value.code == "shift_closed"
    with pytest.raises(WrongPhase):
        drop_record(**books, cash_cents=1, markers_cents=0, actor=floor_user)
    with pytest.raises(WrongPhase):
        slip_record(**books, kind="fill", chips={"500": 1}, actor=floor_user, dealer_signer=dealer_user)
    fill = ChipSlip.objects.get(kind="fill")
    with pytest.raises(WrongPhase):
        slip_void(slip=fill, reason="typo", actor=floor_user)
    with pytest.raises(DomainError, match="needs a reason"):
        shift_correct(
            shift=shift, table=played, item="drop", reason=" ", actor=floor_user, cash_cents=1, markers_cents=0
        )
    result = ShiftTableResult.objects.get(shift=shift, table=played)
    assert (result.count_win_cents, result.difference_cents) == (result.system_win_cents, 0)

    correction = shift_correct(
        shift=shift,
        table=played,
        item="drop",
        reason="a $100 bill stuck in the box",
        actor=floor_user,
        cash_cents=CASH + 10_000,
        markers_cents=MARKERS,
    )
    result.refresh_from_db()
    assert result.difference_cents == 10_000
    assert correction.before == {"cash_cents": CASH, "markers_cents": MARKERS}
    assert correction.after == {"cash_cents": CASH + 10_000, "markers_cents": MARKERS}
    assert Drop.objects.get(shift=shift, table=played).cash_cents == CASH + 10_000
    assert_audited(
        "shift_correct",
        obj=correction,
        reason="a $100 bill stuck in the box",
        before={"item": "drop", "cash_cents": CASH},
        after={"cash_cents": CASH + 10_000},
    )
    shift_correct(
        shift=shift,
        table=played,
        item="slip",
        slip_id=fill.pk,
        chips={"10000": 25},
        reason="fill was $2,500",
        actor=floor_user,
    )
    result.refresh_from_db()
    assert (result.fills_cents, result.difference_cents) == (250_000, 10_000 - 50_000)
    assert Correction.objects.filter(shift=shift).count() == 2
    with pytest.raises(DomainError, match="blank count records nothing") as blank:
        shift_correct(shift=shift, table=played, item="closing", chips={}, reason="recount", actor=floor_user)
    assert blank.value.code == "no_chips_entered"
    assert Correction.objects.filter(shift=shift).count() == 2


def test_corrections_are_only_for_closed_shifts(played: Table, floor_user: User, dealer_user: User) -> None:
    keep_books(played, floor_user, dealer_user)
    shift = Shift.objects.get(gaming_day=DAY, code="day")
    with pytest.raises(WrongPhase) as still_open:
        shift_correct(
            shift=shift, table=played, item="drop", reason="x", actor=floor_user, cash_cents=1, markers_cents=0
        )
    assert still_open.value.code == "shift_open"


def test_a_void_slip_no_longer_counts(played: Table, floor_user: User, dealer_user: User, assert_audited: Any) -> None:
    keep_books(played, floor_user, dealer_user)
    fill = ChipSlip.objects.get(kind="fill")
    with pytest.raises(DomainError, match="needs a reason"):
        slip_void(slip=fill, reason="", actor=floor_user)
    slip_void(slip=fill, reason="entered twice", actor=floor_user)
    with pytest.raises(WrongPhase, match="already void"):
        slip_void(slip=fill, reason="again", actor=floor_user)
    assert_audited("chip_slip_void", obj=fill, reason="entered twice")
    shift = shift_close(shift=Shift.objects.get(gaming_day=DAY, code="day"), actor=floor_user)
    assert ShiftTableResult.objects.get(shift=shift, table=played).fills_cents == 0
