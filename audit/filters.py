"""The one set of event filters shared by the compliance screens, the CSV export and the API."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils import timezone

from audit import providers
from audit.actions import ACTIONS, ExceptionKind
from audit.choices import actor_choices, table_choices, tables_named
from audit.models import ActorKind, AuditEvent
from audit.search_misses import round_ids_named
from audit.widgets import FastSelect
from casino.errors import BadInput


class UtcDateTimeField(forms.DateTimeField):
    """A date and time read in the casino's zone (or with its own offset) and held in UTC; an offset or year the
    database cannot store is refused as bad input, never sent to the query."""

    def to_python(self, value: Any) -> dt.datetime | None:
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(dt.UTC)
        except (OverflowError, ValueError):
            message = "this date and time is out of range once taken to UTC"
            raise forms.ValidationError(message, code="invalid") from None


class UtcDateTimeFilter(django_filters.DateTimeFilter):  # type: ignore[misc]  # django-filter ships no types
    field_class = UtcDateTimeField


def _start_of(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class AuditEventFilter(django_filters.FilterSet):  # type: ignore[misc]  # django-filter ships no types
    """Every filter narrows with an indexed column; results are always ordered newest id first."""

    date_from = django_filters.DateFilter(method="filter_date_from", label="From (date)")
    date_to = django_filters.DateFilter(method="filter_date_to", label="To (date, inclusive)")
    # Date and time in the casino's time zone (TIME_ZONE), as the screens show every time.
    since = UtcDateTimeFilter(
        field_name="occurred_at",
        lookup_expr="gte",
        label="From",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    until = UtcDateTimeFilter(
        field_name="occurred_at",
        lookup_expr="lt",
        label="Until (before)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    table = django_filters.NumberFilter(field_name="table_id", label="Table", widget=FastSelect)
    round = django_filters.CharFilter(method="filter_round", label="Round")
    game = django_filters.CharFilter(method="filter_game", label="Home game")
    actor = django_filters.CharFilter(field_name="actor_username", label="Actor", widget=FastSelect)
    actor_kind = django_filters.ChoiceFilter(choices=ActorKind.choices, label="Actor kind", empty_label="Any kind")
    # Any stored code may be asked for (an old one too); the screens offer the declared ones by their labels.
    action = django_filters.CharFilter(field_name="action", label="Action", widget=FastSelect)
    object_type = django_filters.CharFilter(field_name="object_type", label="Object type")
    object_id = django_filters.CharFilter(field_name="object_id", label="Object id")
    exception = django_filters.ChoiceFilter(
        method="filter_exception",
        choices=[("any", "Any exception"), *[c for c in ExceptionKind.choices if c[0]]],
        label="Exception",
        empty_label="Any event",
    )
    correlation_id = django_filters.CharFilter(field_name="correlation_id", label="Request/correlation id")
    q = django_filters.CharFilter(method="filter_search", label="Search")

    class Meta:
        model = AuditEvent
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = self.data.get("action", "") if self.data else ""
        undeclared = [(chosen, chosen)] if chosen and chosen not in ACTIONS else []
        self.form.fields["action"].widget.choices = [("", "Any action"), *ACTIONS.choices(), *undeclared]
        zone = timezone.get_current_timezone_name()
        for name in ("since", "until"):
            self.form.fields[name].label = f"{self.form.fields[name].label} ({zone})"
            self.form.fields[name].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"]
        tables = table_choices()
        chosen_table = self.data.get("table", "") if self.data else ""
        if chosen_table and chosen_table not in dict(tables):
            tables = [*tables, (chosen_table, f"Table {chosen_table}")]
        self.form.fields["table"].widget.choices = [("", "Any table"), *tables]
        actors = actor_choices()
        chosen_actor = self.data.get("actor", "") if self.data else ""
        if chosen_actor and chosen_actor not in dict(actors):
            actors = [*actors, (chosen_actor, chosen_actor)]
        self.form.fields["actor"].widget.choices = [("", "Anyone"), *actors]
        for name, what in (("table", "tables"), ("actor", "actors"), ("action", "actions")):
            self.form.fields[name].widget.attrs["data-searchable"] = what
        # Named searches get a box wide enough for their whole hint (compliance.css: input.named-search).
        self.form.fields["round"].widget.attrs.update({"placeholder": "Triple Draw 1 round 9, or its id",
                                                       "class": "named-search"})
        self.form.fields["game"].widget.attrs.update({"placeholder": "Five Card Draw 1 game 2, or its id",
                                                      "class": "named-search"})

    def filter_round(self, queryset: QuerySet[AuditEvent], name: str, value: str) -> QuerySet[AuditEvent]:
        """A round by its id or by its name as the screens show it ("Triple Draw 1 round 9"), under the table's name
        today or one it had before a rename."""
        text = value.strip()
        if text.isascii() and text.isdigit():
            return queryset.filter(round_id=int(text)) if int(text) < 2**63 else queryset.none()
        # As typed, else under any name its table has or had, in any case: the index holds one spelling each.
        round_ids = round_ids_named(text)
        return queryset.filter(round_id__in=round_ids) if round_ids else queryset.none()

    def filter_game(self, queryset: QuerySet[AuditEvent], name: str, value: str) -> QuerySet[AuditEvent]:
        """A home game's events (its own, its hands' and its players'), the game by its id or its name (then or now)."""
        if not value.strip():
            return queryset
        chosen = providers.home_game_events(value)
        return queryset.filter(chosen) if chosen is not None else queryset.none()

    def filter_date_from(self, queryset: QuerySet[AuditEvent], name: str, value: dt.date) -> QuerySet[AuditEvent]:
        return queryset.filter(occurred_at__gte=_start_of(value))

    def filter_date_to(self, queryset: QuerySet[AuditEvent], name: str, value: dt.date) -> QuerySet[AuditEvent]:
        return queryset.filter(occurred_at__lt=_start_of(value + dt.timedelta(days=1)))

    def filter_exception(self, queryset: QuerySet[AuditEvent], name: str, value: str) -> QuerySet[AuditEvent]:
        if value == "any":
            return queryset.exclude(exception_kind="")
        return queryset.filter(exception_kind=value)

    def filter_search(self, queryset: QuerySet[AuditEvent], name: str, value: str) -> QuerySet[AuditEvent]:
        text = value.strip()
        if not text:
            return queryset
        if text.isdigit():
            number = int(text)
            return queryset.filter(
                Q(id=number) | Q(sequence=number) | Q(object_id=text) | Q(round_id=number) | Q(table_id=number)
            )
        # A table's whole name, present or earlier (renames are audited), finds every event at that table: events
        # keep the name the table had when they happened, so an earlier name alone would miss the later ones.
        tables = [int(table_id) for table_id, _ in tables_named(text)]
        return queryset.filter(
            Q(table_id__in=tables)
            | Q(correlation_id=text)
            | Q(actor_username=text)
            | Q(action=text)
            | Q(action__in=ACTIONS.codes_labelled(text))
            | Q(object_repr__icontains=text)
            | Q(reason__icontains=text)
        )


def filter_events(params: Any, queryset: QuerySet[AuditEvent] | None = None) -> tuple[QuerySet[AuditEvent], forms.Form]:
    """Apply the filters in `params` (a QueryDict); returns the queryset and the bound form (with any errors)."""
    filterset = AuditEventFilter(params, queryset=queryset if queryset is not None else AuditEvent.objects.all())
    form = filterset.form
    if not filterset.is_valid():
        return AuditEvent.objects.none(), form
    return filterset.qs.order_by("-occurred_at", "-id"), form


def filter_refusal(form: forms.Form) -> BadInput | None:
    """The first invalid filter of a bound form, as the error the API answers and the export shows (None if valid)."""
    if not form.errors:
        return None
    field, errors = next(iter(form.errors.items()))
    return BadInput(f"{field}: {errors[0]}", code="invalid", field=field)
