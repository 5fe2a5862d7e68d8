"""Domain errors: what a business rule refused (code, message, field) and its kind; no HTTP, no Django.

Services raise these. How a kind reaches people (an HTTP status for the API, a message next to its cause on a
screen) is decided in one place, `casino.api_errors`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar


class ErrorKind(StrEnum):
    """What sort of refusal an error is (stable lowercase codes)."""

    BAD_INPUT = "bad_input"
    WRONG_PHASE = "wrong_phase"
    CONFLICT = "conflict"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"


class DomainError(Exception):
    """A business rule refused the request and nothing changed; raised as is, it is bad input.

    `code` is a stable lowercase code a client can act on, `message` says what was wrong in plain words,
    `field` names the input at fault when there is one.
    """

    kind: ClassVar[ErrorKind] = ErrorKind.BAD_INPUT
    code: str = "invalid"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.field = field


class BadInput(DomainError):
    """The input breaks a rule (an amount outside the limits, an unknown card, a missing reason)."""


class WrongPhase(DomainError):
    """The object is not in a state that allows the action (bets are closed, the table is closed)."""

    kind = ErrorKind.WRONG_PHASE
    code = "wrong_phase"


class ConcurrentChange(DomainError):
    """Someone else changed the object first; trying again may succeed."""

    kind = ErrorKind.CONFLICT
    code = "concurrent_change"


class NotAllowed(DomainError):
    """The actor's role or assignment does not allow the action."""

    kind = ErrorKind.FORBIDDEN
    code = "permission_denied"


class NotFound(DomainError):
    """The object the request names does not exist."""

    kind = ErrorKind.NOT_FOUND
    code = "not_found"
