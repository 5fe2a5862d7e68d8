"""The gaming day and its shifts (local wall-clock hours from settings): which ones a moment falls in, and when
each starts and ends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class ShiftSpan:
    """One shift of one gaming day: [starts_at, ends_at) in aware datetimes."""

    gaming_day: date
    code: str
    starts_at: datetime
    ends_at: datetime

    @property
    def label(self) -> str:
        return f"{self.gaming_day.isoformat()} {self.code}"


def _start_hour() -> int:
    return int(settings.FLOOR_GAMING_DAY_START_HOUR)


def shift_codes() -> list[str]:
    """The shift codes in gaming-day order ("day", "swing", "grave")."""
    return [code for code, _ in settings.FLOOR_SHIFTS]


def hour_bucket(moment: datetime) -> datetime:
    """The whole UTC hour holding `moment`: a summary row's key. UTC, so the hour repeated when clocks go back is two
    buckets, not one; its local hour, gaming day and shift are those of its start (exact wherever the zone's offset
    is whole hours; with a half-hour offset a bucket belongs to the local hour it starts in)."""
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def gaming_day(moment: datetime) -> date:
    """The gaming day of a moment: the local date, counted from the day's start hour (06:00 belongs to the new day)."""
    return (timezone.localtime(moment) - timedelta(hours=_start_hour())).date()


def shift_code(moment: datetime) -> str:
    """The code of the shift a moment falls in."""
    offset = (timezone.localtime(moment).hour - _start_hour()) % 24
    current = settings.FLOOR_SHIFTS[0][0]
    for code, hour in settings.FLOOR_SHIFTS:
        if (hour - _start_hour()) % 24 <= offset:
            current = code
    return str(current)


def _at(day: date, hour: int) -> datetime:
    """Hour `hour` of gaming day `day` as an aware datetime (hours before the start hour fall on the next date)."""
    on = day if hour >= _start_hour() else day + timedelta(days=1)
    return datetime.combine(on, time(hour), tzinfo=timezone.get_current_timezone())


def day_window(day: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day."""
    return _at(day, _start_hour()), _at(day + timedelta(days=1), _start_hour())


def shifts_of_day(day: date) -> list[ShiftSpan]:
    """Every shift of a gaming day, in order."""
    starts = [(code, _at(day, hour)) for code, hour in settings.FLOOR_SHIFTS]
    ends = [start for _, start in starts[1:]] + [day_window(day)[1]]
    return [ShiftSpan(day, code, start, end) for (code, start), end in zip(starts, ends, strict=True)]


def shift_span(day: date, code: str) -> ShiftSpan:
    """One named shift of a gaming day; KeyError for a code that is not configured."""
    for span in shifts_of_day(day):
        if span.code == code:
            return span
    raise KeyError(code)


def shift_of(moment: datetime) -> ShiftSpan:
    return shift_span(gaming_day(moment), shift_code(moment))
