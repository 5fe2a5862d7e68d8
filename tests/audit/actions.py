"""Audit actions declared for tests only: neutral events, and the exception kinds no product action has yet."""

from __future__ import annotations

from audit.actions import ExceptionKind, declare

THING_TOUCH = declare("thing_touch", "Test thing touched")
THING_ONE = declare("thing_one", "Test thing one")
THING_TWO = declare("thing_two", "Test thing two")
THING_FROM_COMMAND = declare("thing_from_command", "Test thing from a command")
THING_FROM_WORKER = declare("thing_from_worker", "Test thing from a worker")
CARD_CORRECT = declare("test_card_correct", "Test card corrected", exception_kind=ExceptionKind.CORRECTION)
RULING_OVERRIDE = declare("test_ruling_override", "Test ruling overridden", exception_kind=ExceptionKind.OVERRIDE)
