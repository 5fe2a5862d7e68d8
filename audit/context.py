"""Who is acting right now: a context variable set by middleware, Celery task hooks and commands."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from contextvars import ContextVar, Token
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Actor:
    """The acting user (or worker/device/system) and the request or job it acts in."""

    user: Any = None  # a django User or None; typed loosely to keep this module import-light
    kind: str = "system"
    name: str = ""
    correlation_id: str = ""
    client_address: str | None = None


_current: ContextVar[Actor | None] = ContextVar("audit_actor", default=None)


def new_correlation_id() -> str:
    return uuid.uuid4().hex


def has_actor() -> bool:
    """Whether a request, task or command has set an actor (rather than the default system one)."""
    return _current.get() is not None


def activate(actor: Actor) -> Token[Actor | None]:
    """Set the actor until `deactivate(token)`; for hooks that cannot wrap a block (Celery task signals)."""
    return _current.set(actor if actor.correlation_id else replace(actor, correlation_id=new_correlation_id()))


def deactivate(token: Token[Actor | None]) -> None:
    _current.reset(token)


def current_actor() -> Actor:
    actor = _current.get()
    if actor is None:
        return Actor(kind="system", name="system", correlation_id=new_correlation_id())
    return actor


@contextlib.contextmanager
def acting_as(actor: Actor | None = None, **changes: Any) -> Iterator[Actor]:
    """Run a block as `actor` (or the current actor with `changes`), restoring the previous one after."""
    base = actor if actor is not None else current_actor()
    chosen = replace(base, **changes) if changes else base
    if not chosen.correlation_id:
        chosen = replace(chosen, correlation_id=new_correlation_id())
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)
