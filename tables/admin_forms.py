"""The Table admin form: limits typed in dollars, only approved paytables and only dealers offered, and the
services' own checks run on clean so a refusal is shown beside its field with everything typed kept."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from audit.roles import DEALER, has_role
from casino.engine.variants import HOME_VARIANTS
from casino.errors import DomainError
from casino.money_fields import DollarsField
from paytables.models import Paytable
from paytables.selectors import paytable_analysis_or_none
from paytables.services import return_outside_band
from tables.models import Table, TableType
from tables.services.tables import LIMIT_FIELDS, USABLE_PAYTABLE, check_limits, check_name, check_paytable

LIMIT_LABELS = {
    "min_bet_cents": ("Minimum bet ($)", "Per betting circle, in dollars and cents (25 means $25.00)."),
    "max_bet_cents": ("Maximum bet ($)", "Per betting circle, in dollars and cents."),
    "max_payout_per_seat_cents": ("Payout cap per seat ($)", "A seat's winnings in one round stop here."),
    "supervisor_approval_threshold_cents": (
        "Supervisor approval from ($)",
        "A seat winning this much or more in one round waits for a floor supervisor's approval (0: never).",
    ),
}


def dealer_queryset() -> QuerySet[User]:
    """Users who hold the dealer role (superusers administer; they are not dealers)."""
    return User.objects.filter(groups__name=DEALER, is_active=True, is_superuser=False).distinct().order_by("username")


def paytable_choice_label(paytable: Paytable) -> str:
    """ "Jacks or Better 9/6 v2 · approved · return 99.54 %" (the status and, once analysed, the return)."""
    label = f"{paytable} · {paytable.get_status_display().lower()}"
    analysis = paytable_analysis_or_none(paytable)
    if analysis is not None and analysis.return_ratio is not None:
        label += f" · return {analysis.return_ratio * 100:.2f} %"
        if return_outside_band(analysis.return_ratio):
            label += " (outside the band)"
    return label


class PaytableChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return paytable_choice_label(obj)


class DealerChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """Offers only dealers; a user without the dealer role (say, one who lost it since the page loaded) is
    refused by name instead of as an unknown choice."""

    def label_from_instance(self, obj: Any) -> str:
        full = obj.get_full_name()
        return f"{full} ({obj.username})" if full else obj.username

    def _check_values(self, value: Iterable[Any]) -> QuerySet[User]:
        keys = [str(key) for key in value]
        if any(not key.isdigit() for key in keys):
            raise forms.ValidationError("choose dealers from the list", code="invalid_choice")
        users = list(User.objects.filter(pk__in=keys))
        if len(users) != len(set(keys)):
            raise forms.ValidationError("a chosen dealer no longer exists", code="invalid_choice")
        refused = sorted(user.username for user in users if user.is_superuser or not has_role(user, DEALER))
        if refused:
            raise forms.ValidationError(
                f"{', '.join(refused)} {'is' if len(refused) == 1 else 'are'} not a dealer: only users with the "
                "dealer role can be assigned to a table",
                code="not_a_dealer",
            )
        return User.objects.filter(pk__in=keys)


# What only a Triple Draw table has: bets per betting circle, a payout cap and approval threshold, a paytable. A
# home-game table's stakes, buy-ins and house charge are its house rules (HomeTableConfig), set on their own page.
TRIPLE_DRAW_ONLY = (*LIMIT_FIELDS, "paytable")


def is_home_type(table_type: Any) -> bool:
    return table_type in HOME_VARIANTS


class TableAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """Every table type: name, type, card source, dealers; limits in dollars and a paytable for Triple Draw only
    (a home-game table's form has neither: they do not apply to it, and its house rules have their own page)."""

    min_bet_cents = DollarsField()
    max_bet_cents = DollarsField()
    max_payout_per_seat_cents = DollarsField()
    supervisor_approval_threshold_cents = DollarsField()
    paytable = PaytableChoiceField(
        queryset=Paytable.objects.none(),
        required=False,
        help_text="Approved versions only (Triple Draw tables). A round keeps the version locked when its bets closed.",
    )
    dealers = DealerChoiceField(
        queryset=User.objects.none(), required=False, help_text="Only users with the dealer role."
    )

    class Meta:
        model = Table
        fields = ["name", "table_type", "card_source", *LIMIT_FIELDS, "paytable", "dealers"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field, (label, help_text) in LIMIT_LABELS.items():
            self.fields[field].label = label
            self.fields[field].help_text = help_text
            if not self.instance.pk:
                self.initial.setdefault(field, Table._meta.get_field(field).get_default())  # type: ignore[union-attr]
        paytables, dealers = self.fields["paytable"], self.fields["dealers"]
        assert isinstance(paytables, forms.ModelChoiceField)
        assert isinstance(dealers, forms.ModelMultipleChoiceField)
        paytables.queryset = (
            Paytable.objects.filter(status__in=USABLE_PAYTABLE).select_related("analysis").order_by("name", "-version")
        )
        dealers.queryset = dealer_queryset()
        if self.instance.pk and not self.instance.is_triple_draw:
            for field in TRIPLE_DRAW_ONLY:  # a home-game table has none of them (nor does its page)
                del self.fields[field]
        elif self._new_home_table():
            for field in LIMIT_FIELDS:
                self.fields[field].required = False

    def _new_home_table(self) -> bool:
        return not self.instance.pk and self.is_bound and is_home_type(self.data.get("table_type"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self._new_home_table():
            # A new home-game table: the Triple Draw limits (hidden on the page once a home game is chosen) are not
            # read, so a stale value there neither blocks the save nor lands on the table (it keeps the defaults).
            # A paytable is still read, to be refused by name rather than dropped.
            for field in LIMIT_FIELDS:
                self.errors.pop(field, None)
                data.pop(field, None)
        if data.get("name") and "name" not in self.errors:
            self._check(check_name, data["name"], table=self.instance if self.instance.pk else None)
        limits = {field: data.get(field) for field in LIMIT_FIELDS}
        if all(isinstance(value, int) for value in limits.values()):
            self._check(check_limits, **limits)
        table_type = data.get("table_type") or self.instance.table_type or TableType.TRIPLE_DRAW
        if "paytable" in self.fields:
            self._check(check_paytable, data.get("paytable"), table_type)
        if (
            self.instance.pk
            and self.instance.paytable_id is not None
            and "paytable" in self.fields
            and data.get("paytable") is None
            and "paytable" not in self.errors
        ):
            # The services replace a paytable and never take one off (a Triple Draw table settles from it): blank here
            # used to save "successfully" with the old paytable still in force.
            self.add_error(
                "paytable",
                "a Triple Draw table's paytable can be replaced, not removed: choose the version to put on it "
                f"(now {self.instance.paytable})",
            )
        if (
            self.instance.pk
            and self.instance.is_open
            and table_type == TableType.TRIPLE_DRAW
            and data.get("paytable") is None
            and self.instance.paytable_id is None
            and "paytable" not in self.errors
        ):
            # An open Triple Draw table (one opened before opening needed a paytable) takes bets it cannot settle.
            self.add_error("paytable", "this table is open: choose an approved paytable, or close the table first")
        return data

    def _check(self, check: Any, *args: Any, **kwargs: Any) -> None:
        """Run a service's check; its refusal goes beside the field it names."""
        try:
            check(*args, **kwargs)
        except DomainError as exc:
            field = exc.field if exc.field in self.fields else None
            self.add_error(field, exc.message)
