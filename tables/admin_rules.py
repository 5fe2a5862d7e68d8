"""A home-game table's announced options (DESIGN 7) as one admin form field each, read back into the API's `rules`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from casino.engine.money import money
from casino.engine.rules.options import ALL_BETTING, KILL_CARD_PRESETS, OptionKind, OptionSpec, option_specs
from casino.money_fields import DollarsField

PREFIX = "rule_"  # rule_ante_cents: the form field of the `ante_cents` option

# The stored codes of the choices as a supervisor reads them (the select shows these, the service gets the code).
CHOICE_LABELS = {
    "fixed_limit": "Fixed limit",
    "pot_limit": "Pot limit",
    "no_limit": "No limit",
    "optional": "Optional (up to the cards per draw)",
    "mandatory": "Mandatory (exactly the cards per draw)",
    "highest": "The highest hand",
    "below_straight_flush": "Below a straight flush",
    "no_wild": "Nothing is wild",
    "aces": "Aces are wild",
    "each_scores": "Each winner scores a leg",
    "nobody_scores": "Nobody scores a leg",
}
YES, NO = "yes", "no"

# Fieldsets of the form, in this order; an option not named here goes with the stakes.
GROUPS: dict[str, tuple[str, ...]] = {
    "Stakes": ("ante_cents", "betting", "small_bet_cents", "big_bet_cents", "min_bet_cents"),
    "The draw": ("max_discard", "max_discard_with_ace", "draws", "cards_per_draw", "draw"),
    "Wild and kill cards": ("wild_ranks", "wild_cards", "kill_cards", "five_of_a_kind", "wild_duplicates_in_flush",
                            "freak_bottom"),
    "Legs": ("legs_to_win", "uncontested_scores_leg", "tie", "forced_play"),
}


def field_name(code: str) -> str:
    return PREFIX + code


def choice_label(code: str) -> str:
    return CHOICE_LABELS.get(code, code.replace("_", " ").capitalize())


class YesNoField(forms.TypedChoiceField):
    """A flag as a select: empty (the default), yes or no. A checkbox could not tell "not set" from "false"."""

    def __init__(self, *, default: bool | None, **kwargs: Any) -> None:
        empty = f"Default ({YES if default else NO})" if default is not None else "—"
        super().__init__(choices=[("", empty), (YES, "Yes"), (NO, "No")], coerce=lambda value: value == YES,
                         empty_value=None, **kwargs)


def _structures(structures: tuple[str, ...]) -> str:
    return " or ".join(choice_label(str(structure)).lower() for structure in structures)


def _shown_default(spec: OptionSpec) -> str:
    if spec.default == []:
        return "none"
    if isinstance(spec.default, bool):
        return YES if spec.default else NO
    if spec.kind is OptionKind.CHOICE:
        return choice_label(str(spec.default))
    return str(spec.default)


def option_help(spec: OptionSpec) -> str:
    """ "Leave empty for the default: 3", "Fixed limit only; required there", and how cards are written."""
    limited = tuple(spec.betting) != ALL_BETTING
    where = f"{_structures(spec.betting).capitalize()} only" if limited else ""
    if spec.required_with:
        usual = f" (usually {_shown_default(spec)})" if spec.default is not None else ""
        needed = "required there" if limited else "Required: the game announces it before the deal"
        text = f"{where}; {needed}{usual}" if where else f"{needed}{usual}"
    else:
        text = f"{where}; leave empty" if where else "Leave empty"
        text += f" for the default: {_shown_default(spec)}"
    if spec.kind is OptionKind.CARDS:
        presets = ", ".join(f"{name} ({' '.join(str(card) for card in cards)})"
                            for name, cards in KILL_CARD_PRESETS.items())
        text += ". Cards as 9h Ks" + (f", or by name: {presets}" if spec.presets else "")
    elif spec.kind is OptionKind.RANKS:
        text += ". Ranks as 5 9 (T or 10, J, Q, K, A)"
    return text + "."


def option_field(spec: OptionSpec) -> forms.Field:
    """The form field of one option: dollars, a whole number, a select or card text, never required by the form (the
    service says what a game must announce, beside this field)."""
    field = _bare_field(spec)
    # For the page's script: an option of some betting structures only is hidden (and not sent) under the others;
    # the betting select says which structure an empty choice means.
    if tuple(spec.betting) != ALL_BETTING:
        field.widget.attrs["data-betting"] = " ".join(str(structure) for structure in spec.betting)
    if spec.code == "betting":
        field.widget.attrs["data-default"] = str(spec.default)
    return field


def _bare_field(spec: OptionSpec) -> forms.Field:
    common: dict[str, Any] = {"label": spec.label, "required": False, "help_text": option_help(spec)}
    if spec.kind is OptionKind.CENTS:
        return DollarsField(minimum_cents=spec.minimum or 0, **common)
    if spec.kind is OptionKind.NUMBER:
        return forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum, **common)
    if spec.kind is OptionKind.CHOICE:
        empty = "—" if spec.required_with else f"Default ({choice_label(str(spec.default))})"
        return forms.ChoiceField(choices=[("", empty), *((code, choice_label(code)) for code in spec.choices)],
                                 **common)
    if spec.kind is OptionKind.FLAG:
        return YesNoField(default=spec.default if isinstance(spec.default, bool) else None, **common)
    return forms.CharField(strip=True, widget=forms.TextInput(attrs={"size": 24, "autocomplete": "off"}), **common)


def option_fields(variant: str) -> dict[str, forms.Field]:
    """The fields of every option the variant announces, by form field name, in the DESIGN 7 order."""
    return {field_name(code): option_field(spec) for code, spec in option_specs(variant).items()}


def option_fieldsets(variant: str) -> list[tuple[str, list[str]]]:
    """The variant's option fields grouped (stakes, the draw, wild and kill cards, legs); empty groups left out."""
    codes = list(option_specs(variant))
    grouped = {title: [field_name(code) for code in members if code in codes] for title, members in GROUPS.items()}
    placed = {code for members in GROUPS.values() for code in members}
    grouped["Stakes"] += [field_name(code) for code in codes if code not in placed]
    return [(title, names) for title, names in grouped.items() if names]


