"""The gaming day starts at its configured hour and is cut into shifts; summary buckets are whole UTC hours."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from django.test import override_settings

from floor.gaming_day import day_window, gaming_day, hour_bucket, shift_code, shift_of, shifts_of_day

LA = ZoneInfo("America/Los_Angeles")


@override_settings(TIME_ZONE="America/Los_Angeles", FLOOR_GAMING_DAY_START_HOUR=6)
def test_a_moment_before_the_start_hour_belongs_to_the_previous_gaming_day() -> None:
    assert gaming_day(datetime(2025, 3, 18, 5, 59, tzinfo=LA)) == date(2025, 3, 17)
    assert gaming_day(datetime(2025, 3, 18, 6, 0, tzinfo=LA)) == date(2025, 3, 18)
    # The same instant written in UTC is still judged by the casino's clock.
    assert gaming_day(datetime(2025, 3, 18, 12, 30, tzinfo=UTC)) == date(2025, 3, 17)


@override_settings(
    TIME_ZONE="America/Los_Angeles",
    FLOOR_GAMING_DAY_START_HOUR=6,
    FLOOR_SHIFTS=(("day", 6), ("swing", 14), ("grave", 22)),
)
def test_shifts_cover_the_gaming_day_in_order_without_gaps() -> None:
    spans = shifts_of_day(date(2025, 3, 17))
    assert [span.code for span in spans] == ["day", "swing", "grave"]
    assert spans[0].starts_at == datetime(2025, 3, 17, 6, tzinfo=LA)
    assert spans[2].ends_at == datetime(2025, 3, 18, 6, tzinfo=LA) == day_window(date(2025, 3, 17))[1]
    assert all(a.ends_at == b.starts_at for a, b in pairwise(spans))
    assert shift_code(datetime(2025, 3, 18, 3, tzinfo=LA)) == "grave"
    assert shift_of(datetime(2025, 3, 18, 3, tzinfo=LA)).gaming_day == date(2025, 3, 17)


@override_settings(
    TIME_ZONE="America/Los_Angeles", FLOOR_GAMING_DAY_START_HOUR=4, FLOOR_SHIFTS=(("early", 4), ("late", 16))
)
def test_the_start_hour_and_shifts_are_configurable() -> None:
    assert gaming_day(datetime(2025, 3, 18, 5, tzinfo=LA)) == date(2025, 3, 18)
    assert shift_code(datetime(2025, 3, 18, 3, tzinfo=LA)) == "late"
    assert [s.code for s in shifts_of_day(date(2025, 3, 18))] == ["early", "late"]


@override_settings(TIME_ZONE="America/Los_Angeles", FLOOR_GAMING_DAY_START_HOUR=6)
def test_the_gaming_day_with_the_clock_change_is_an_hour_shorter_and_its_hours_are_distinct_buckets() -> None:
    start, end = day_window(date(2025, 3, 8))  # clocks go forward at 02:00 on 9 March 2025
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=23)
    first, second = datetime(2025, 11, 2, 8, 30, tzinfo=UTC), datetime(2025, 11, 2, 9, 30, tzinfo=UTC)
    assert first.astimezone(LA).hour == second.astimezone(LA).hour == 1  # 01:30 twice when clocks go back
    assert hour_bucket(first) != hour_bucket(second)
