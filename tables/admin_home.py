"""The floor's house rules for home-game tables in the admin: announced options, buy-ins and the house's charge in
dollars, checked by the same service as the API (home_config_set) and refused beside the field at fault."""

from __future__ import annotations

import functools
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, QueryDict
from django.utils.safestring import SafeString, mark_safe

from audit.admin_history import AuditHistoryAdmin
from audit.context import acting_as
from audit.roles import FLOOR, has_role
from casino.engine.money import money
from casino.engine.variants import HOME_VARIANTS
from casino.errors import DomainError
from casino.money_fields import DollarsField
from casino.users import request_user
from tables.admin_rules import (
    field_name,
    option_fields,
    option_fieldsets,
    refusal_in_words,
    rules_from,
    shown_rules,
    usual_values,
)
from tables.models import CardSource, HomeGame, HomeTableConfig, HouseCharge, Table, TableType
from tables.services.home_config import CONFIG_DEFAULTS, config_refusals, home_config_set

SETTINGS = ("rules", *CONFIG_DEFAULTS)
# The admin's message after a save (the table's name in a link to the page): "The house rules “<a …>Pit 2 house
# rules</a>” was added successfully." The floor says "The house rules of Pit 2 were added successfully."
SAVED = re.compile(r"^The house rules “(<a [^>]*>)?(.+?) house rules(</a>)?” was (added|changed)")
CHOOSE_A_TABLE = ("Choose a table above: the options of its game show here. (Without scripts, save once and the page "
                  "shows them.)")
NO_TABLE_LEFT = ("Every home-game table already has its house rules: change a table's rules from the house rules "
                 "list, or create a home-game table first (Tables, Add table).")


def open_game_keeps(table: Table, what: str) -> str | None:
    """A game keeps the house rules and card source it was opened with: after a change, say so if one is open, or
    the floor reads "changed successfully" while the game in play goes on as before."""
    game = HomeGame.objects.filter(table=table, status=HomeGame.Status.OPEN).only("number", "card_source").first()
    if game is None:
        return None
    if what == "card_source":
        kept, new = CardSource(game.card_source).label, CardSource(table.card_source).label
        return (f"Game {game.number} at {table.name} keeps its card source ({kept}); the next game opened there "
                f"uses {new}.")
    return (f"Game {game.number} at {table.name} goes on under the rules it was opened with; the next game opened "
            "there is announced with these.")