def shown_value(spec: OptionSpec, value: Any) -> Any:
    """A stored option as its field shows it: cents stay cents (the dollar box formats them), flags yes or no, card
    and rank lists as text."""
    if value is None:
        return None
    if spec.kind is OptionKind.FLAG:
        return YES if value else NO
    if spec.kind in (OptionKind.CARDS, OptionKind.RANKS):
        return " ".join(str(item) for item in value) if isinstance(value, list | tuple) else str(value)
    return value


def shown_rules(variant: str, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The initial values of the option fields for stored (or API) rules."""
    specs = option_specs(variant)
    return {field_name(code): shown_value(specs[code], value) for code, value in rules.items() if code in specs}


def usual_values(variant: str) -> dict[str, Any]:
    """A new table's form starts with the usual value of each option that must be announced and has one (Pregnant
    Threes' draws): the supervisor confirms it rather than being refused for leaving it empty."""
    return {field_name(code): shown_value(spec, spec.default) for code, spec in option_specs(variant).items()
            if spec.required_with and spec.default is not None}


def rules_from(variant: str, cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The `rules` object the API takes: an option left empty is left out, so the variant's default applies. Cards
    and ranks go as typed ("9h Ks"): the engine reads that notation as it reads the API's."""
    rules: dict[str, Any] = {}
    for code in option_specs(variant):
        value = cleaned.get(field_name(code))
        if value is not None and value != "":
            rules[code] = value
    return rules


_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")  # option and choice codes (ante_cents, no_limit): never plain words


def refusal_in_words(variant: str, code: str, message: str) -> str:
    """The engine's refusal of an option as the page says it beside that option: no "option big_bet_cents", money in
    dollars, other options and choices by their labels ("the small bet (before the draw) of $2.00")."""
    specs = option_specs(variant)
    text = message.removeprefix(f"option {code}:").removeprefix(f"option {code}").strip()
    spec = specs.get(code)
    if spec is not None and spec.kind is OptionKind.CENTS:
        text = re.sub(r"an integer at least (\d+)", lambda found: f"at least {money(int(found[1]))}", text)
        text = re.sub(r"\((\d+)\)", lambda found: f"of {money(int(found[1]))}", text)
        text = re.sub(r"got (-?\d+)", lambda found: f"got {money(int(found[1]))}", text)

    def named(found: re.Match[str]) -> str:
        word = found[0]
        if word in specs:
            return f"the {specs[word].label[0].lower()}{specs[word].label[1:]}"
        return choice_label(word).lower() if word in CHOICE_LABELS else word

    text = _CODE.sub(named, text)
    return text[:1].upper() + text[1:]
