"""Admin forms for paytables: text inputs for ranks and pays, schedule checked by the engine's own rules."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.forms.models import BaseInlineFormSet

from casino.engine.hand_words import hand_label
from casino.engine.pay_classes import HAND_CODES
from casino.engine.paytable import PaytableError, PaytableSpec
from paytables.models import Paytable, PaytableLine

# The engine's refusals name hand codes and JSON keys ("line 3 (two_pair): min_rank applies only to one_pair"); the
# page names them as its boxes and menus do ("line 3 (two pair): min rank applies only to pair").
_CODE = re.compile(r"\b(" + "|".join(sorted((*HAND_CODES, "min_rank", "wild_ranks"), key=len, reverse=True)) + r")\b")


def in_words(message: str) -> str:
    return _CODE.sub(lambda m: m.group(1).replace("_", " ") if m.group(1) in ("min_rank", "wild_ranks")
                     else hand_label(m.group(1)).lower(), message)


def _rank_list(text: str) -> list[str]:
    """'2 3, 4' -> ['2', '3', '4'] (the engine judges whether each is a rank)."""
    return [token for token in text.replace(",", " ").split() if token]


class PaytableForm(forms.ModelForm):  # type: ignore[type-arg]
    wild_ranks = forms.CharField(
        required=False,
        help_text="Wild ranks, space separated (e.g. 2 for deuces wild); empty for none.",
    )

    class Meta:
        model = Paytable
        fields = ["name", "basis", "wild_ranks"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and isinstance(self.instance.wild_ranks, list):
            self.initial["wild_ranks"] = " ".join(self.instance.wild_ranks)

    def clean_wild_ranks(self) -> list[str]:
        return _rank_list(self.cleaned_data.get("wild_ranks") or "")


class PaytableLineForm(forms.ModelForm):  # type: ignore[type-arg]
    hand = forms.ChoiceField(choices=[("", "---------"), *((code, hand_label(code)) for code in HAND_CODES)])
    # Boxes as wide as what is typed in them (a rank, a few ranks, "3/2"): at the admin's default 20 characters the
    # lines' table was wider than the page at 1280px, its "Delete?" column off the screen.
    ranks = forms.CharField(
        required=False, help_text="four_of_a_kind only, e.g. A or 2 3 4", widget=forms.TextInput(attrs={"size": 8})
    )
    pays = forms.CharField(help_text="An exact number: 9, 3/2", widget=forms.TextInput(attrs={"size": 6}))

    class Meta:
        model = PaytableLine
        fields = ["position", "hand", "min_rank", "ranks"]
        widgets = {"min_rank": forms.TextInput(attrs={"size": 2})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "position" in self.fields:  # absent when the inline is read-only
            self.fields["position"].required = False
        if self.instance.pk:
            self.initial["ranks"] = " ".join(self.instance.ranks or [])
            self.initial["pays"] = self.instance.pays

    def clean_ranks(self) -> list[str]:
        return _rank_list(self.cleaned_data.get("ranks") or "")

    def validate_unique(self) -> None:
        """Stored rows are replaced as a whole by the service, so clashes with them do not matter."""

    def as_line(self) -> dict[str, Any]:
        """This row as DESIGN 6 JSON for the services."""
        data = self.cleaned_data
        line: dict[str, Any] = {"hand": (data.get("hand") or "").strip(), "pays": (data.get("pays") or "").strip()}
        if data.get("min_rank"):
            line["min_rank"] = data["min_rank"].strip()
        if data.get("ranks"):
            line["ranks"] = data["ranks"]
        return line


class PaytableLineFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """All lines together; rejected with the engine's message when they do not make a valid paytable."""

    def schedule(self) -> list[dict[str, Any]]:
        rows = []
        for index, form in enumerate(self.forms):
            if not hasattr(form, "cleaned_data") or not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            position = form.cleaned_data.get("position")
            line = form.as_line()  # type: ignore[attr-defined]  # every form of this formset is a PaytableLineForm
            rows.append((position if position is not None else 10_000 + index, index, line))
        return [line for _, _, line in sorted(rows, key=lambda row: (row[0], row[1]))]

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        parent = self.instance
        data: dict[str, Any] = {"name": parent.name or "draft", "basis": parent.basis, "lines": self.schedule()}
        if parent.wild_ranks:
            data["wild_ranks"] = list(parent.wild_ranks)
        try:
            PaytableSpec.from_dict(data)
        except PaytableError as exc:
            raise forms.ValidationError(in_words(exc.message), code=exc.code) from exc