class PercentInput(forms.TextInput):
    """The rake's stored basis points shown as the percent people say (500 -> "5", 250 -> "2.5")."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "decimal", "autocomplete": "off", "size": 8, **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool):
            return percent_text(value)
        formatted: str | None = super().format_value(value)
        return formatted


def percent_text(basis_points: int) -> str:
    text = f"{Decimal(basis_points) / 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


class PercentField(forms.Field):
    """Typed as a percent ("5", "2.5", "5%"), cleaned to integer basis points (500, 250): the API's unit is basis
    points, but a supervisor who types 5 for a 5 % rake must not get 0.05 %."""

    widget = PercentInput

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # already basis points (the stored value)
        text = str(value).strip().removesuffix("%").strip()
        if "," in text:
            raise ValidationError(f"{str(value).strip()[:20]!r} is not a percent: type a point, not a comma (2.5)",
                                  code="bad_percent")
        try:
            percent = Decimal(text)
        except InvalidOperation:
            raise ValidationError(f"{str(value).strip()[:20]!r} is not a percent: type 5 for 5 %",
                                  code="bad_percent") from None
        if not percent.is_finite():
            raise ValidationError("type a percent, e.g. 5 for 5 %", code="bad_percent")
        basis_points = percent * 100
        if basis_points != basis_points.to_integral_value():
            raise ValidationError("a rake goes to a hundredth of a percent at most (2.55)", code="bad_percent")
        if basis_points < 0:
            raise ValidationError("a rake cannot be negative", code="bad_percent")
        return int(basis_points)


class HouseRulesForm(forms.ModelForm):  # type: ignore[type-arg]
    """Money in dollars, one field per announced option; every value checked as one set by the service's own check
    before anything is saved. `house_rules_form(variant)` adds the option fields of a table's game."""

    variant: str | None = None  # the game whose options this form shows (none until a table is chosen)
    # The game whose options the page showed when it was posted: a table chosen without them (scripts off, or a
    # table of another game chosen after) is refused, so its options are never taken as left empty on purpose.
    options_for = forms.CharField(widget=forms.HiddenInput, required=False)
    buy_in_min_cents = DollarsField(label="Smallest buy-in")
    buy_in_max_cents = DollarsField(label="Largest buy-in")
    rake_basis_points = PercentField(
        required=False, label="Rake (% of each pot)", help_text="5 is 5 % of each pot that was bet into (2.5 for 2.5 %)"
    )
    rake_cap_cents = DollarsField(label="Rake cap per pot", required=False)
    time_charge_cents = DollarsField(label="Time charge per seat per half hour", required=False)

    class Meta:
        model = HomeTableConfig
        fields = ("table", *CONFIG_DEFAULTS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "table" in self.fields:
            table_field = self.fields["table"]
            assert isinstance(table_field, forms.ModelChoiceField)
            # Home-game tables that have no house rules yet (a table's rules are changed on their own page).
            table_field.queryset = Table.objects.filter(table_type__in=HOME_VARIANTS, home_config__isnull=True)
        self.posted_for = self.data.get("options_for") if self.is_bound else None
        if self.is_bound:  # shown again, the page carries the options it now shows
            self.data = {**self.data.dict(), "options_for": self.variant or ""} if isinstance(self.data, QueryDict) \
                else {**self.data, "options_for": self.variant or ""}
        self.initial["options_for"] = self.variant or ""
        if self.instance.pk and self.variant:
            self.initial.update(shown_rules(self.variant, self.instance.rules))  # dollars, labels, card text
        elif not self.instance.pk:
            for name, value in CONFIG_DEFAULTS.items():
                self.initial.setdefault(name, value)
            if self.variant:
                for name, value in usual_values(self.variant).items():
                    self.initial.setdefault(name, value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("rake_basis_points", "rake_cap_cents", "time_charge_cents"):
            if name in data and data[name] is None:
                data[name] = 0  # left empty: no such charge
        table = data.get("table") or (self.instance.table if self.instance.pk else None)
        if table is None or "table" in self.errors:
            return data
        if self.variant is None or self.variant != table.table_type or self.posted_for != table.table_type:
            self.add_error("table" if "table" in self.fields else None,
                           f"Set the options of this {table.get_table_type_display()} table below, then save.")
            return data
        data["rules"] = rules_from(self.variant, data)  # what is left empty is left out: the variant's default
        # A box its own field already refused (a negative amount, a number out of range) is out of `data`: the
        # service judges everything else in the same save, so the floor sees every wrong box at once, and its word
        # on the refused box ("must be announced") would only repeat that the box holds nothing usable.
        refused = set(self.errors)
        for exc in config_refusals(table.table_type, {name: data.get(name) for name in SETTINGS}):
            if self._box_of(exc) not in refused:
                self._refuse(exc, data)  # each part's refusal beside its own box, all at once
        return data

    def _box_of(self, exc: DomainError) -> str | None:
        """The form's box a refusal belongs beside ("rules.legs_to_win" -> the legs-to-win box), None for the page."""
        field = exc.field or ""
        name = field_name(field.removeprefix("rules.")) if field.startswith("rules.") else field
        return name if name in self.fields else None

    def _refuse(self, exc: DomainError, data: dict[str, Any]) -> None:
        field = exc.field or ""
        if field.startswith("rules.") and self.variant:  # "rules.legs_to_win" belongs beside the legs to win
            self.add_error(self._box_of(exc), refusal_in_words(self.variant, field.removeprefix("rules."), exc.message))
        elif field not in self.fields:
            self.add_error(None, exc.message)
        elif field == "rake_basis_points" and data.get("charge") == HouseCharge.RAKE:
            # The box is a percent; the service counts basis points (the API's unit).
            self.add_error(field, f"a rake is 0.01 % to 100 % of each pot, got "
                                  f"{percent_text(int(data.get(field) or 0))} %")
        else:  # beside its own box, in the words of the page ("the largest buy-in", not "buy_in_max_cents")
            self.add_error(field, self._in_words(exc.message))

    def _get_validation_exclusions(self) -> set[str]:
        """The service's check (in clean) judges the buy-ins and the charge and says why beside the box; the model's
        own constraints on them would add "Constraint “home_buy_in_max_ge_min” is violated." whenever another box's
        refusal kept that check from running. The database still enforces them."""
        return {*super()._get_validation_exclusions(), *CONFIG_DEFAULTS}  # type: ignore[misc]  # not in the stubs

    def _in_words(self, message: str) -> str:
        for name in sorted((name for name in CONFIG_DEFAULTS if "_" in name), key=len, reverse=True):  # not "charge"
            label = self.fields[name].label if name in self.fields else None
            if label:
                message = message.replace(name, f"the {label[0].lower()}{label[1:]}")
        return message


@functools.cache
def house_rules_form(variant: str | None) -> type[HouseRulesForm]:
    """The house-rules form with a field for each option of the variant's game (none before a table is chosen)."""
    if variant is None:
        return HouseRulesForm
    name = f"HouseRulesForm_{variant.replace('-', '_')}"
    return type(name, (HouseRulesForm,), {"variant": variant, **option_fields(variant)})


@admin.register(HomeTableConfig)
class HouseRulesAdmin(AuditHistoryAdmin):
    """Set and change a home-game table's house rules; each save is home_config_set (audited)."""

    form = HouseRulesForm
    list_display = ("table", "variant", "charge", "buy_ins")
    search_fields = ("table__name",)

    class Media:
        js = ("tables/admin-house-rules.js",)  # choosing a table shows its game's options (reloads with ?table=)

    @admin.display(description="variant")
    def variant(self, config: HomeTableConfig) -> str:
        return config.table.get_table_type_display()

    @admin.display(description="buy-ins")
    def buy_ins(self, config: HomeTableConfig) -> str:
        return f"{money(config.buy_in_min_cents)} to {money(config.buy_in_max_cents)}"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("in_play", "table") if obj is not None else ()

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        kwargs["form"] = house_rules_form(self._variant(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:  # django-stubs: field groups
        variant = self._variant(request, obj)
        first = ["table", "options_for"]
        if obj is not None and self._open_game(obj) is not None:
            first.insert(0, "in_play")  # said before the change is made, not only after saving it
        options: list[tuple[str | None, dict[str, Any]]] = [
            (f"{TableType(variant).label}: {title.lower()}", {"fields": names})
            for title, names in option_fieldsets(variant)
        ] if variant else [("The game's options", {"fields": (), "description": self._choose_a_table()})]
        return [(None, {"fields": first}), *options,
                ("Buy-ins and the house's charge", {"fields": list(CONFIG_DEFAULTS)})]

    @staticmethod
    def _choose_a_table() -> str:
        """What to do before any option shows; with no home-game table left without rules, say so (an empty choice
        and "choose a table above" would leave the floor looking for one)."""
        if Table.objects.filter(table_type__in=HOME_VARIANTS, home_config__isnull=True).exists():
            return CHOOSE_A_TABLE
        return NO_TABLE_LEFT

    def _variant(self, request: HttpRequest, obj: Any) -> str | None:
        """The table's game: its own on the change page; on the add page, the table posted or chosen (?table=)."""
        if obj is not None:
            return str(obj.table.table_type)
        chosen = request.POST.get("table") or request.GET.get("table")
        if not str(chosen or "").isdigit():
            return None
        table_type = Table.objects.filter(pk=int(str(chosen)), table_type__in=HOME_VARIANTS).values_list(
            "table_type", flat=True).first()
        return str(table_type) if table_type else None

    def _open_game(self, config: HomeTableConfig) -> HomeGame | None:
        return HomeGame.objects.filter(table_id=config.table_id, status=HomeGame.Status.OPEN).first()

    @admin.display(description="game in play")
    def in_play(self, config: HomeTableConfig) -> str:
        game = self._open_game(config)
        if game is None:
            return "—"
        ante = game.rules.get("ante_cents")
        kept = f" (ante {money(ante)})" if isinstance(ante, int) else ""
        return (f"Game {game.number} is open at {config.table.name}: it keeps the rules it was opened with{kept}; "
                "what is saved here is announced to the next game.")

    def save_model(self, request: HttpRequest, obj: HomeTableConfig, form: Any, change: bool) -> None:
        table = obj.table if change else form.cleaned_data["table"]
        values = {name: form.cleaned_data[name] for name in SETTINGS}
        with acting_as(user=request_user(request), kind="user"):
            saved = home_config_set(table=table, actor=request_user(request), **values)
        obj.pk = saved.pk
        note = open_game_keeps(table, "rules") if change and form.changed_data else None
        if note:
            self.message_user(request, note, messages.WARNING)

    def message_user(self, request: HttpRequest, message: Any, *args: Any, **kwargs: Any) -> None:
        worded = SAVED.sub(r"The house rules of \1\2\3 were \4", str(message))
        # The admin's message was built safe (its link escaped); rewording it keeps it so.
        super().message_user(request, mark_safe(worded) if isinstance(message, SafeString) else worded,
                             *args, **kwargs)

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # home_config_set wrote the audit event

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return has_role(request.user, FLOOR)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return has_role(request.user, FLOOR)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
