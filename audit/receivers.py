"""Plumbing hooks: sign-in events into the trail, and the correlation id carried through Celery tasks."""

from __future__ import annotations

import contextvars
from typing import Any

from django.db import transaction

from audit import actions
from audit.context import Actor, activate, current_actor, deactivate, has_actor, new_correlation_id
from audit.services import audit_record

CORRELATION_HEADER = "audit_correlation_id"


def on_user_logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    with transaction.atomic():
        audit_record(action=actions.USER_LOGIN, obj=user, actor=user, object_repr=user.get_username())


def on_user_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is None:  # logging out an anonymous session changes nothing
        return
    with transaction.atomic():
        audit_record(action=actions.USER_LOGOUT, obj=user, actor=user, object_repr=user.get_username())


def on_before_task_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """The queued task carries the correlation id of the request or job that queued it."""
    if headers is not None and CORRELATION_HEADER not in headers:
        headers[CORRELATION_HEADER] = current_actor().correlation_id if has_actor() else new_correlation_id()


_task_tokens: dict[str, contextvars.Token[Actor | None]] = {}


def on_task_prerun(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    request = getattr(task, "request", None)
    inherited = getattr(request, CORRELATION_HEADER, None) or (request.get(CORRELATION_HEADER) if request else None)
    if not inherited and has_actor():  # eager tasks run inside the caller's context
        inherited = current_actor().correlation_id
    actor = Actor(kind="worker", name=f"celery:{getattr(task, 'name', '')}"[:150], correlation_id=inherited or "")
    _task_tokens[task_id] = activate(actor)


def on_task_postrun(task_id: str = "", **kwargs: Any) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        deactivate(token)
