"""Reads of the exception queue: filters (status, kind, table, gaming days) and keyset pages, newest first."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import F, QuerySet
from django.db.models.fields.tuple_lookups import Tuple, TupleLessThan

from audit.actions import ExceptionKind
from audit.choices import table_choices
from audit.models import ExceptionCase, ReviewStatus
from audit.widgets import FastSelect

OPEN = "open"
STATUS_CHOICES = [
    (OPEN, "Open (new or under review)"),
    *ReviewStatus.choices,
    ("all", "Any status"),
]


class QueueFilter(forms.Form):
    status = forms.ChoiceField(
        choices=STATUS_CHOICES, required=False, initial=OPEN, label="Status", widget=FastSelect
    )
    kind = forms.ChoiceField(
        choices=[("", "Any kind"), *[c for c in ExceptionKind.choices if c[0]]],
        required=False,
        label="Kind",
        widget=FastSelect,
    )
    table = forms.ChoiceField(required=False, label="Table", widget=FastSelect)
    day_from = forms.DateField(required=False, label="Gaming day from", widget=forms.DateInput(attrs={"type": "date"}))
    day_to = forms.DateField(required=False, label="Gaming day to", widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tables = table_choices()
        chosen = self.data.get("table", "") if self.data else ""
        if chosen and chosen not in dict(tables):
            tables = [*tables, (chosen, f"Table {chosen}")]
        field = self.fields["table"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "Any table"), *tables]
        field.widget.attrs["data-searchable"] = "tables"

    def clean_table(self) -> int | None:
        value = self.cleaned_data.get("table") or ""
        if not value:
            return None
        if not (value.isascii() and value.isdigit() and int(value) < 2**63):
            raise forms.ValidationError("Choose a table from the list.")
        return int(value)


@dataclass(frozen=True)
class QueuePage:
    cases: list[ExceptionCase]
    next_before: int | None


def queue_cases(form: QueueFilter) -> QuerySet[ExceptionCase]:
    if not form.is_valid():
        return ExceptionCase.objects.none()
    data = form.cleaned_data
    cases = ExceptionCase.objects.all()
    status = data.get("status") or OPEN
    if status == OPEN:
        cases = cases.filter(status__in=[ReviewStatus.NEW, ReviewStatus.UNDER_REVIEW])
    elif status != "all":
        cases = cases.filter(status=status)
    if data.get("kind"):
        cases = cases.filter(kind=data["kind"])
    if data.get("table") is not None:
        cases = cases.filter(table_id=data["table"])
    day_from: dt.date | None = data.get("day_from")
    day_to: dt.date | None = data.get("day_to")
    if day_from:
        cases = cases.filter(gaming_day__gte=day_from)
    if day_to:
        cases = cases.filter(gaming_day__lte=day_to)
    return cases.order_by("-occurred_at", "-id")


def queue_page(cases: QuerySet[ExceptionCase], *, before: int | None, size: int = 50) -> QueuePage:
    """Keyset pagination on (occurred_at, id), as the event list: every page costs what the first does."""
    if before is not None:
        moment = ExceptionCase.objects.filter(id=before).values_list("occurred_at", flat=True).first()
        if moment is None:
            return QueuePage([], None)
        cases = cases.filter(TupleLessThan(Tuple(F("occurred_at"), F("id")), (moment, before)))
    rows = list(cases[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return QueuePage(rows, rows[-1].id if more and rows else None)
