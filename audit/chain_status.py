"""The hash chain's state as compliance reads it: verified, stale (amber), broken (red), with who checked and when."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from audit.models import ChainVerification
from audit.selectors import chain_state


def verify_schedule_seconds() -> int:
    """How often the periodic verification runs (AUDIT_VERIFY_SECONDS, the beat schedule's interval)."""
    return int(getattr(settings, "AUDIT_VERIFY_SECONDS", 900))


@dataclass(frozen=True)
class ChainStatus:
    level: str  # "ok" (green), "stale" (amber: never checked, or not for twice the schedule), "broken" (red)
    headline: str
    last_check: ChainVerification | None
    sealed: int
    pending: int
    oldest_pending_at: dt.datetime | None
    schedule_seconds: int
    running_run: str = ""

    @property
    def age_seconds(self) -> int | None:
        if self.last_check is None:
            return None
        return int((timezone.now() - self.last_check.checked_at).total_seconds())


def chain_status(*, now: dt.datetime | None = None) -> ChainStatus:
    state = chain_state()
    check = state.last_check
    schedule = verify_schedule_seconds()
    moment = now or timezone.now()
    if check is not None and not check.ok:
        level, headline = "broken", "BROKEN — the last verification failed"
    elif check is None:
        level, headline = "stale", "Never verified"
    elif (moment - check.checked_at).total_seconds() > 2 * schedule:
        level, headline = "stale", "Verification overdue"
    else:
        level, headline = "ok", "Verified"
    return ChainStatus(
        level=level,
        headline=headline,
        last_check=check,
        sealed=state.sealed,
        pending=state.pending,
        oldest_pending_at=state.oldest_pending_at,
        schedule_seconds=schedule,
    )
