"""The floor app's models: dealer sessions, table accounting and the summary rows reports read."""

from floor.models.accounting import ChipCount, ChipSlip, Correction, Drop, Shift, ShiftTableResult
from floor.models.sessions import DealerSession
from floor.models.summaries import TableHour, TableShift

__all__ = [
    "ChipCount",
    "ChipSlip",
    "Correction",
    "DealerSession",
    "Drop",
    "Shift",
    "ShiftTableResult",
    "TableHour",
    "TableShift",
]
