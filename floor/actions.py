"""The audit actions the floor app records (declared once: code, label, exception kind; see audit/actions.py)."""

from __future__ import annotations

from audit.actions import ExceptionKind, declare

DEALER_SIGN_IN = declare("dealer_sign_in", "Dealer signed in at a table")
DEALER_SIGN_OUT = declare("dealer_sign_out", "Dealer signed out of a table")
TABLE_SET_PIT = declare("table_set_pit", "Table moved to a pit")
SHIFT_OPEN = declare("shift_open", "Shift opened")
SHIFT_CLOSE = declare("shift_close", "Shift closed")
SHIFT_CORRECT = declare("shift_correct", "Closed shift corrected", exception_kind=ExceptionKind.CORRECTION)
CHIP_INVENTORY_RECORD = declare("chip_inventory_record", "Chip inventory counted")
CHIP_FILL_RECORD = declare("chip_fill_record", "Fill recorded")
CHIP_CREDIT_RECORD = declare("chip_credit_record", "Credit recorded")
CHIP_SLIP_VOID = declare("chip_slip_void", "Fill or credit slip voided", exception_kind=ExceptionKind.VOID)
DROP_RECORD = declare("drop_record", "Drop counted")
FLOOR_SUMMARIES_REBUILD = declare("floor_summaries_rebuild", "Floor summaries rebuilt from the ledger")
